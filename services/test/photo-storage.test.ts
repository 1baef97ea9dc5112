import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';

/** The S3 stand-in is set up at start the way browsers need it for direct multipart uploads. */
const s3 = () =>
  new S3Client({
    region: 'us-east-1',
    endpoint: process.env.S3_ENDPOINT,
    forcePathStyle: true,
  });

describe('the local photos bucket', () => {
  it('exists and keeps what is written to it with the local credentials', async () => {
    const Bucket = process.env.PHOTOS_BUCKET!;
    await s3().send(new PutObjectCommand({ Bucket, Key: 'health/check.txt', Body: 'hello' }));
    const object = await s3().send(new GetObjectCommand({ Bucket, Key: 'health/check.txt' }));
    expect(await object.Body?.transformToString()).toBe('hello');
  });

  it('answers a browser preflight for PUT and DELETE and exposes the ETag header', async () => {
    const url = `${process.env.S3_ENDPOINT}/${process.env.PHOTOS_BUCKET}/orders/o-1/originals/a.jpg`;
    for (const method of ['PUT', 'DELETE']) {
      const preflight = await fetch(url, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://localhost:5173',
          'access-control-request-method': method,
          'access-control-request-headers': 'content-type',
        },
      });
      expect(preflight.status, method).toBe(200);
      expect(preflight.headers.get('access-control-allow-methods'), method).toContain(method);
    }
  });

  it('lets the browser read the ETag of an uploaded part (multipart completion needs it)', async () => {
    const url = `${process.env.S3_ENDPOINT}/${process.env.PHOTOS_BUCKET}/health/etag.txt`;
    const put = await fetch(url, { method: 'PUT', headers: { origin: 'http://localhost:5173' }, body: 'part' });
    expect(put.status).toBe(200);
    expect(put.headers.get('etag')).toBeTruthy();
    expect(put.headers.get('access-control-expose-headers')).toContain('ETag');
  });
});
