import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { build, type Metafile } from 'esbuild';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { lambdaBuildOptions } from '../../../infra/lib/bundling/options';
import { resetConfig } from '../config';
import type { UploadStep } from '../domain/upload-rules';
import { routes } from '../routes';
import { IMAGE_URL_LIFETIME_SECONDS, imageUrls, signingHourOf } from './image-urls';
import { presignUploadStep } from './presigned-uploads';
import { GET_OBJECT_QUERY, photosBucket, s3, s3Requests } from './s3-requests';
import { attachmentDisposition, ZIP_LINK_SECONDS, zipDownloadUrl } from './zip-downloads';

/**
 * The request paths sign S3 requests with the SigV4 signer alone. Their URLs must be the very ones
 * the S3 client's presigner made from the same configuration, credentials, date and input: the
 * reference below is the code the routes ran before, the SDK's commands and getSignedUrl.
 */
const credentials = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  sessionToken: 'IQoJb3JpZ2luX2VjEXAMPLE//token+with=padding',
};
const signingDate = new Date('2025-03-14T15:09:26Z');

const configurations = [
  {
    name: 'the cloud (virtual-hosted, us-east-1)',
    region: 'us-east-1',
    bucket: 'marketplace-photos-123456789012-us-east-1',
  },
  {
    name: 'the cloud in another region',
    region: 'eu-central-1',
    bucket: 'marketplace-photos-123456789012-eu-central-1',
  },
  {
    name: 'the local stand-in (path-style)',
    region: 'us-east-1',
    bucket: 'marketplace-photos',
    endpoint: 'http://127.0.0.1:4569',
  },
];

const keys = [
  'orders/01JQ8Z/originals/5f0c7d2e/IMG_0001.JPG',
  'orders/o-1/originals/u-1/my photo (1).jpg',
  'orders/o-1/originals/u-1/Équipe été 日本 📷.jpg',
  "orders/o-1/edited/u-1/a+b=c&d!'*~@$,;:.jpg",
  'orders/o-1/originals/u-1//100% done?#.jpg',
];

const uploadId = 'VXBsb2FkIElEIGZvciBlbHZpbmcncyBteS1tb3ZpZS5tMnRzIHVwbG9hZA/+==';
const uploadSteps: UploadStep[] = [
  { step: 'put-object', contentType: 'image/jpeg', size: 1_234_567 },
  { step: 'create-multipart', contentType: 'image/x-canon-cr3', size: 80_000_000 },
  { step: 'upload-part', uploadId, partNumber: 7 },
  { step: 'list-parts', uploadId },
  { step: 'complete-multipart', uploadId },
  { step: 'abort-multipart', uploadId },
];

const sdkClient = ({ region, endpoint }: { region: string; endpoint?: string }) =>
  new S3Client({ region, credentials, ...(endpoint ? { endpoint, forcePathStyle: true } : {}) });

/** The SDK adds a checksum of the empty body it signs with: the routes took it out again. */
const withoutChecksumHeaders =
  <A extends { request: unknown }, R>(next: (args: A) => Promise<R>) =>
  async (args: A) => {
    const headers = (args.request as { headers: Record<string, string> }).headers;
    for (const name of Object.keys(headers)) {
      if (/^x-amz-(sdk-)?checksum-/i.test(name)) delete headers[name];
    }
    return next(args);
  };

/** The upload signing the routes ran with the S3 client, as it was. */
const sdkUploadUrl = (client: S3Client, Bucket: string, Key: string, step: UploadStep, expiresIn: number) => {
  const command = (() => {
    switch (step.step) {
      case 'put-object':
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
  })() as PutObjectCommand;
  if (step.step === 'put-object' || step.step === 'upload-part') {
    command.middlewareStack.addRelativeTo(withoutChecksumHeaders, {
      relation: 'after',
      toMiddleware: 'flexibleChecksumsMiddleware',
      name: 'withoutPayloadChecksum',
    });
  }
  const signsContentType = step.step === 'put-object' || step.step === 'create-multipart';
  return getSignedUrl(client, command, {
    expiresIn,
    ...(signsContentType ? { signableHeaders: new Set(['content-type']) } : {}),
  });
};

const environmentBefore = { ...process.env };

/** Configures this process as a Lambda of `configuration` would be (credentials from the environment). */
const runAs = (configuration: (typeof configurations)[number]) => {
  delete process.env.AWS_PROFILE;
  delete process.env.S3_ENDPOINT;
  Object.assign(process.env, {
    AWS_REGION: configuration.region,
    PHOTOS_BUCKET: configuration.bucket,
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    AWS_SESSION_TOKEN: credentials.sessionToken,
    ...(configuration.endpoint ? { S3_ENDPOINT: configuration.endpoint } : {}),
  });
  resetConfig();
};

afterAll(() => {
  process.env = environmentBefore;
  resetConfig();
});

describe.each(configurations)('presigned URLs in $name', (configuration) => {
  const sdk = sdkClient(configuration);

  beforeAll(() => runAs(configuration));
  afterEach(() => {
    vi.useRealTimers();
  });

  const at = (date: Date) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(date);
  };

  it.each(
    uploadSteps.map((step) => [step.step, step] as const),
  )('signs the %s step of an upload exactly as the S3 client did, for every kind of key', async (_, step) => {
    at(signingDate);
    for (const key of keys) {
      const ours = await presignUploadStep(key, step, 900);
      expect(ours.url).toBe(await sdkUploadUrl(sdk, configuration.bucket, key, step, 900));
      expect(ours.url).not.toMatch(/checksum-crc|sdk-checksum/);
      const signsContentType = step.step === 'put-object' || step.step === 'create-multipart';
      expect(ours.headers).toEqual(signsContentType ? { 'content-type': step.contentType } : {});
    }
  });

  it('signs the length and type of a single PUT, and nothing the browser cannot send', async () => {
    at(signingDate);
    const { url } = await presignUploadStep(keys[0]!, uploadSteps[0]!, 900);
    expect(new URL(url).searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    expect(new URL(url).searchParams.get('X-Amz-Content-Sha256')).toBe('UNSIGNED-PAYLOAD');
  });

  it('signs image URLs as of the hour, as the S3 client did, so they stay the same all hour', async () => {
    const now = new Date('2025-03-14T15:41:07Z');
    at(now);
    for (const key of keys) {
      const image = { thumbnail: 'ready' as const, thumbnailKey: key, previewKey: `${key}.preview.webp` };
      const urls = await imageUrls(image, now);
      const reference = (Key: string) =>
        getSignedUrl(sdk, new GetObjectCommand({ Bucket: configuration.bucket, Key }), {
          signingDate: signingHourOf(now),
          expiresIn: IMAGE_URL_LIFETIME_SECONDS,
        });
      expect(urls).toEqual({ thumbnailUrl: await reference(key), previewUrl: await reference(image.previewKey) });
      expect(await imageUrls(image, new Date('2025-03-14T15:00:00Z'))).toEqual(urls);
      expect((await imageUrls(image, new Date('2025-03-14T16:00:00Z'))).thumbnailUrl).not.toBe(urls.thumbnailUrl);
    }
  });

  it('signs zip links with the attachment name, as the S3 client did', async () => {
    at(signingDate);
    const filenames = ['Order 1042 – 12 Main St.zip', 'a"b\\c.zip', "l'été (final)*.zip", 'plain.zip'];
    for (const key of keys) {
      for (const filename of filenames) {
        const ours = await zipDownloadUrl(s3(), { bucket: photosBucket(), key, filename });
        const reference = await getSignedUrl(
          sdk,
          new GetObjectCommand({
            Bucket: configuration.bucket,
            Key: key,
            ResponseContentDisposition: attachmentDisposition(filename),
          }),
          { expiresIn: ZIP_LINK_SECONDS },
        );
        expect(ours).toBe(reference);
        expect(new URL(ours).searchParams.get('response-content-disposition')).toBe(attachmentDisposition(filename));
      }
    }
  });
});

describe('presigned URLs of other configurations', () => {
  it('address a bucket whose name is no DNS label path-style, as the S3 client does', async () => {
    for (const bucket of ['photos.example.com', 'Photos-Upper']) {
      const ours = await s3Requests({ region: 'us-west-2', credentials }).presignedUrl({
        bucket,
        method: 'GET',
        key: keys[2]!,
        query: GET_OBJECT_QUERY,
        expiresIn: 60,
        signingDate,
      });
      const reference = await getSignedUrl(
        sdkClient({ region: 'us-west-2' }),
        new GetObjectCommand({ Bucket: bucket, Key: keys[2]! }),
        { expiresIn: 60, signingDate },
      );
      expect(ours).toBe(reference);
      expect(ours.startsWith(`https://s3.us-west-2.amazonaws.com/${bucket}/`)).toBe(true);
    }
  });

  it('sign without a session token when the credentials have none, as the S3 client does', async () => {
    const { sessionToken: _, ...longTerm } = credentials;
    const request = { bucket: 'marketplace-photos', method: 'GET' as const, key: keys[1]!, expiresIn: 60, signingDate };
    const ours = await s3Requests({ region: 'ap-southeast-2', credentials: longTerm }).presignedUrl({
      ...request,
      query: GET_OBJECT_QUERY,
    });
    const reference = await getSignedUrl(
      new S3Client({ region: 'ap-southeast-2', credentials: longTerm }),
      new GetObjectCommand({ Bucket: request.bucket, Key: request.key }),
      { expiresIn: 60, signingDate },
    );
    expect(ours).toBe(reference);
    expect(ours).not.toContain('X-Amz-Security-Token');
  });
});

/**
 * A local S3 stand-in that answers each request with the next of a script of answers, and notes
 * what it was sent; the server-side calls' retries are checked against it.
 */
type Scripted = (request: IncomingMessage, response: ServerResponse) => void;

const answer =
  (status: number, headers: Record<string, string> = {}, body = ''): Scripted =>
  (_, response) => {
    response.writeHead(status, headers);
    response.end(body);
  };
const dropConnection: Scripted = (request) => request.socket.destroy();
const neverAnswer: Scripted = () => {};
const slowDown = answer(
  503,
  { 'content-type': 'application/xml' },
  '<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>',
);

describe('server-side requests', () => {
  let server: Server;
  let script: Scripted[] = [];
  const received: { method: string; url: string; authorization: string; date: string }[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      request.resume();
      received.push({
        method: request.method ?? '',
        url: request.url ?? '',
        authorization: String(request.headers.authorization),
        date: String(request.headers['x-amz-date']),
      });
      (script.shift() ?? answer(500))(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const storage = () =>
    s3Requests({
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      credentials,
      attemptTimeoutMs: 300,
    });
  const object = { bucket: 'marketplace-photos', key: 'orders/o-1/originals/u-1/a b.jpg' };
  const run = (...answers: Scripted[]) => {
    script = answers;
    received.length = 0;
  };

  it('tries a HEAD again after SlowDown and a dropped connection, and reads what S3 holds', async () => {
    run(
      slowDown,
      dropConnection,
      answer(200, {
        'content-length': '4242',
        'content-type': 'image/jpeg',
        'last-modified': 'Fri, 14 Mar 2025 15:09:26 GMT',
      }),
    );
    expect(await storage().headObject(object)).toEqual({
      size: 4242,
      contentType: 'image/jpeg',
      lastModified: '2025-03-14T15:09:26.000Z',
    });
    expect(received).toHaveLength(3);
    for (const request of received) {
      expect(request).toMatchObject({ method: 'HEAD', url: '/marketplace-photos/orders/o-1/originals/u-1/a%20b.jpg' });
      expect(request.authorization).toMatch(
        /^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\/\d{8}\/us-east-1\/s3\/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token, Signature=[0-9a-f]{64}$/,
      );
    }
  });

  it('gives an attempt that hangs up to its deadline, then tries again', async () => {
    run(neverAnswer, answer(204));
    const started = performance.now();
    await storage().deleteObject(object);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(received.map((r) => r.method)).toEqual(['DELETE', 'DELETE']);
  });

  it('stops after three attempts and names the operation and what S3 last answered', async () => {
    run(slowDown, slowDown, slowDown, answer(200));
    await expect(
      storage().putObject({ ...object, body: new Uint8Array(10), contentType: 'image/jpeg' }),
    ).rejects.toThrow('S3 PutObject answered 503 SlowDown');
    expect(received).toHaveLength(3);

    run(neverAnswer, dropConnection, neverAnswer);
    await expect(storage().headObject(object)).rejects.toThrow(/^S3 HeadObject failed after 3 attempts/);
    expect(received).toHaveLength(3);
  });

  it('reads a 404 to a HEAD as nothing there, at once', async () => {
    run(answer(404));
    expect(await storage().headObject(object)).toBeNull();
    expect(received).toHaveLength(1);
  });

  it('refuses any other answer at once, naming the status and the operation', async () => {
    run(answer(403));
    await expect(storage().headObject(object)).rejects.toThrow('S3 HeadObject answered 403');
    run(answer(403, {}, '<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>'));
    await expect(storage().deleteObject(object)).rejects.toThrow('S3 DeleteObject answered 403 AccessDenied');
    run(answer(400, {}, '<Error><Code>BadDigest</Code></Error>'));
    await expect(storage().putObject({ ...object, body: new Uint8Array(3), contentType: 'image/png' })).rejects.toThrow(
      'S3 PutObject answered 400 BadDigest',
    );
    expect(received).toHaveLength(1);
  });
});

describe('route bundles', () => {
  const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
  const outdir = mkdtempSync(path.join(tmpdir(), 'route-bundles-'));
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  const handlers = [...new Set(routes.map((route) => route.handler))];
  let metafile: Metafile;
  // Every route's bundle as deployed, built once for the checks below.
  beforeAll(async () => {
    ({ metafile } = await build({
      ...lambdaBuildOptions(repoRoot),
      entryPoints: Object.fromEntries(
        handlers.map((handler) => [handler, path.join(repoRoot, 'services', 'src', 'handlers', `${handler}.ts`)]),
      ),
      absWorkingDir: repoRoot,
      outdir,
      outExtension: { '.js': '.mjs' },
      metafile: true,
      write: false,
      logLevel: 'error',
    }));
  }, 120_000);
  const inputsOf = (handler: string) =>
    Object.keys(Object.values(metafile.outputs).find((o) => o.entryPoint?.endsWith(`handlers/${handler}.ts`))!.inputs);
  const carrying = (packages: RegExp) =>
    handlers.filter((handler) => inputsOf(handler).some((input) => packages.test(input)));

  it('sign S3 requests without the S3 client or its presigner', () => {
    expect(carrying(/node_modules\/@aws-sdk\/(client-s3|s3-request-presigner|lib-storage)\//)).toEqual([]);
    // The check looks where the signing is: these routes sign with s3-requests.ts.
    for (const handler of ['uploads/sign-upload', 'uploads/register-upload', 'downloads/download-completed']) {
      expect(inputsOf(handler)).toContain('services/src/adapters/s3-requests.ts');
    }
  });

  it('send to SQS, Secrets Manager and SES without their SDK clients', () => {
    expect(carrying(/node_modules\/@aws-sdk\/(client-sqs|client-secrets-manager|client-sesv2)\//)).toEqual([]);
    // The check looks where the calls are: these routes queue a zip, read the Stripe keys, send an invitation.
    const callers = {
      'downloads/download-completed': 'queue-publisher.ts',
      'share/download-shared-zip': 'queue-publisher.ts',
      'orders/create-order': 'stripe.ts',
      'payments/stripe-webhook': 'stripe.ts',
      'admin/invite-editor': 'email.ts',
    };
    for (const [handler, adapter] of Object.entries(callers)) {
      expect(inputsOf(handler)).toContain(`services/src/adapters/${adapter}`);
      expect(inputsOf(handler)).toContain('services/src/adapters/aws-requests.ts');
    }
  });
});
