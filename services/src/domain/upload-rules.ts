import { isAcceptedEditedFile, MAX_EDITED_BYTES } from '@marketplace/events/editor-orders';
import {
  editedPrefix,
  isAcceptedPhoto,
  MAX_ORIGINAL_BYTES,
  type OrderStatus,
  orderFormMessages,
  originalsPrefix,
  photoContentType,
  type SignUploadInput,
} from '@marketplace/events/orders';

/**
 * What may be uploaded straight to S3, and when: a photographer's originals, an editor's edited
 * files. Each rule answers with a refusal (what kind, and the words the uploader sees) or null;
 * the handlers turn a refusal into its HTTP error.
 */
export interface UploadRefusal {
  kind: 'invalid' | 'forbidden' | 'not-found' | 'conflict';
  message: string;
}

/**
 * Presigned URLs are short-lived (15 minutes): a part is signed shortly before it is sent, alone
 * or with the rest of its file's parts, and the browser signs again any it has held too long.
 */
export { UPLOAD_URL_SECONDS } from '@marketplace/events/orders';

/** S3's smallest part (except the last): a capped file never needs more parts than this. */
const S3_MIN_PART_BYTES = 5 * 1024 * 1024;
const maxPartsFor = (maxBytes: number) => Math.ceil(maxBytes / S3_MIN_PART_BYTES);
export const MAX_ORIGINAL_PARTS = maxPartsFor(MAX_ORIGINAL_BYTES);

export const NOT_AWAITING_PAYMENT = 'Photos can only be added while the order awaits payment';
export const NOT_IN_PROGRESS = 'Edited files can only be added while the order is in progress';
export const EDITED_FILE_TYPE = 'File type must be an image (JPEG, PNG, TIFF, RAW) or an archive (ZIP, RAR, 7Z)';

const megabytes = (bytes: number) => {
  const mb = bytes / (1024 * 1024);
  return mb >= 1024 ? `${Number((mb / 1024).toFixed(1))} GB` : `${Number(mb.toFixed(1))} MB`;
};

const capMessage = (noun: string, cap: number) => `Each ${noun} may be at most ${megabytes(cap)}`;

export const originalTooLargeMessage = (size: number, cap = MAX_ORIGINAL_BYTES) =>
  `${capMessage('photo', cap)}; this file is ${megabytes(size)}`;

/** One kind of direct upload: the order's folder it writes to, the files it takes, how large. */
export interface UploadTarget {
  prefix: (orderId: string) => string;
  isAccepted: (filename: string) => boolean;
  fileTypeMessage: string;
  folderMessage: string;
  /** What one file is called in messages ('Each photo may be at most ...'). */
  noun: string;
  maxBytes: number;
}

export const tooLargeMessage = (target: UploadTarget, size: number) =>
  `${capMessage(target.noun, target.maxBytes)}; this file is ${megabytes(size)}`;

export const originalUploads: UploadTarget = {
  prefix: originalsPrefix,
  isAccepted: isAcceptedPhoto,
  fileTypeMessage: orderFormMessages.fileType,
  folderMessage: "Photos can only be uploaded to this order's own folder",
  noun: 'photo',
  maxBytes: MAX_ORIGINAL_BYTES,
};

export const editedUploads: UploadTarget = {
  prefix: editedPrefix,
  isAccepted: isAcceptedEditedFile,
  fileTypeMessage: EDITED_FILE_TYPE,
  folderMessage: "Edited files can only be uploaded to this order's edited folder",
  noun: 'edited file',
  maxBytes: MAX_EDITED_BYTES,
};

/** The object S3 holds is over the cap (the browser may have stated a smaller size than it sent). */
export const exceedsOriginalCap = (size: number, cap = MAX_ORIGINAL_BYTES) => size > cap;

export const orderAcceptsOriginals = (order: { status: OrderStatus }): UploadRefusal | null =>
  order.status === 'pending_payment' ? null : { kind: 'conflict', message: NOT_AWAITING_PAYMENT };

/**
 * Edited files go only to an order in progress or sent back for a revision (the caller is its
 * claiming editor, checked before).
 */
export const orderAcceptsEdits = (order: { status: OrderStatus }): UploadRefusal | null =>
  order.status === 'in_progress' || order.status === 'revision_requested'
    ? null
    : { kind: 'conflict', message: NOT_IN_PROGRESS };

const hasUnsafeCharacter = (name: string) =>
  [...name].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f || c === '/' || c === '\\');

/** A file name an upload may carry in its key: one plain path segment of a type the target takes. */
export const filenameRefusal = (target: UploadTarget, name: string): UploadRefusal | null => {
  // Control characters, separators and dot-dot have no place in a key we hand out.
  if (!name || name.length > 255 || hasUnsafeCharacter(name) || name.includes('..')) {
    return { kind: 'invalid', message: 'This file name cannot be used for an upload' };
  }
  return target.isAccepted(name) ? null : { kind: 'invalid', message: target.fileTypeMessage };
};

export const originalFilenameRefusal = (name: string) => filenameRefusal(originalUploads, name);

/**
 * A key the browser may write: exactly one name directly under this order's folder for the
 * target, of a type it takes. Anything else is another order's space, or a path trick.
 */
export const keyRefusal = (target: UploadTarget, orderId: string, key: string): UploadRefusal | null => {
  if (key.split('/').some((segment) => segment === '..' || segment === '.')) {
    return { kind: 'invalid', message: 'This file name cannot be used for an upload' };
  }
  const prefix = target.prefix(orderId);
  if (!key.startsWith(prefix)) return { kind: 'forbidden', message: target.folderMessage };
  return filenameRefusal(target, key.slice(prefix.length));
};

export const originalKeyRefusal = (orderId: string, key: string) => keyRefusal(originalUploads, orderId, key);

/** The size a starting upload states: required, and at most the target's cap. */
export const statedSizeRefusal = (size: number | undefined, target = originalUploads): UploadRefusal | null => {
  if (size === undefined) return { kind: 'invalid', message: "State the file's size in bytes to start an upload" };
  return size > target.maxBytes ? { kind: 'invalid', message: tooLargeMessage(target, size) } : null;
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
export const uploadStepFor = (request: SignUploadInput, target = originalUploads): UploadStep | UploadRefusal => {
  const { method, uploadId, partNumber } = request;
  const contentType = request.contentType?.trim() || fallbackContentType;
  if (!uploadId) {
    if (partNumber !== undefined) return { kind: 'invalid', message: 'A part number needs an upload id' };
    if (method === 'PUT' || method === 'POST') {
      const sizeRefusal = statedSizeRefusal(request.size, target);
      if (sizeRefusal) return sizeRefusal;
      return { step: method === 'PUT' ? 'put-object' : 'create-multipart', contentType, size: request.size! };
    }
    return { kind: 'invalid', message: `A ${method} request needs an upload id` };
  }
  switch (method) {
    case 'PUT':
      if (partNumber === undefined) return { kind: 'invalid', message: 'Uploading a part needs its part number' };
      if (partNumber > maxPartsFor(target.maxBytes)) {
        return {
          kind: 'invalid',
          message: `${capMessage(target.noun, target.maxBytes)}; part ${partNumber} would go beyond it`,
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

/** The key a file the server receives gets under its order: a fresh id keeps two files of the same name apart. */
export const uploadKeyFor = (target: UploadTarget, orderId: string, uniqueId: string, filename: string) =>
  `${target.prefix(orderId)}${uniqueId}-${baseFilename(filename)}`;

export const originalKeyFor = (orderId: string, uniqueId: string, filename: string) =>
  uploadKeyFor(originalUploads, orderId, uniqueId, filename);

const archiveContentTypes: Record<string, string> = {
  zip: 'application/zip',
  rar: 'application/vnd.rar',
  '7z': 'application/x-7z-compressed',
};

/** The content type an edited file is stored with: its photo type, or its archive type. */
export const editedContentType = (filename: string) =>
  archiveContentTypes[filename.slice(filename.lastIndexOf('.') + 1).toLowerCase()] ?? photoContentType(filename);
