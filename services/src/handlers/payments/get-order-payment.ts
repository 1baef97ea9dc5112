import type { OrderPaymentView } from '@marketplace/events/orders';
import { findPaymentIntent } from '../../adapters/stripe';
import { payOrder, startPaymentAgain } from '../../data/order-payments';
import { Conflict } from '../../http/errors';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { orderParams } from '../orders/order-params';
import { payableOrder } from './payable-order';

/**
 * What the pay-later screen needs: the order's total and the client secret its card form
 * confirms with. Only for an unpaid order whose photos are all uploaded. When Stripe no longer
 * knows the order's payment intent, the payment is started again with a new one.
 */
export const handler = http({ params: orderParams }, async ({ params, user }) => {
  const order = await payableOrder(params.id, user.userId);
  const intent = (await findPaymentIntent(order.stripePaymentIntentId)) ?? (await startPaymentAgain(order));
  if (intent.status === 'succeeded') {
    // Paid, but neither the webhook nor the browser has told us yet: record it now.
    await payOrder({ order, payment: intent, via: 'client' });
    throw new Conflict('This order is already paid');
  }
  if (intent.status === 'canceled' || !intent.client_secret) {
    throw new Conflict('This payment was cancelled. Please create a new order.');
  }
  const view: OrderPaymentView = {
    order: {
      id: order.orderId,
      orderNumber: order.orderNumber,
      name: order.name ?? null,
      photoCount: order.photoCount,
      totalAmountCents: order.totalAmountCents,
    },
    stripePaymentIntentId: intent.id,
    stripeClientSecret: intent.client_secret,
  };
  return ok(view);
});
