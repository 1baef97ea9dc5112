import {
  isAcceptedPhoto,
  MAX_ORIGINAL_BYTES,
  type OrderStatus,
  orderFormMessages,
  originalsPrefix,
  type SignUploadInput,
} from '@marketplace/events/orders';

/**
 * What a photographer may upload straight to S3, and when. Each rule answers with a refusal (what
 * kind, and the words the photographer sees) or null; the handlers turn a refusal into its HTTP error.
 */
export interface UploadRefusal {
  kind: 'invalid' | 'forbidden' | 'conflict';
  message: string;
}

/** Presigned URLs are short-lived: each part is signed just before it is sent, so slow links never outlive one. */
export const UPLOAD_URL_SECONDS = 15 * 60;

/** S3's smallest part (except the last): a capped file never needs more parts than this. */
const S3_MIN_PART_BYTES = 5 * 1024 * 1024;
export const MAX_ORIGINAL_PARTS = Math.ceil(MAX_ORIGINAL_BYTES / S3_MIN_PART_BYTES);

export const NOT_AWAITING_PAYMENT = 'Photos can only be added while the order awaits payment';

const megabytes = (bytes: number) => `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;

export const originalTooLargeMessage = (size: number, cap = MAX_ORIGINAL_BYTES) =>
  `Each photo may be at most ${megabytes(cap)}; this file is ${megabytes(size)}`;

/** The object S3 holds is over the cap (the browser may have stated a smaller size than it sent). */
export const exceedsOriginalCap = (size: number, cap = MAX_ORIGINAL_BYTES) => size > cap;

export const orderAcceptsOriginals = (order: { status: OrderStatus }): UploadRefusal | null =>
  order.status === 'pending_payment' ? null : { kind: 'conflict', message: NOT_AWAITING_PAYMENT };

const hasUnsafeCharacter = (name: string) =>
  [...name].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f || c === '/' || c === '\\');

/** A file name an original may carry in its key: one plain path segment of an accepted photo type. */
export const originalFilenameRefusal = (name: string): UploadRefusal | null => {
  // Control characters, separators and dot-dot have no place in a key we hand out.
  if (!name || name.length > 255 || hasUnsafeCharacter(name) || name.includes('..')) {
    return { kind: 'invalid', message: 'This file name cannot be used for an upload' };
  }
  return isAcceptedPhoto(name) ? null : { kind: 'invalid', message: orderFormMessages.fileType };
};

/**
 * A key the browser may write: exactly one name directly under this order's originals prefix,
 * with an accepted photo extension. Anything else is another order's space, or a path trick.
 */
export const originalKeyRefusal = (orderId: string, key: string): UploadRefusal | null => {
  if (key.split('/').some((segment) => segment === '..' || segment === '.')) {
    return { kind: 'invalid', message: 'This file name cannot be used for an upload' };
  }
  const prefix = originalsPrefix(orderId);
  if (!key.startsWith(prefix)) {
    return { kind: 'forbidden', message: "Photos can only be uploaded to this order's own folder" };
  }
  return originalFilenameRefusal(key.slice(prefix.length));
};

/** The size a starting upload states: required, and at most the cap. */
export const statedSizeRefusal = (size: number | undefined, cap = MAX_ORIGINAL_BYTES): UploadRefusal | null => {
  if (size === undefined) return { kind: 'invalid', message: "State the file's size in bytes to start an upload" };
  return size > cap ? { kind: 'invalid', message: originalTooLargeMessage(size, cap) } : null;
};

/** The S3 request Uppy asks to have signed, named for what it does. */
export type UploadStep =
  | { step: 'put-object'; contentType: string; size: number }
  | { step: 'create-multipart'; contentType: string; size: number }
  | { step: 'upload-part'; uploadId: string; partNumber: number }
  | { step: 'list-parts'; uploadId: string }
  | { step: 'complete-multipart'; uploadId: string }
  | { step: 'abort-multipart'; uploadId: string };

const fallbackContentType = 'application/octet-stream';

/**
 * Reads Uppy's signRequest call as one of the six S3 requests of an upload, or refuses it. Deleting
 * a finished object is not one of them: photos leave an order only through the server.
 */
export const uploadStepFor = (request: SignUploadInput): UploadStep | UploadRefusal => {
  const { method, uploadId, partNumber } = request;
  const contentType = request.contentType?.trim() || fallbackContentType;
  if (!uploadId) {
    if (partNumber !== undefined) return { kind: 'invalid', message: 'A part number needs an upload id' };
    if (method === 'PUT' || method === 'POST') {
      const sizeRefusal = statedSizeRefusal(request.size);
      if (sizeRefusal) return sizeRefusal;
      return { step: method === 'PUT' ? 'put-object' : 'create-multipart', contentType, size: request.size! };
    }
    return { kind: 'invalid', message: `A ${method} request needs an upload id` };
  }
  switch (method) {
    case 'PUT':
      if (partNumber === undefined) return { kind: 'invalid', message: 'Uploading a part needs its part number' };
      if (partNumber > MAX_ORIGINAL_PARTS) {
        return {
          kind: 'invalid',
          message: `Each photo may be at most ${megabytes(MAX_ORIGINAL_BYTES)}; part ${partNumber} would go beyond it`,
        };
      }
      return { step: 'upload-part', uploadId, partNumber };
    case 'GET':
      return { step: 'list-parts', uploadId };
    case 'POST':
      return { step: 'complete-multipart', uploadId };
    case 'DELETE':
      return { step: 'abort-multipart', uploadId };
  }
};

export const isRefusal = (value: UploadStep | UploadRefusal): value is UploadRefusal => 'kind' in value;

/** A file name from a multipart body, as the last segment of whatever path the client sent. */
export const baseFilename = (filename: string) => filename.split(/[\\/]/).pop()?.trim() ?? '';

/** The key an original gets under its order: a fresh id keeps two files of the same name apart. */
export const originalKeyFor = (orderId: string, uniqueId: string, filename: string) =>
  `${originalsPrefix(orderId)}${uniqueId}-${baseFilename(filename)}`;
