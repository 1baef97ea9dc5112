import type { UploadStep } from '../domain/upload-rules';
import { type PresignRequest, presignedUrl } from './s3-requests';

export { deleteObject, headObject, putObject, type StoredObject } from './s3-requests';

/**
 * Presigned S3 requests for uploads that go straight from the browser to the photos bucket, and
 * the reads the server makes before an upload counts.
 *
 * Each step is the request the S3 client's presigner signed for its command, query and headers
 * alike (`x-id` is the SDK's operation name; S3 ignores it). No checksum is signed: the browser's
 * bytes are not known when the URL is made.
 */
const requestFor = (step: UploadStep): Pick<PresignRequest, 'method' | 'query' | 'signedHeaders'> => {
  switch (step.step) {
    case 'put-object':
      // The length is signed too: S3 refuses a body of any other size than the one stated.
      return {
        method: 'PUT',
        query: { 'x-id': 'PutObject' },
        signedHeaders: { 'content-type': step.contentType, 'content-length': String(step.size) },
      };
    case 'create-multipart':
      return { method: 'POST', query: { uploads: '' }, signedHeaders: { 'content-type': step.contentType } };
    case 'upload-part':
      return {
        method: 'PUT',
        query: { partNumber: String(step.partNumber), uploadId: step.uploadId, 'x-id': 'UploadPart' },
      };
    case 'list-parts':
      return { method: 'GET', query: { uploadId: step.uploadId, 'x-id': 'ListParts' } };
    case 'complete-multipart':
      return { method: 'POST', query: { uploadId: step.uploadId } };
    case 'abort-multipart':
      return { method: 'DELETE', query: { uploadId: step.uploadId, 'x-id': 'AbortMultipartUpload' } };
  }
};

/** A URL for one S3 request of an upload, and the headers it was signed with (the browser must send them). */
export const presignUploadStep = async (key: string, step: UploadStep, expiresInSeconds: number) => {
  const url = await presignedUrl({ key, expiresIn: expiresInSeconds, ...requestFor(step) });
  // The browser sets the length itself; the type is the one header it must be told.
  const headers: Record<string, string> =
    step.step === 'put-object' || step.step === 'create-multipart' ? { 'content-type': step.contentType } : {};
  return { url, headers };
};
