import { type SignedUploadRequest, signUploadInput } from '@marketplace/events/orders';
import { presignUploadStep } from '../../adapters/presigned-uploads';
import { getOwnOrder } from '../../data/orders';
import {
  isRefusal,
  orderAcceptsOriginals,
  originalKeyRefusal,
  UPLOAD_URL_SECONDS,
  type UploadRefusal,
  uploadStepFor,
} from '../../domain/upload-rules';
import { BadRequest, Conflict, Forbidden } from '../../http/errors';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { orderParams } from '../orders/order-params';

const refusalErrors = { invalid: BadRequest, forbidden: Forbidden, conflict: Conflict } as const;
const refuse = (refusal: UploadRefusal) => new refusalErrors[refusal.kind](refusal.message);

/**
 * Signs one S3 request of a photographer's upload (Uppy's signRequest): only for the order's
 * owner, only while it awaits payment, only under its originals prefix, only accepted photos.
 */
export const handler = http({ params: orderParams, body: signUploadInput }, async ({ params, body, user }) => {
  const order = await getOwnOrder(params.id, user.userId);
  const refusal = orderAcceptsOriginals(order) ?? originalKeyRefusal(order.orderId, body.key);
  if (refusal) throw refuse(refusal);
  const step = uploadStepFor(body);
  if (isRefusal(step)) throw refuse(step);
  const { url, headers } = await presignUploadStep(body.key, step, UPLOAD_URL_SECONDS);
  const signed: SignedUploadRequest = { url, key: body.key, ...(Object.keys(headers).length ? { headers } : {}) };
  return ok(signed);
});
