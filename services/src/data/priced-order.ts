import type { CreateOrderInput } from '@marketplace/events/orders';
import { ulid } from 'ulid';
import { createOrderPaymentIntent } from '../adapters/stripe';
import { priceOrder } from '../domain/orders';
import { BadRequest } from '../http/errors';
import { editingStyleForOrder } from './editing-style';
import { getJobType } from './job-types';
import { createOrder, nextOrderNumber, type OrderRecord, toDetailView } from './orders';

/**
 * A new order awaiting payment, priced on the server from the job type and the tier (priceOrder), with its Stripe payment
 * intent. The intent comes first (with an idempotency key): if the order write failed after it,
 * the unconfirmed intent is harmless; the reverse would leave an order nobody can pay.
 */
export const createPricedOrder = async ({
  photographer,
  input,
}: {
  photographer: { userId: string; name: string };
  input: CreateOrderInput;
}) => {
  const jobType = await findOfferedJobType(input.jobTypeId);
  const editingStyle = await editingStyleForOrder(photographer.userId, input.editingStyle);
  const orderId = ulid();
  const orderNumber = await nextOrderNumber();
  const tier = input.turnaroundTier;
  const price = priceOrder({ photoCount: input.photoCount, jobType, tier });
  const totalAmountCents = price.totalCents;
  const intent = await createOrderPaymentIntent({ orderId, orderNumber, amountCents: totalAmountCents });
  const order = await createOrder({
    orderId,
    orderNumber,
    photographer,
    jobType: { jobTypeId: jobType.id, name: jobType.name, pricePerPhotoCents: jobType.pricePerPhotoCents },
    turnaround: { tier, surchargePerPhotoCents: price.lines.find((l) => l.kind === 'surcharge')?.unitCents ?? 0 },
    input,
    totalAmountCents,
    stripePaymentIntentId: intent.id,
    editingStyle,
  });
  return { order, stripeClientSecret: intent.client_secret };
};

/** The job type an order may be placed for; checked before anything is written. */
export const findOfferedJobType = async (jobTypeId: string) => {
  const jobType = await getJobType(jobTypeId);
  if (!jobType || !jobType.isActive) throw new BadRequest('Please select a service type that is offered');
  return jobType;
};

/** The create-order answer: the order and the secret the card form confirms with. */
export const toCreatedOrderResponse = (order: OrderRecord, stripeClientSecret: string | null) => ({
  order: { ...toDetailView(order), stripePaymentIntentId: order.stripePaymentIntentId ?? '' },
  stripeClientSecret,
});
