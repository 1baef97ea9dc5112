import { registerUploadInput } from '@marketplace/events/orders';
import { getOrder, getOwnOrder, registerOriginal } from '../../data/orders';
import { orderAcceptsOriginals, originalUploads } from '../../domain/upload-rules';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { orderParams } from '../orders/order-params';
import { throwIfRefused, verifiedImage } from './direct-upload';

/**
 * An upload counts only once the server has seen it in S3: the object must be there, under this
 * order's originals and within the size cap (an oversized one is deleted). Registering twice counts once.
 */
export const handler = http({ params: orderParams, body: registerUploadInput }, async ({ params, body, user }) => {
  const order = await getOwnOrder(params.id, user.userId);
  throwIfRefused(orderAcceptsOriginals(order));
  const { image, registration } = await verifiedImage(originalUploads, order, body, 'original');
  await registerOriginal(registration);
  const photographerUploadCount = (await getOrder(order.orderId))?.photographerUploadCount ?? 0;
  return ok({ image, photographerUploadCount });
});
