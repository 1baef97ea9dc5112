import { editingStyleView } from '../../data/editing-style';
import { getOrder } from '../../data/orders';
import { canViewOrder } from '../../domain/order-access';
import { NotFound } from '../../http/errors';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { orderParams } from './order-params';

/**
 * The order's editing style as it was kept when the order was made, with its reference photos
 * presigned: for whoever may see the order (its photographer, an editor it is offered or assigned
 * to, an admin). `saved` is false for an order made without one.
 */
export const handler = http({ params: orderParams }, async ({ params, user }) => {
  const order = await getOrder(params.id);
  if (!order || !canViewOrder(user, order)) throw new NotFound('Order not found');
  return ok(await editingStyleView(order.editingStyle));
});
