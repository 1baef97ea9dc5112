import { paymentSuccessInput } from '@marketplace/events/orders';
import { retrievePaymentIntent } from '../../adapters/stripe';
import { payOrder } from '../../data/order-payments';
import { getOrder, getOwnOrder, toDetailView } from '../../data/orders';
import { Conflict } from '../../http/errors';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { orderParams } from '../orders/order-params';

/**
 * The browser reports a card payment that succeeded. Its word is only a hint: the intent is read
 * from Stripe and checked before the order is marked paid (once, however often this is called).
 */
export const handler = http({ params: orderParams, body: paymentSuccessInput }, async ({ params, body, user }) => {
  const order = await getOwnOrder(params.id, user.userId);
  if (order.stripePaymentIntentId !== body.paymentIntentId) {
    throw new Conflict('This payment does not belong to this order');
  }
  if (order.status === 'cancelled') throw new Conflict('This order was cancelled');
  if (order.status === 'pending_payment') {
    const intent = await retrievePaymentIntent(body.paymentIntentId);
    await payOrder({ order, payment: intent, via: 'client' });
  }
  return ok(toDetailView((await getOrder(order.orderId)) ?? order));
});
