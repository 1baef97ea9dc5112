import { signUploadInput } from '@marketplace/events/orders';
import { getOwnOrder } from '../../data/orders';
import { orderAcceptsOriginals, originalUploads } from '../../domain/upload-rules';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { orderParams } from '../orders/order-params';
import { signUploadRequests, throwIfRefused } from './direct-upload';

/**
 * Signs one S3 request of a photographer's upload (Uppy's signRequest), or
 * several at once (`{ requests }`: a multipart upload's parts and its completion): only for the order's
 * owner, only while it awaits payment, only under its originals prefix, only accepted photos.
 */
export const handler = http({ params: orderParams, body: signUploadInput }, async ({ params, body, user }) => {
  const order = await getOwnOrder(params.id, user.userId);
  throwIfRefused(orderAcceptsOriginals(order));
  return ok(await signUploadRequests(originalUploads, order.orderId, body));
});
