import {
  MULTIPART_PART_BYTES,
  MULTIPART_THRESHOLD_BYTES,
  photoContentType,
  type SignedUploadRequest,
  type SignUploadInput,
} from '@marketplace/events/orders';
import AwsS3, { type AwsBody } from '@uppy/aws-s3';
import Uppy, { type Meta, type UppyFile } from '@uppy/core';
import GoldenRetriever, { type GoldenRetrieverOptions } from '@uppy/golden-retriever';
import { apiPost } from '../api-client';

/** Files uploading at once: S3 is fast, but a browser keeps about six connections per host. */
export const PARALLEL_FILES = 5;

export type DirectUploadFile = UppyFile<Meta, AwsBody>;
export type DirectUppy = Uppy<Meta, AwsBody>;

/** Where one kind of file goes: the API route that signs each S3 request and the key prefix it allows. */
export interface DirectUploadTarget {
  /** e.g. /api/orders/{id}/uploads/sign */
  signUrl: string;
  /** e.g. orders/{id}/originals/ */
  keyPrefix: string;
}

interface DirectUppyOptions extends DirectUploadTarget {
  /** Uppy's id; Golden Retriever keeps the upload state under it. */
  id: string;
  /** Keep copies of the chosen files so a reload can resume them (Golden Retriever's IndexedDB limits). */
  resumable?: { maxFileSize: number; maxTotalSize: number };
}

/** S3 keys keep to letters, digits, dots, dashes and underscores; the original name is kept by the API. */
export const safeFilename = (filename: string) => filename.replace(/[^A-Za-z0-9._-]+/g, '_').slice(-150) || 'file';

/** The type S3 stores a file with; RAW files and archives often come from the browser with none. */
export const uploadContentType = (file: { name?: string; type?: string }) =>
  file.type || photoContentType(file.name ?? '');

export const signUpload = (signUrl: string, request: SignUploadInput) => apiPost<SignedUploadRequest>(signUrl, request);

/** Tells the API a file is in S3; only then does it count towards the order. */
export const completeUpload = <T>(completeUrl: string, upload: { key: string; filename: string }) =>
  apiPost<T>(completeUrl, upload);

/** A file's progress in whole percent, from its bytes when Uppy knows them. */
export const uploadPercentOf = (file: DirectUploadFile | undefined) => {
  const { bytesUploaded, bytesTotal } = file?.progress ?? {};
  if (!bytesTotal || typeof bytesUploaded !== 'number') return file?.progress.percentage ?? 0;
  return Math.min(100, Math.round((bytesUploaded / bytesTotal) * 100));
};

/**
 * An Uppy that puts every file straight into S3 (multipart for big files), each request signed by
 * our API just before it is sent, under a fresh key `{keyPrefix}{uuid}-{name}`.
 */
export function createDirectUppy({ id, signUrl, keyPrefix, resumable }: DirectUppyOptions): DirectUppy {
  /** What each key's upload starts with: S3 is told the file's size and type up front. */
  const fileByKey = new Map<string, { size: number; type: string }>();
  const uppy = new Uppy<Meta, AwsBody>({ id, autoProceed: false });
  if (resumable) {
    // Golden Retriever passes these limits on to its store, though its types name only the database's name and version.
    uppy.use(GoldenRetriever, { serviceWorker: false, indexedDB: resumable as GoldenRetrieverOptions['indexedDB'] });
  }
  return uppy.use(AwsS3, {
    limit: PARALLEL_FILES,
    allowedMetaFields: false,
    shouldUseMultipart: (file) => (file.size ?? 0) >= MULTIPART_THRESHOLD_BYTES,
    getChunkSize: () => MULTIPART_PART_BYTES,
    generateObjectKey: (file) => {
      const key = `${keyPrefix}${crypto.randomUUID()}-${safeFilename(file.name ?? 'file')}`;
      fileByKey.set(key, { size: file.size ?? 0, type: uploadContentType(file) });
      return key;
    },
    signRequest: (request) => {
      const startsUpload = !('uploadId' in request) && (request.method === 'PUT' || request.method === 'POST');
      const file = startsUpload ? fileByKey.get(request.key) : undefined;
      const input: SignUploadInput = {
        method: request.method,
        key: request.key,
        uploadId: 'uploadId' in request ? request.uploadId : undefined,
        partNumber: 'partNumber' in request ? request.partNumber : undefined,
        // Uppy names the type on a PUT only; a multipart upload's type is fixed when it is created.
        contentType: ('contentType' in request ? request.contentType : undefined) ?? file?.type,
        size: file?.size,
      };
      return signUpload(signUrl, input);
    },
  });
}
