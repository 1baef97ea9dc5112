import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  HeadObjectCommand,
  ListPartsCommand,
  PutObjectCommand,
  NotFound as S3NotFound,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { UploadStep } from '../domain/upload-rules';
import { photosBucket, s3 } from './s3';

/**
 * Presigned S3 requests for uploads that go straight from the browser to the photos bucket, and
 * the reads the server makes before an upload counts.
 */
type Presignable =
  | PutObjectCommand
  | CreateMultipartUploadCommand
  | UploadPartCommand
  | ListPartsCommand
  | CompleteMultipartUploadCommand
  | AbortMultipartUploadCommand;

/**
 * The SDK adds a checksum of the (empty) body it signs with; the browser's real bytes would never
 * match it, so a presigned upload carries no checksum at all.
 */
const dropChecksumHeaders =
  <A extends { request: unknown }, R>(next: (args: A) => Promise<R>) =>
  async (args: A) => {
    const headers = (args.request as { headers?: Record<string, string> }).headers ?? {};
    for (const name of Object.keys(headers)) {
      if (/^x-amz-(sdk-)?checksum-/i.test(name)) delete headers[name];
    }
    return next(args);
  };

const withoutPayloadChecksum = (command: Presignable) => {
  (command as PutObjectCommand).middlewareStack.addRelativeTo(dropChecksumHeaders, {
    relation: 'after',
    toMiddleware: 'flexibleChecksumsMiddleware',
    name: 'withoutPayloadChecksum',
  });
  return command as PutObjectCommand;
};

const commandFor = (key: string, step: UploadStep): Presignable => {
  const Bucket = photosBucket();
  const Key = key;
  switch (step.step) {
    case 'put-object':
      // The length is signed too: S3 refuses a body of any other size than the one stated.
      return new PutObjectCommand({ Bucket, Key, ContentType: step.contentType, ContentLength: step.size });
    case 'create-multipart':
      return new CreateMultipartUploadCommand({ Bucket, Key, ContentType: step.contentType });
    case 'upload-part':
      return new UploadPartCommand({ Bucket, Key, UploadId: step.uploadId, PartNumber: step.partNumber });
    case 'list-parts':
      return new ListPartsCommand({ Bucket, Key, UploadId: step.uploadId });
    case 'complete-multipart':
      return new CompleteMultipartUploadCommand({ Bucket, Key, UploadId: step.uploadId });
    case 'abort-multipart':
      return new AbortMultipartUploadCommand({ Bucket, Key, UploadId: step.uploadId });
  }
};

/** A URL for one S3 request of an upload, and the headers it was signed with (the browser must send them). */
export const presignUploadStep = async (key: string, step: UploadStep, expiresInSeconds: number) => {
  const signsContentType = step.step === 'put-object' || step.step === 'create-multipart';
  // Only the requests that carry the file's bytes get a checksum from the SDK.
  const carriesBytes = step.step === 'put-object' || step.step === 'upload-part';
  const command = commandFor(key, step);
  const url = await getSignedUrl(s3(), carriesBytes ? withoutPayloadChecksum(command) : (command as PutObjectCommand), {
    expiresIn: expiresInSeconds,
    ...(signsContentType ? { signableHeaders: new Set(['content-type']) } : {}),
  });
  const headers: Record<string, string> = signsContentType ? { 'content-type': step.contentType } : {};
  return { url, headers };
};

export interface StoredObject {
  size: number;
  contentType?: string;
  lastModified: string;
}

/** What S3 holds at a key, or null when nothing is there. */
export const headObject = async (key: string): Promise<StoredObject | null> => {
  try {
    const head = await s3().send(new HeadObjectCommand({ Bucket: photosBucket(), Key: key }));
    return {
      size: head.ContentLength ?? 0,
      ...(head.ContentType ? { contentType: head.ContentType } : {}),
      lastModified: (head.LastModified ?? new Date()).toISOString(),
    };
  } catch (error) {
    if (
      error instanceof S3NotFound ||
      (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404
    ) {
      return null;
    }
    throw error;
  }
};

export const deleteObject = async (key: string) => {
  await s3().send(new DeleteObjectCommand({ Bucket: photosBucket(), Key: key }));
};

/** A small file the server itself received (the one-request order route); larger ones never pass through. */
export const putObject = async ({ key, body, contentType }: { key: string; body: Uint8Array; contentType: string }) => {
  await s3().send(new PutObjectCommand({ Bucket: photosBucket(), Key: key, Body: body, ContentType: contentType }));
};
