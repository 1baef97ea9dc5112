import type { OrderImageView, SignedUploadRequest, SignUploadInput } from '@marketplace/events/orders';
import { deleteObject, headObject, presignUploadStep } from '../../adapters/presigned-uploads';
import type { OrderRecord } from '../../data/orders';
import {
  isRefusal,
  keyRefusal,
  tooLargeMessage,
  UPLOAD_URL_SECONDS,
  type UploadRefusal,
  type UploadTarget,
  uploadStepFor,
} from '../../domain/upload-rules';
import { BadRequest, Conflict, Forbidden, NotFound } from '../../http/errors';

/**
 * The two halves of an upload that goes straight to S3, for originals and edited files alike:
 * signing each of its requests, and checking what arrived before it counts.
 */
const refusalErrors = { invalid: BadRequest, forbidden: Forbidden, 'not-found': NotFound, conflict: Conflict } as const;

export const refuse = (refusal: UploadRefusal) => new refusalErrors[refusal.kind](refusal.message);

export const throwIfRefused = (refusal: UploadRefusal | null) => {
  if (refusal) throw refuse(refusal);
};

/** Signs one S3 request of an upload (Uppy's signRequest), only under the order's folder for the target. */
export const signUploadRequest = async (
  target: UploadTarget,
  orderId: string,
  request: SignUploadInput,
): Promise<SignedUploadRequest> => {
  throwIfRefused(keyRefusal(target, orderId, request.key));
  const step = uploadStepFor(request, target);
  if (isRefusal(step)) throw refuse(step);
  const { url, headers } = await presignUploadStep(request.key, step, UPLOAD_URL_SECONDS);
  return { url, key: request.key, ...(Object.keys(headers).length ? { headers } : {}) };
};

/**
 * What S3 holds at an uploaded key: it must be there, under the order's folder for the target and
 * within the target's cap (an oversized object is deleted, since the browser may state a smaller size than it sends).
 */
const verifyUploaded = async (target: UploadTarget, orderId: string, upload: { key: string; filename: string }) => {
  throwIfRefused(keyRefusal(target, orderId, upload.key));
  const stored = await headObject(upload.key);
  if (!stored) throw new NotFound(`${upload.filename} has not arrived in storage yet. Please upload it again.`);
  if (stored.size > target.maxBytes) {
    await deleteObject(upload.key);
    throw new BadRequest(tooLargeMessage(target, stored.size), undefined, 'FILE_TOO_LARGE');
  }
  return stored;
};

/**
 * A verified upload as the registration records it, and as the response shows it: the size,
 * type and date come from S3, never from the browser.
 */
export const verifiedImage = async (
  target: UploadTarget,
  order: OrderRecord,
  upload: { key: string; filename: string; scene?: number },
  kind: OrderImageView['kind'],
) => {
  const stored = await verifyUploaded(target, order.orderId, upload);
  // Only an original belongs to a scene; an edited file's is ignored.
  const scene = kind === 'original' ? upload.scene : undefined;
  const image: OrderImageView = {
    key: upload.key,
    filename: upload.filename,
    size: stored.size,
    lastModified: stored.lastModified,
    kind,
    thumbnail: 'pending',
    thumbnailUrl: null,
    previewUrl: null,
    scene: scene ?? null,
    pairedOriginalKey: null,
    pairedBy: null,
  };
  const registration = {
    order,
    key: upload.key,
    filename: upload.filename,
    size: stored.size,
    ...(stored.contentType ? { contentType: stored.contentType } : {}),
    lastModified: stored.lastModified,
    ...(scene ? { scene } : {}),
  };
  return { image, registration };
};
