import { getOrderAddOns, toOrderAddOnsView } from '../../data/add-ons';
import { getOrder } from '../../data/orders';
import { canViewOrder } from '../../domain/order-access';
import { NotFound } from '../../http/errors';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { orderParams } from './order-params';

/** The order's price (base, each add-on, total) and the add-ons on each photo, for whoever may see the order. */
export const handler = http({ params: orderParams }, async ({ params, user }) => {
  const order = await getOrder(params.id);
  if (!order || !canViewOrder(user, order)) throw new NotFound('Order not found');
  return ok(toOrderAddOnsView(order, await getOrderAddOns(order.orderId)));
});
