import { randomBytes, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { originalsPrefix } from '@marketplace/events/orders';
import { describe, expect, it } from 'vitest';
import { aPhotographer, as, type TestAccount } from './support';

/**
 * Resuming a multipart upload locally: s3rver behind the stand-in that answers ListParts and
 * AbortMultipartUpload, driven only through URLs the sign route hands out, as Uppy drives it.
 */
const storage = () => new S3Client({ region: 'us-east-1', endpoint: process.env.S3_ENDPOINT, forcePathStyle: true });

/** Not fetch: under some test port offsets the S3 stand-in lands on a port fetch refuses to dial (6665-6669). */
const sendToS3 = (url: string, init: { method: string; headers?: Record<string, string>; body?: Buffer | string }) =>
  new Promise<{ status: number; etag: string | undefined; text: string }>((resolve, reject) => {
    const outgoing = request(url, { method: init.method, headers: init.headers ?? {} }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          etag: response.headers.etag,
          text: Buffer.concat(chunks).toString(),
        }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end(init.body);
  });

const unescapeXml = (text: string) =>
  text.replace(
    /&(quot|amp|lt|gt|apos);/g,
    (_, name: string) => ({ quot: '"', amp: '&', lt: '<', gt: '>', apos: "'" })[name]!,
  );

const partsIn = (xml: string) =>
  [...xml.matchAll(/<Part>.*?<PartNumber>(\d+)<\/PartNumber>.*?<ETag>(.*?)<\/ETag>.*?<\/Part>/g)].map((m) => ({
    partNumber: Number(m[1]),
    etag: unescapeXml(m[2]!),
  }));

/** One signed S3 request, as Uppy makes it: ask the API for the URL, then send it with the signed headers. */
const signedS3 = async (
  account: TestAccount,
  orderId: string,
  signRequest: Record<string, unknown>,
  body?: Buffer | string,
  contentType?: string,
) => {
  const signed = await as(account).post(`/api/orders/${orderId}/uploads/sign`, signRequest);
  expect(signed.status, JSON.stringify(signed.body)).toBe(200);
  const headers: Record<string, string> = {
    ...(contentType ? { 'content-type': contentType } : {}),
    ...signed.body.headers,
  };
  return sendToS3(signed.body.url, { method: String(signRequest.method), headers, ...(body ? { body } : {}) });
};

const startUpload = async (account: TestAccount, size: number) => {
  const orderId = (await as(account).post('/api/orders', { jobTypeId: 'hdr', photoCount: 1 })).body.order.id as string;
  const key = `${originalsPrefix(orderId)}${randomUUID()}-living-room.cr2`;
  const created = await signedS3(account, orderId, {
    method: 'POST',
    key,
    contentType: 'application/octet-stream',
    size,
  });
  expect(created.status).toBe(200);
  const uploadId = /<UploadId>(.+?)<\/UploadId>/.exec(created.text)?.[1];
  expect(uploadId).toBeTruthy();
  return { orderId, key, uploadId: unescapeXml(uploadId!) };
};

const completionXml = (parts: { partNumber: number; etag: string }[]) =>
  `<CompleteMultipartUpload>${parts
    .map((p) => `<Part><PartNumber>${p.partNumber}</PartNumber><ETag>${p.etag}</ETag></Part>`)
    .join('')}</CompleteMultipartUpload>`;

describe('a multipart upload through signed URLs on the local S3', () => {
  it('resumes from the parts S3 lists and completes into the whole file', async () => {
    const photographer = await aPhotographer();
    const first = randomBytes(5 * 1024 * 1024);
    const second = randomBytes(300 * 1024);
    const { orderId, key, uploadId } = await startUpload(photographer, first.length + second.length);

    const part1 = await signedS3(photographer, orderId, { method: 'PUT', key, uploadId, partNumber: 1 }, first);
    expect(part1.status).toBe(200);
    expect(part1.etag).toBeTruthy();

    // After a reload the client asks S3 which parts it already has, and skips them.
    const listed = await signedS3(photographer, orderId, { method: 'GET', key, uploadId });
    expect(listed.status).toBe(200);
    expect(partsIn(listed.text)).toEqual([{ partNumber: 1, etag: part1.etag }]);

    const part2 = await signedS3(photographer, orderId, { method: 'PUT', key, uploadId, partNumber: 2 }, second);
    expect(part2.status).toBe(200);
    const relisted = await signedS3(photographer, orderId, { method: 'GET', key, uploadId });
    expect(partsIn(relisted.text).map((p) => p.partNumber)).toEqual([1, 2]);

    const completed = await signedS3(
      photographer,
      orderId,
      { method: 'POST', key, uploadId },
      completionXml(partsIn(relisted.text)),
      'application/xml',
    );
    expect(completed.status, completed.text).toBe(200);

    const object = await storage().send(new GetObjectCommand({ Bucket: process.env.PHOTOS_BUCKET!, Key: key }));
    const stored = Buffer.from(await object.Body!.transformToByteArray());
    expect(stored.equals(Buffer.concat([first, second]))).toBe(true);

    const registered = await as(photographer).post(`/api/orders/${orderId}/uploads/complete`, {
      key,
      filename: 'living-room.cr2',
    });
    expect(registered.status).toBe(200);
    expect(registered.body).toMatchObject({ image: { size: stored.length }, photographerUploadCount: 1 });
  });

  it('aborts an upload: S3 then knows it no more and it cannot be completed', async () => {
    const photographer = await aPhotographer();
    const part = randomBytes(64 * 1024);
    const { orderId, key, uploadId } = await startUpload(photographer, part.length);
    const put = await signedS3(photographer, orderId, { method: 'PUT', key, uploadId, partNumber: 1 }, part);
    expect(put.status).toBe(200);

    const aborted = await signedS3(photographer, orderId, { method: 'DELETE', key, uploadId });
    expect(aborted.status).toBe(204);

    const listed = await signedS3(photographer, orderId, { method: 'GET', key, uploadId });
    expect(listed.status).toBe(404);
    expect(listed.text).toContain('<Code>NoSuchUpload</Code>');
    const completed = await signedS3(
      photographer,
      orderId,
      { method: 'POST', key, uploadId },
      completionXml([{ partNumber: 1, etag: put.etag! }]),
      'application/xml',
    );
    expect(completed.status).toBe(404);
    const registered = await as(photographer).post(`/api/orders/${orderId}/uploads/complete`, {
      key,
      filename: 'living-room.cr2',
    });
    expect(registered.status).toBe(404);
  });
});
