import { listOrderMarks, toOrderMarksView } from '../../data/marks';
import { getOrder } from '../../data/orders';
import { canViewOrder } from '../../domain/order-access';
import { NotFound } from '../../http/errors';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { orderParams } from './order-params';

/** The marks drawn on the order's photos, for whoever may see the order. */
export const handler = http({ params: orderParams }, async ({ params, user }) => {
  const order = await getOrder(params.id);
  if (!order || !canViewOrder(user, order)) throw new NotFound('Order not found');
  return ok(toOrderMarksView(await listOrderMarks(order.orderId)));
});
