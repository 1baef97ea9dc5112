import { imageUrls } from '../../adapters/image-urls';
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
  const records = await listImages(order.orderId);
  const views = await Promise.all(
    records.map(async (image) => ({ ...toImageView(image), ...(await imageUrls(image)) })),
  );
  return ok({ images: withPairings(views) });
});
