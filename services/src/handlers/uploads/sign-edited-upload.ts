import { signUploadInput } from '@marketplace/events/orders';
import { getClaimedOrder } from '../../data/orders';
import { editedUploads, orderAcceptsEdits } from '../../domain/upload-rules';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { orderParams } from '../orders/order-params';
import { signUploadRequests, throwIfRefused } from './direct-upload';

/**
 * Signs one S3 request of an editor's delivery (Uppy's signRequest), or
 * several at once (`{ requests }`: a multipart upload's parts and its completion): only for the claiming editor,
 * only while the order is in progress, only under its edited prefix, only images and archives.
 */
export const handler = http({ params: orderParams, body: signUploadInput }, async ({ params, body, user }) => {
  const order = await getClaimedOrder(params.id, user);
  throwIfRefused(orderAcceptsEdits(order));
  return ok(await signUploadRequests(editedUploads, order.orderId, body));
});
