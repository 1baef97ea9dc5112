import type Stripe from 'stripe';
import { logger } from '../../adapters/logger';
import { readablePaymentIntent, verifiedWebhookEvent } from '../../adapters/stripe';
import { reverseEarningOfRefund } from '../../data/earning-reversals';
import { payOrder, rememberStripeEvent, wasStripeEventHandled } from '../../data/order-payments';
import { getOrder } from '../../data/orders';
import { BadRequest, HttpError } from '../../http/errors';
import { publicHttp } from '../../http/http';
import { ok } from '../../http/responses';

/**
 * Stripe tells us a payment succeeded. The signature over the raw body is the only proof the
 * call comes from Stripe. Events are acknowledged once handled or when retrying cannot help
 * (another event type, an intent that is not ours); Stripe retries only what we fail. A signed
 * event we cannot read (no id, no payment intent in it) is refused with a 400, which Stripe's
 * dashboard shows as a failed delivery: someone should look at it.
 */
const received = ok({ received: true });

const unreadable = () =>
  new BadRequest('This event does not hold a payment intent we can read', undefined, 'INVALID_EVENT');

/** The event's payment intent, checked; a signed event of another shape is a 400, not a 500. */
const paymentIntentOf = (stripeEvent: Stripe.Event) => {
  try {
    return readablePaymentIntent(stripeEvent.data?.object as Stripe.PaymentIntent);
  } catch {
    throw unreadable();
  }
};

export const handler = publicHttp({}, async ({ event }) => {
  const signature = event.headers['stripe-signature'];
  if (!signature) throw new BadRequest('Missing Stripe-Signature header', undefined, 'INVALID_SIGNATURE');
  const payload = event.isBase64Encoded ? Buffer.from(event.body ?? '', 'base64') : (event.body ?? '');
  const stripeEvent = await verifiedWebhookEvent(payload, signature);
  if (!stripeEvent) throw new BadRequest('Invalid Stripe signature', undefined, 'INVALID_SIGNATURE');

  // A refund of a delivered order takes the editor's share back (their earning; see data/earning-reversals.ts).
  if (stripeEvent.type === 'charge.refunded') {
    const charge = stripeEvent.data?.object as Stripe.Charge | undefined;
    if (!charge || typeof charge.amount !== 'number' || typeof charge.amount_refunded !== 'number') throw unreadable();
    const outcome = await reverseEarningOfRefund(charge);
    logger.info('refund seen', { eventId: stripeEvent.id, chargeId: charge.id, outcome });
    return received;
  }
  if (stripeEvent.type !== 'payment_intent.succeeded') return received;
  if (typeof stripeEvent.id !== 'string' || !stripeEvent.id) throw unreadable();
  const intent = paymentIntentOf(stripeEvent);
  if (await wasStripeEventHandled(stripeEvent.id)) return received;
  const orderId = intent.metadata?.orderId;
  const order = typeof orderId === 'string' && orderId ? await getOrder(orderId) : null;
  if (!order) {
    logger.warn('payment for no order of ours', { eventId: stripeEvent.id, paymentIntentId: intent.id });
    return received;
  }
  try {
    const outcome = await payOrder({ order, payment: intent, via: 'webhook' });
    logger.info('stripe payment recorded', { eventId: stripeEvent.id, orderId: order.orderId, outcome });
  } catch (error) {
    // A payment that does not match its order will not match on a retry either.
    if (!(error instanceof HttpError) || error.statusCode >= 500) throw error;
    logger.error('stripe payment refused', { eventId: stripeEvent.id, orderId: order.orderId, reason: error.message });
  }
  await rememberStripeEvent(stripeEvent.id);
  return received;
});
