import type {
  OrderImageView,
  RegisteredUpload,
  RegisterUploadBody,
  SignedUploadBatch,
  SignedUploadRequest,
  SignUploadBody,
  SignUploadInput,
} from '@marketplace/events/orders';
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

/** One S3 request of an upload as the rules allow it, only under the order's folder for the target; else its refusal. */
const allowedStep = (target: UploadTarget, orderId: string, request: SignUploadInput) => {
  throwIfRefused(keyRefusal(target, orderId, request.key));
  const step = uploadStepFor(request, target);
  if (isRefusal(step)) throw refuse(step);
  return { key: request.key, step };
};

const presign = async ({ key, step }: ReturnType<typeof allowedStep>): Promise<SignedUploadRequest> => {
  const { url, headers } = await presignUploadStep(key, step, UPLOAD_URL_SECONDS);
  return { url, key, ...(Object.keys(headers).length ? { headers } : {}) };
};

/**
 * Signs one S3 request of an upload (Uppy's signRequest), or several at once (a multipart
 * upload's parts and its completion): every one is checked before any is signed.
 */
export const signUploadRequests = async (
  target: UploadTarget,
  orderId: string,
  body: SignUploadBody,
): Promise<SignedUploadRequest | SignedUploadBatch> => {
  if (!('requests' in body)) return presign(allowedStep(target, orderId, body));
  const steps = body.requests.map((request) => allowedStep(target, orderId, request));
  return { signed: await Promise.all(steps.map(presign)) };
};

/** The files of a registration, one or several; a key named twice is registered once. */
export const uploadsOf = (body: RegisterUploadBody): RegisteredUpload[] => {
  if (!('files' in body)) return [body];
  const byKey = new Map<string, RegisteredUpload>();
  for (const file of body.files) if (!byKey.has(file.key)) byKey.set(file.key, file);
  return [...byKey.values()];
};

/**
 * What S3 holds at an uploaded key: it must be there, under the order's folder for the target and
 * within the target's cap (an oversized object is deleted, since the browser may state a smaller size than it sends).
 */
export const verifyUploaded = async (
  target: UploadTarget,
  orderId: string,
  upload: { key: string; filename: string },
) => {
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

/**
 * Every file of a registration verified in S3 (in parallel), or the first refusal: a batch counts
 * whole or not at all. Keys are checked before storage is read.
 */
export const verifiedImages = async (
  target: UploadTarget,
  order: OrderRecord,
  uploads: RegisteredUpload[],
  kind: OrderImageView['kind'],
) => {
  for (const upload of uploads) throwIfRefused(keyRefusal(target, order.orderId, upload.key));
  const results = await Promise.allSettled(uploads.map((upload) => verifiedImage(target, order, upload, kind)));
  const refused = results.find((result) => result.status === 'rejected');
  if (refused) throw refused.reason;
  return results.map((result) => (result as PromiseFulfilledResult<Awaited<ReturnType<typeof verifiedImage>>>).value);
};
