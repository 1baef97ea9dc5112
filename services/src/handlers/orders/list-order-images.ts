import { getOrder, listImages, toImageView } from '../../data/orders';
import { withPairings } from '../../data/pairings';
import { canViewOrder } from '../../domain/order-access';
import { NotFound } from '../../http/errors';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { orderParams } from './order-params';

export const handler = http({ params: orderParams }, async ({ params, user }) => {
  const order = await getOrder(params.id);
  if (!order || !canViewOrder(user, order)) throw new NotFound('Order not found');
  return ok({ images: withPairings((await listImages(order.orderId)).map(toImageView)) });
});
