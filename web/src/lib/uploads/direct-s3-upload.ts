import {
  MULTIPART_PART_BYTES,
  MULTIPART_THRESHOLD_BYTES,
  photoContentType,
  REGISTER_BATCH_MAX,
  SIGN_BATCH_MAX,
  type SignedUploadBatch,
  type SignedUploadRequest,
  type SignUploadInput,
  UPLOAD_URL_SECONDS,
} from '@marketplace/events/orders';
import AwsS3, { type AwsBody, type AwsS3Options } from '@uppy/aws-s3';
import Uppy, { type Body, type Meta, type UppyFile } from '@uppy/core';
import GoldenRetriever, { type GoldenRetrieverOptions } from '@uppy/golden-retriever';
import { apiPost } from '../api-client';

/**
 * How uploads go: measured against a bare presigned PUT with bench/browser-upload.ts (see
 * docs/decisions/0033-one-put-below-64-mb-signed-and-registered-in-batches.md). Tests and the bench may pass others.
 */
export interface UploadTuning {
  /** Files uploading at once. */
  parallelFiles: number;
  /** Files at least this large go up in parts (resumable after a reload, a failed part sent again); smaller ones as one PUT. */
  multipartThresholdBytes: number;
  partBytes: number;
  /** Sign all of a multipart upload's parts and its completion in one call, rather than one call per S3 request. */
  signPartsTogether: boolean;
  /** Files waiting to go up as one PUT whose PUTs are signed in the same call as a starting one (0: a call per file). */
  signPutsAhead: number;
  /** Files registered with the API in one call at most (1: a call per file). */
  registerBatchMax: number;
}

export const defaultUploadTuning: UploadTuning = {
  parallelFiles: 5,
  multipartThresholdBytes: MULTIPART_THRESHOLD_BYTES,
  partBytes: MULTIPART_PART_BYTES,
  signPartsTogether: true,
  signPutsAhead: SIGN_BATCH_MAX - 1,
  registerBatchMax: REGISTER_BATCH_MAX,
};

/** S3's smallest part but the last; Uppy makes no smaller ones. */
const S3_MIN_PART_BYTES = 5 * 1024 * 1024;
/** A URL signed ahead is used only this long after signing, well within its life; later it is signed again. */
const SIGNED_AHEAD_REUSE_MS = (UPLOAD_URL_SECONDS - 5 * 60) * 1000;

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
  tuning?: UploadTuning;
}

/** S3 keys keep to letters, digits, dots, dashes and underscores; the original name is kept by the API. */
export const safeFilename = (filename: string) => filename.replace(/[^A-Za-z0-9._-]+/g, '_').slice(-150) || 'file';

/** The type S3 stores a file with; RAW files and archives often come from the browser with none. */
export const uploadContentType = (file: { name?: string; type?: string }) =>
  file.type || photoContentType(file.name ?? '');

export const signUpload = (signUrl: string, request: SignUploadInput) => apiPost<SignedUploadRequest>(signUrl, request);

/** Signs several S3 requests in one call; the answer is in the same order. */
export const signUploads = async (signUrl: string, requests: SignUploadInput[]) =>
  (await apiPost<SignedUploadBatch>(signUrl, { requests })).signed;

/** A file's progress in whole percent, from its bytes when Uppy knows them. */
export const uploadPercentOf = (file: DirectUploadFile | undefined) => {
  const { bytesUploaded, bytesTotal } = file?.progress ?? {};
  if (!bytesTotal || typeof bytesUploaded !== 'number') return file?.progress.percentage ?? 0;
  return Math.min(100, Math.round((bytesUploaded / bytesTotal) * 100));
};

/** One S3 request Uppy wants signed. */
type SignRequest = Parameters<Extract<AwsS3Options<Meta, AwsBody>, { signRequest: unknown }>['signRequest']>[0];

/**
 * Signs each S3 request Uppy asks for, and hands out each file's key. Two ways to save calls:
 * - `signPartsTogether`: the first part of a multipart upload (or the first after a resume, or
 *   after URLs grew old) signs every part left and the completion in one call.
 * - `signPutsAhead`: a file starting as one PUT signs the PUTs of up to that many files still
 *   waiting in the same call, their keys chosen now and used when they start.
 * A URL signed ahead is used only while it is young, else signed again.
 */
function uploadSigner(uppy: DirectUppy, { signUrl, keyPrefix }: DirectUploadTarget, tuning: UploadTuning) {
  /** What each key's upload starts with: S3 is told the file's size and type up front. */
  const startByKey = new Map<string, { size: number; type: string }>();
  /** Files whose upload has started (Uppy asked for their key). */
  const startedFileIds = new Set<string>();
  /** Keys given to waiting files whose PUT was signed ahead. */
  const keyAheadByFileId = new Map<string, string>();
  const signedAhead = new Map<string, { signed: SignedUploadRequest; signedAt: number }>();
  const aheadKey = (key: string, uploadId?: string, partNumber?: number) =>
    uploadId ? `${uploadId}#${partNumber ?? 'complete'}` : `${key}#put`;

  const newKey = (file: UppyFile<Meta, Body>) => {
    const key = `${keyPrefix}${crypto.randomUUID()}-${safeFilename(file.name ?? 'file')}`;
    startByKey.set(key, { size: file.size ?? 0, type: uploadContentType(file) });
    return key;
  };

  const objectKeyFor = (file: UppyFile<Meta, Body>) => {
    startedFileIds.add(file.id);
    const ahead = keyAheadByFileId.get(file.id);
    keyAheadByFileId.delete(file.id);
    return ahead ?? newKey(file);
  };

  /** A resumed upload's key comes back with its file (Golden Retriever), not through objectKeyFor. */
  const sizeOfKey = (key: string) =>
    startByKey.get(key)?.size ?? uppy.getFiles().find((file) => file.s3Multipart?.key === key)?.size ?? undefined;

  const inputOf = (request: SignRequest): SignUploadInput => {
    const startsUpload = !('uploadId' in request) && (request.method === 'PUT' || request.method === 'POST');
    const start = startsUpload ? startByKey.get(request.key) : undefined;
    return {
      method: request.method,
      key: request.key,
      uploadId: 'uploadId' in request ? request.uploadId : undefined,
      partNumber: 'partNumber' in request ? request.partNumber : undefined,
      // Uppy names the type on a PUT only; a multipart upload's type is fixed when it is created.
      contentType: ('contentType' in request ? request.contentType : undefined) ?? start?.type,
      size: start?.size,
    };
  };

  /** This part and the ones after it, and the completion once the last part is in the call. */
  const partsFrom = (input: SignUploadInput & { uploadId: string; partNumber: number }, size: number) => {
    const partCount = Math.ceil(size / Math.max(tuning.partBytes, S3_MIN_PART_BYTES));
    const last = Math.min(partCount, input.partNumber + SIGN_BATCH_MAX - 2);
    const requests: SignUploadInput[] = [];
    for (let partNumber = input.partNumber; partNumber <= last; partNumber++) {
      requests.push({ method: 'PUT', key: input.key, uploadId: input.uploadId, partNumber });
    }
    if (last === partCount) requests.push({ method: 'POST', key: input.key, uploadId: input.uploadId });
    return requests;
  };

  /** PUTs of files that wait to start (no key yet), small enough for one PUT, keyed now. */
  const waitingPuts = (): SignUploadInput[] =>
    uppy
      .getFiles()
      .filter(
        (file) =>
          !file.progress.uploadComplete &&
          !file.error &&
          !file.s3Multipart &&
          !keyAheadByFileId.has(file.id) &&
          !startedFileIds.has(file.id) &&
          (file.size ?? 0) < tuning.multipartThresholdBytes,
      )
      .slice(0, tuning.signPutsAhead)
      .map((file) => {
        const key = newKey(file);
        keyAheadByFileId.set(file.id, key);
        const start = startByKey.get(key)!;
        return { method: 'PUT', key, contentType: start.type, size: start.size };
      });

  /** Signs `requests` in one call, keeps all but the first for later and answers the first. */
  const signTogether = async (requests: SignUploadInput[]) => {
    const signedAt = Date.now();
    const signed = await signUploads(signUrl, requests);
    requests.forEach((each, i) => {
      if (i > 0) {
        signedAhead.set(aheadKey(each.key, each.uploadId, each.partNumber), { signed: signed[i]!, signedAt });
      }
    });
    return signed[0]!;
  };

  const sign = async (request: SignRequest): Promise<SignedUploadRequest> => {
    const input = inputOf(request);
    const { key, uploadId, partNumber, method } = input;
    const cacheKey = aheadKey(key, uploadId, partNumber);
    const ahead = signedAhead.get(cacheKey);
    signedAhead.delete(cacheKey);
    if (ahead && Date.now() - ahead.signedAt < SIGNED_AHEAD_REUSE_MS) return ahead.signed;

    if (!uploadId && method === 'PUT' && tuning.signPutsAhead > 0) {
      const others = waitingPuts();
      return others.length ? signTogether([input, ...others]) : signUpload(signUrl, input);
    }
    const partOrCompletion = uploadId && (partNumber !== undefined ? method === 'PUT' : method === 'POST');
    const size = sizeOfKey(key);
    if (!tuning.signPartsTogether || !uploadId || !partOrCompletion || partNumber === undefined || size === undefined) {
      return signUpload(signUrl, input);
    }
    return signTogether(partsFrom({ ...input, uploadId, partNumber }, size));
  };

  return { sign, objectKeyFor };
}

/**
 * An Uppy that puts every file straight into S3 (multipart for big files), its requests signed
 * by our API, under a fresh key `{keyPrefix}{uuid}-{name}`.
 */
export function createDirectUppy({
  id,
  signUrl,
  keyPrefix,
  resumable,
  tuning = defaultUploadTuning,
}: DirectUppyOptions): DirectUppy {
  const uppy = new Uppy<Meta, AwsBody>({ id, autoProceed: false });
  if (resumable) {
    // Golden Retriever passes these limits on to its store, though its types name only the database's name and version.
    uppy.use(GoldenRetriever, { serviceWorker: false, indexedDB: resumable as GoldenRetrieverOptions['indexedDB'] });
  }
  const signer = uploadSigner(uppy, { signUrl, keyPrefix }, tuning);
  return uppy.use(AwsS3, {
    limit: tuning.parallelFiles,
    allowedMetaFields: false,
    shouldUseMultipart: (file) => (file.size ?? 0) >= tuning.multipartThresholdBytes,
    getChunkSize: () => tuning.partBytes,
    generateObjectKey: signer.objectKeyFor,
    signRequest: signer.sign,
  });
}

/**
 * One small file (a profile picture, a logo, a style's reference photo) straight to S3 through a
 * direct Uppy of its own; the answer is the object's key. The server's reason for a refusal is
 * what it throws.
 */
export async function uploadOneFile(options: Pick<DirectUppyOptions, 'id' | 'signUrl' | 'keyPrefix'>, file: File) {
  const uppy = createDirectUppy(options);
  try {
    let key: string | undefined;
    let failure: unknown;
    uppy.on('upload-success', (_file, response) => {
      key = (response.body as { key?: string } | undefined)?.key;
    });
    uppy.on('upload-error', (_file, error) => {
      failure = error;
    });
    uppy.addFile({ name: file.name, type: uploadContentType(file), data: file, source: 'Local' });
    await uppy.upload();
    if (!key) {
      const cause = failure instanceof Error && failure.cause ? failure.cause : failure;
      throw cause ?? new Error('The upload did not finish');
    }
    return key;
  } finally {
    uppy.cancelAll();
    uppy.destroy();
  }
}
