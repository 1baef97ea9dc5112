import { registerUploadInput } from '@marketplace/events/orders';
import { getClaimedOrder, getOrder, registerEdited } from '../../data/orders';
import { editedUploads, orderAcceptsEdits } from '../../domain/upload-rules';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { orderParams } from '../orders/order-params';
import { throwIfRefused, verifiedImage } from './direct-upload';

/**
 * An edited file counts only once the server has seen it in S3, under the order's edited prefix
 * and within the cap. Registering the same key twice counts once.
 */
export const handler = http({ params: orderParams, body: registerUploadInput }, async ({ params, body, user }) => {
  const order = await getClaimedOrder(params.id, user);
  throwIfRefused(orderAcceptsEdits(order));
  const { image, registration } = await verifiedImage(editedUploads, order, body, 'edited');
  await registerEdited({ ...registration, editorId: user.userId });
  const editorUploadCount = (await getOrder(order.orderId))?.editorUploadCount ?? 0;
  return ok({ image, editorUploadCount });
});
