import { saveCardInput } from '@marketplace/events/payments';
import { setCardSaving } from '../../adapters/stripe-cards';
import { getOwnOrder } from '../../data/orders';
import { ensureStripeCustomer } from '../../data/stripe-customers';
import { Conflict } from '../../http/errors';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { orderParams } from '../orders/order-params';

/**
 * 'Save this card for next time', ticked or unticked before the browser confirms a new card: the
 * server puts the photographer's customer (made now if this is their first saved card) and
 * setup_future_usage on the order's intent, or takes setup_future_usage off again. The browser
 * never names a customer.
 */
export const handler = http({ params: orderParams, body: saveCardInput }, async ({ params, body, user }) => {
  const order = await getOwnOrder(params.id, user.userId);
  if (order.status === 'cancelled') throw new Conflict('This order was cancelled');
  if (order.status !== 'pending_payment') throw new Conflict('This order is already paid');
  if (!order.stripePaymentIntentId) throw new Conflict('This order has no card payment to complete');
  const customerId = body.saveCard ? await ensureStripeCustomer(user) : undefined;
  await setCardSaving(order.stripePaymentIntentId, { customerId, save: body.saveCard });
  return ok({ saveCard: body.saveCard });
});
