import { registerUploadInput } from '@marketplace/events/orders';
import { getOrder, getOwnOrder, registerOriginals } from '../../data/orders';
import { orderAcceptsOriginals, originalUploads } from '../../domain/upload-rules';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { orderParams } from '../orders/order-params';
import { throwIfRefused, uploadsOf, verifiedImages } from './direct-upload';

/**
 * An upload counts only once the server has seen it in S3: the object must be there, under this
 * order's originals and within the size cap (an oversized one is deleted). Registering twice counts
 * once. One file (`{ key, filename }`) or up to 25 (`{ files }`), which count together or not at all.
 */
export const handler = http({ params: orderParams, body: registerUploadInput }, async ({ params, body, user }) => {
  const order = await getOwnOrder(params.id, user.userId);
  throwIfRefused(orderAcceptsOriginals(order));
  const verified = await verifiedImages(originalUploads, order, uploadsOf(body), 'original');
  await registerOriginals(verified.map(({ registration }) => registration));
  const photographerUploadCount = (await getOrder(order.orderId))?.photographerUploadCount ?? 0;
  const images = verified.map(({ image }) => image);
  return ok('files' in body ? { images, photographerUploadCount } : { image: images[0], photographerUploadCount });
});
