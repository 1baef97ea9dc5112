import { orderFormMessages } from '@marketplace/events/orders';
import { getOwnOrder } from '../../data/orders';
import { Conflict } from '../../http/errors';

/**
 * The caller's own order, if it can be paid now: not cancelled, not paid, every photo uploaded,
 * and its card payment started. The pay-later screen and a saved card's payment ask the same.
 */
export const payableOrder = async (orderId: string, userId: string) => {
  const order = await getOwnOrder(orderId, userId);
  if (order.status === 'cancelled') throw new Conflict('This order was cancelled');
  if (order.status !== 'pending_payment') throw new Conflict('This order is already paid');
  if (order.photographerUploadCount < order.photoCount) {
    throw new Conflict(orderFormMessages.tooFewFiles(order.photoCount, order.photographerUploadCount));
  }
  const { stripePaymentIntentId } = order;
  if (!stripePaymentIntentId) throw new Conflict('This order has no card payment to complete');
  return { ...order, stripePaymentIntentId };
};
