import { mkdtempSync, rmSync } from 'node:fs';
import { type IncomingHttpHeaders, request } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVerifyingStandIn } from '../../test/sigv4-verifier';
import { resetConfig } from '../config';
import { imageUrls } from './image-urls';
import { presignUploadStep } from './presigned-uploads';
import { deleteObject, headObject, photosBucket, putObject, s3, s3Requests } from './s3-requests';
import { attachmentDisposition, zipDownloadUrl } from './zip-downloads';

/**
 * Signatures checked by a server, not only compared with the SDK's: s3rver (the local S3) stores
 * and serves the objects, but accepts any SigV4 signature whatever its settings (its
 * authentication middleware leaves "Signature version 4 calculation" unimplemented). So in front
 * of it stands a verifier that recomputes every request's signature from what arrived on the
 * wire, as S3 does, and refuses a mismatch with 403 SignatureDoesNotMatch. It is written from
 * AWS's SigV4 description with node:crypto alone, and is shown first to accept what the S3
 * client itself sends and to refuse what was changed after signing.
 */
const S3rver = createRequire(import.meta.url)('s3rver') as new (
  options: Record<string, unknown>,
) => { run(): Promise<AddressInfo>; close(): Promise<void> };

const region = 'us-east-1';
const bucket = 'verified-photos';
/** s3rver's own key pair (it knows no other), with a session token as a Lambda's credentials carry. */
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', sessionToken: 'session/token+=' };
const secrets: Record<string, string> = { [credentials.accessKeyId]: credentials.secretAccessKey };

/** As a browser sends it (not fetch: it would add nothing here, and node:http takes any port). */
const send = (url: string, init: { method: string; headers?: Record<string, string>; body?: Buffer | string }) =>
  new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const outgoing = request(url, { method: init.method, headers: init.headers ?? {} }, async (answer) =>
      resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body: await buffer(answer) }),
    );
    outgoing.on('error', reject);
    outgoing.end(init.body);
  });

let s3rver: InstanceType<typeof S3rver>;
let standIn: Awaited<ReturnType<typeof startVerifyingStandIn>>;
let endpoint: string;
const directory = mkdtempSync(path.join(tmpdir(), 'verified-s3-'));
const environmentBefore = { ...process.env };

beforeAll(async () => {
  s3rver = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    vhostBuckets: false,
    allowMismatchedSignatures: false,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await s3rver.run();
  standIn = await startVerifyingStandIn({ service: 's3', region, secrets, backendPort: port });
  endpoint = `http://127.0.0.1:${standIn.port}`;
  // The routes' own configuration, pointed at the verifier.
  delete process.env.AWS_PROFILE;
  Object.assign(process.env, {
    AWS_REGION: region,
    S3_ENDPOINT: endpoint,
    PHOTOS_BUCKET: bucket,
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    AWS_SESSION_TOKEN: credentials.sessionToken,
  });
  resetConfig();
});

afterAll(async () => {
  process.env = environmentBefore;
  resetConfig();
  await standIn.close();
  await s3rver.close();
  rmSync(directory, { recursive: true, force: true });
});

const sdk = () => new S3Client({ region, endpoint, forcePathStyle: true, credentials });
const verdictsDuring = async (work: () => Promise<unknown>) => {
  const first = standIn.verdicts.length;
  await work();
  return standIn.verdicts.slice(first);
};
const key = "orders/o-1/originals/u-1/Équipe été 📷 (1) a+b=c!'*~.jpg";

describe('the verifying stand-in', () => {
  it("accepts the S3 client's own requests and presigned URLs", async () => {
    const client = sdk();
    const verdicts = await verdictsDuring(async () => {
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: Buffer.from('from the SDK'),
          ContentType: 'image/jpeg',
        }),
      );
      await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      await (await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }))).Body?.transformToString();
      const url = await getSignedUrl(client, new GetObjectCommand({ Bucket: bucket, Key: key }), { expiresIn: 60 });
      expect((await send(url, { method: 'GET' })).body.toString()).toBe('from the SDK');
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    });
    expect(verdicts.map((v) => v.method)).toEqual(['PUT', 'HEAD', 'GET', 'GET', 'DELETE']);
    expect(verdicts.filter((v) => v.problem)).toEqual([]);
  });

  it('refuses a request signed with another secret, or changed after it was signed', async () => {
    const forged = s3Requests({ region, endpoint, credentials: { ...credentials, secretAccessKey: 'not-the-secret' } });
    await expect(forged.headObject({ bucket, key })).rejects.toThrow('S3 HeadObject answered 403');

    const { url, headers } = await presignUploadStep(
      key,
      { step: 'put-object', contentType: 'image/jpeg', size: 5 },
      60,
    );
    const otherKey = url.replace('%281%29', '%282%29');
    expect((await send(otherKey, { method: 'PUT', headers, body: '12345' })).status).toBe(403);
    expect((await send(url, { method: 'PUT', headers, body: '123456' })).status).toBe(403);
    expect((await send(url, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: '12345' })).status).toBe(
      403,
    );
    const expired = await s3().presignedUrl({
      bucket,
      method: 'GET',
      key,
      expiresIn: 60,
      signingDate: new Date(Date.now() - 120_000),
    });
    expect((await send(expired, { method: 'GET' })).status).toBe(403);
    expect(standIn.verdicts.slice(-5).map((v) => v.problem)).toEqual([
      'signature does not match',
      'signature does not match',
      'signature does not match',
      'signature does not match',
      'expired',
    ]);
  });
});

/** An upload of each kind as Uppy makes it, then the links the routes hand out to what arrived. */
const uploadAndDownload = async () => {
  const single = "orders/o-1/originals/u-2/one request (a+b)'.jpg";
  const photo = Buffer.from('the bytes of one photo');
  const put = await presignUploadStep(
    single,
    { step: 'put-object', contentType: 'image/jpeg', size: photo.length },
    60,
  );
  expect((await send(put.url, { method: 'PUT', headers: put.headers, body: photo })).status).toBe(200);

  const parts = [Buffer.alloc(5 * 1024 * 1024, 'a'), Buffer.from('and the last part')];
  const create = await presignUploadStep(
    key,
    { step: 'create-multipart', contentType: 'image/x-canon-cr3', size: parts[0]!.length + parts[1]!.length },
    60,
  );
  const created = await send(create.url, { method: 'POST', headers: create.headers });
  expect(created.status).toBe(200);
  const uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(created.body.toString())![1]!;
  const etags: string[] = [];
  for (const [index, part] of parts.entries()) {
    const signed = await presignUploadStep(key, { step: 'upload-part', uploadId, partNumber: index + 1 }, 60);
    const sent = await send(signed.url, { method: 'PUT', headers: signed.headers, body: part });
    expect(sent.status).toBe(200);
    etags.push(String(sent.headers.etag));
  }
  // s3rver has no ListParts or AbortMultipartUpload (the dev stack's shim answers them): only
  // their signatures are checked here.
  for (const step of [{ step: 'list-parts', uploadId } as const, { step: 'abort-multipart', uploadId } as const]) {
    const signed = await presignUploadStep(key, step, 60);
    await send(signed.url, { method: step.step === 'list-parts' ? 'GET' : 'DELETE', headers: signed.headers });
  }
  const complete = await presignUploadStep(key, { step: 'complete-multipart', uploadId }, 60);
  const partList = etags.map((etag, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${etag}</ETag></Part>`);
  const completed = await send(complete.url, {
    method: 'POST',
    headers: { ...complete.headers, 'content-type': 'application/xml' },
    body: `<CompleteMultipartUpload>${partList.join('')}</CompleteMultipartUpload>`,
  });
  expect(completed.status).toBe(200);

  const filename = 'Order 1042 – été (final).zip';
  const link = await zipDownloadUrl(s3(), { bucket: photosBucket(), key, filename });
  const downloaded = await send(link, { method: 'GET' });
  expect(downloaded.status).toBe(200);
  expect(downloaded.headers['content-disposition']).toBe(attachmentDisposition(filename));
  expect(downloaded.body.equals(Buffer.concat(parts))).toBe(true);

  const { thumbnailUrl, previewUrl } = await imageUrls({ thumbnail: 'ready', thumbnailKey: single, previewKey: key });
  expect((await send(thumbnailUrl!, { method: 'GET' })).body.equals(photo)).toBe(true);
  expect((await send(previewUrl!, { method: 'GET' })).status).toBe(200);
};

describe("the routes' S3 requests, verified", () => {
  it("signs the server's own PUT, HEAD and DELETE as S3 checks them", async () => {
    const bytes = Buffer.from('a small photo, sent by the server itself');
    const verdicts = await verdictsDuring(async () => {
      await putObject({ key, body: new Uint8Array(bytes), contentType: 'image/jpeg' });
      const stored = await headObject(key);
      expect(stored).toMatchObject({ size: bytes.length, contentType: 'image/jpeg' });
      expect(Math.abs(Date.parse(stored!.lastModified) - Date.now())).toBeLessThan(60_000);
      await deleteObject(key);
      expect(await headObject(key)).toBeNull();
    });
    expect(verdicts.map((v) => [v.method, v.problem])).toEqual([
      ['PUT', undefined],
      ['HEAD', undefined],
      ['DELETE', undefined],
      ['HEAD', undefined],
    ]);
    const stored = await sdk()
      .send(new GetObjectCommand({ Bucket: bucket, Key: key }))
      .catch((error: { name: string }) => error.name);
    expect(stored).toBe('NoSuchKey');
  });

  it('signs every step of an upload as the browser sends it, and the links to what was uploaded', async () => {
    const verdicts = await verdictsDuring(uploadAndDownload);
    expect(verdicts).toHaveLength(10);
    expect(verdicts.filter((v) => v.problem)).toEqual([]);
  });
});
