import { pairEditedImageInput } from '@marketplace/events/orders';
import { imageUrls } from '../../adapters/image-urls';
import { getOrder, listImages, toImageView } from '../../data/orders';
import { pairEditedImage, withPairings } from '../../data/pairings';
import { NotFound } from '../../http/errors';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { orderParams } from './order-params';

/**
 * The order's editor fixes which original an edited file belongs to (or says it has none).
 * Anyone but the order's editor is told the order does not exist; answers the edited image.
 */
export const handler = http({ params: orderParams, body: pairEditedImageInput }, async ({ params, body, user }) => {
  const order = await getOrder(params.id);
  if (!order || order.editorId !== user.userId) throw new NotFound('Order not found');
  await pairEditedImage({ order, editorId: user.userId, editedKey: body.editedKey, originalKey: body.originalKey });
  const records = await listImages(order.orderId);
  const image = withPairings(records.map(toImageView)).find((i) => i.kind === 'edited' && i.key === body.editedKey);
  const record = records.find((r) => r.kind === 'edited' && r.key === body.editedKey);
  // The same URLs the images list answers, so a browser that puts this answer in its cache keeps the thumbnail.
  return ok({ image: image && record ? { ...image, ...(await imageUrls(record)) } : image });
});
