import { createOrderInput } from '@marketplace/events/orders';
import { ulid } from 'ulid';
import { createOrderPaymentIntent } from '../../adapters/stripe';
import { getJobType } from '../../data/job-types';
import { createOrder, nextOrderNumber, toDetailView } from '../../data/orders';
import { orderTotalCents } from '../../domain/orders';
import { BadRequest } from '../../http/errors';
import { http } from '../../http/http';
import { created } from '../../http/responses';

/**
 * Creates an order awaiting payment, priced on the server from the job type, with its Stripe
 * payment intent. The intent comes first (with an idempotency key): if the order write failed
 * after it, the unconfirmed intent is harmless; the reverse would leave an order nobody can pay.
 */
export const handler = http({ body: createOrderInput }, async ({ body, user }) => {
  const jobType = await getJobType(body.jobTypeId);
  if (!jobType || !jobType.isActive) throw new BadRequest('Please select a service type that is offered');
  const orderId = ulid();
  const orderNumber = await nextOrderNumber();
  const totalAmountCents = orderTotalCents(body.photoCount, jobType);
  const intent = await createOrderPaymentIntent({ orderId, orderNumber, amountCents: totalAmountCents });
  const order = await createOrder({
    orderId,
    orderNumber,
    photographer: { userId: user.userId, name: user.displayName ?? user.email },
    jobType: { jobTypeId: jobType.id, name: jobType.name, pricePerPhotoCents: jobType.pricePerPhotoCents },
    input: body,
    totalAmountCents,
    stripePaymentIntentId: intent.id,
  });
  const view = toDetailView(order);
  return created({
    order: { ...view, stripePaymentIntentId: intent.id },
    stripeClientSecret: intent.client_secret,
  });
});
