import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { type ProfilePictureKind, profilePicturePrefix } from '@marketplace/events/profile';
import type { MeView } from '@marketplace/events/users';
import sharp from 'sharp';
import { expect } from 'vitest';
import { as, type TestAccount, waitFor } from './support';

/** A profile's pictures as the browser uploads them: signed by the API, sent straight to S3, then saved. */
const storage = () => new S3Client({ region: 'us-east-1', endpoint: process.env.S3_ENDPOINT, forcePathStyle: true });

export const aPng = (width: number, height: number, colour = { r: 200, g: 80, b: 40 }) =>
  sharp({ create: { width, height, channels: 4, background: { ...colour, alpha: 1 } } })
    .png()
    .toBuffer();

export const pictureKeyFor = (account: TestAccount, kind: ProfilePictureKind, filename: string) =>
  `${profilePicturePrefix(account.uid, kind)}${randomUUID()}-${filename}`;

/** A request to a signed S3 URL (not fetch: some test port offsets put the S3 stand-in on a port fetch refuses). */
export const sendToS3 = (url: string, init: { method: string; headers?: Record<string, string>; body?: Buffer }) =>
  new Promise<{ status: number; body: Buffer; contentType: string | undefined }>((resolve, reject) => {
    const outgoing = request(url, { method: init.method, headers: init.headers ?? {} }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          body: Buffer.concat(chunks),
          contentType: response.headers['content-type'],
        }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end(init.body);
  });

export const objectExists = async (key: string) => {
  try {
    await storage().send(new HeadObjectCommand({ Bucket: process.env.PHOTOS_BUCKET!, Key: key }));
    return true;
  } catch {
    return false;
  }
};

/** Signs a PUT of `bytes` under the account's folder for the kind and sends it to S3; the key it wrote. */
export const uploadPicture = async (
  account: TestAccount,
  kind: ProfilePictureKind,
  bytes: Buffer,
  { filename = 'picture.png', contentType = 'image/png' } = {},
) => {
  const key = pictureKeyFor(account, kind, filename);
  const signed = await as(account).post(`/api/profile/${kind}/sign`, {
    method: 'PUT',
    key,
    contentType,
    size: bytes.length,
  });
  expect(signed.status, JSON.stringify(signed.body)).toBe(200);
  const put = await sendToS3(signed.body.url, { method: 'PUT', headers: signed.body.headers, body: bytes });
  expect(put.status).toBe(200);
  return key;
};

/** Uploads and saves a picture, then waits for the thumbnail worker to make its sizes; the me view then. */
export const aSavedPicture = async (account: TestAccount, kind: ProfilePictureKind, bytes?: Buffer) => {
  const key = await uploadPicture(account, kind, bytes ?? (await aPng(600, 400)));
  const saved = await as(account).put(`/api/profile/${kind}`, { key, filename: 'picture.png' });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  const field = kind === 'image' ? 'profileImage' : 'businessLogo';
  const me = await waitFor(
    async () => (await as(account).get('/api/auth/me')).body as MeView,
    (view) => view[field]?.state !== 'processing',
    30_000,
  );
  expect(me[field]?.state).toBe('ready');
  return { key, me };
};

/** The picture each caller of the authorization matrix saves: already in S3 at this key. */
export const matrixPictureKey = (uid: string, kind: ProfilePictureKind) =>
  `${profilePicturePrefix(uid, kind)}matrix-picture.png`;

/** Puts each account's matrix pictures in S3 (as a signed upload would), so that saving them may succeed. */
export const placeMatrixPictures = async (uids: readonly string[]) => {
  const bytes = await aPng(64, 64);
  await Promise.all(
    uids.flatMap((uid) =>
      (['image', 'logo'] as const).map((kind) =>
        storage().send(
          new PutObjectCommand({
            Bucket: process.env.PHOTOS_BUCKET!,
            Key: matrixPictureKey(uid, kind),
            Body: bytes,
            ContentType: 'image/png',
          }),
        ),
      ),
    ),
  );
};
