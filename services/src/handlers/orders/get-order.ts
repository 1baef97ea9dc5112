import { getOrder } from '../../data/orders';
import { detailViewFor } from '../../data/revisions';
import { canViewOrder } from '../../domain/order-access';
import { NotFound } from '../../http/errors';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { orderParams } from './order-params';

export const handler = http({ params: orderParams }, async ({ params, user }) => {
  const order = await getOrder(params.id);
  if (!order || !canViewOrder(user, order)) throw new NotFound('Order not found');
  return ok(await detailViewFor(order, user));
});
