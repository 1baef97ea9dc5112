import { registerUploadInput } from '@marketplace/events/orders';
import { getClaimedOrder, getOrder, registerEdited } from '../../data/orders';
import { editedUploads, orderAcceptsEdits } from '../../domain/upload-rules';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { orderParams } from '../orders/order-params';
import { throwIfRefused, uploadsOf, verifiedImages } from './direct-upload';

/**
 * An edited file counts only once the server has seen it in S3, under the order's edited prefix
 * and within the cap. Registering the same key twice counts once. One file or up to 25 (`{ files }`),
 * all verified before any counts; they are recorded in the order given, so of two with the same
 * name in a revision the later one is delivered.
 */
export const handler = http({ params: orderParams, body: registerUploadInput }, async ({ params, body, user }) => {
  const order = await getClaimedOrder(params.id, user);
  throwIfRefused(orderAcceptsEdits(order));
  const verified = await verifiedImages(editedUploads, order, uploadsOf(body), 'edited');
  for (const { registration } of verified) await registerEdited({ ...registration, editorId: user.userId });
  const editorUploadCount = (await getOrder(order.orderId))?.editorUploadCount ?? 0;
  const images = verified.map(({ image }) => image);
  return ok('files' in body ? { images, editorUploadCount } : { image: images[0], editorUploadCount });
});
