import { type OrderImageView, registerUploadInput } from '@marketplace/events/orders';
import { deleteObject, headObject } from '../../adapters/presigned-uploads';
import { getOrder, getOwnOrder, registerOriginal } from '../../data/orders';
import {
  exceedsOriginalCap,
  orderAcceptsOriginals,
  originalKeyRefusal,
  originalTooLargeMessage,
  type UploadRefusal,
} from '../../domain/upload-rules';
import { BadRequest, Conflict, Forbidden, NotFound } from '../../http/errors';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { orderParams } from '../orders/order-params';

const refusalErrors = { invalid: BadRequest, forbidden: Forbidden, conflict: Conflict } as const;
const refuse = (refusal: UploadRefusal) => new refusalErrors[refusal.kind](refusal.message);

/**
 * An upload counts only once the server has seen it in S3: the object must be there, under this
 * order's originals and within the size cap (an oversized one is deleted). Registering twice counts once.
 */
export const handler = http({ params: orderParams, body: registerUploadInput }, async ({ params, body, user }) => {
  const order = await getOwnOrder(params.id, user.userId);
  const refusal = orderAcceptsOriginals(order) ?? originalKeyRefusal(order.orderId, body.key);
  if (refusal) throw refuse(refusal);
  const stored = await headObject(body.key);
  if (!stored) throw new NotFound(`${body.filename} has not arrived in storage yet. Please upload it again.`);
  if (exceedsOriginalCap(stored.size)) {
    await deleteObject(body.key);
    throw new BadRequest(originalTooLargeMessage(stored.size), undefined, 'FILE_TOO_LARGE');
  }
  await registerOriginal({
    order,
    key: body.key,
    filename: body.filename,
    size: stored.size,
    ...(stored.contentType ? { contentType: stored.contentType } : {}),
    lastModified: stored.lastModified,
  });
  const image: OrderImageView = {
    key: body.key,
    filename: body.filename,
    size: stored.size,
    lastModified: stored.lastModified,
    kind: 'original',
  };
  const photographerUploadCount = (await getOrder(order.orderId))?.photographerUploadCount ?? 0;
  return ok({ image, photographerUploadCount });
});
