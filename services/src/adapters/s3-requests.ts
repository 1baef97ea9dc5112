import { config } from '../config';
import {
  type Address,
  addressOf,
  awsService,
  type Credentials,
  escapeUri,
  hostHeader,
  isSuccess,
  perConfiguration,
  regionalHost,
  urlOf,
} from './aws-requests';

/**
 * What the request paths ask of S3, signed with AWS's own SigV4 signer instead of sent through
 * the S3 client: presigned URLs for the browser, and a HEAD, a DELETE and a small PUT of the
 * server's own. None of them needs S3's XML answers, and the S3 client (with its presigner) is
 * a large part of a route's cold start; the signer, the SHA-256 and the credential chain are in
 * every bundle already, for DynamoDB. The workers keep the S3 client (adapters/s3.ts).
 *
 * Requests are addressed as the S3 client addresses them with the same configuration: path-style
 * on an explicit endpoint (the local stand-in), else the regional virtual-hosted style. The signed,
 * retried exchange is aws-requests.ts's, shared with the other services the routes call.
 */

export interface S3Target {
  region: string;
  /** An S3-compatible endpoint (the local stand-in); AWS's own for the region when absent. */
  endpoint?: string | undefined;
  /** The AWS SDK's default chain (environment, then the container's role) when absent. */
  credentials?: Credentials;
  /** Each attempt's deadline before its body's transfer time; 3 s when absent. */
  attemptTimeoutMs?: number;
}

/** An object's place: a bucket and a key in it. */
export interface ObjectAt {
  bucket: string;
  key: string;
}

export interface PresignRequest extends ObjectAt {
  method: 'GET' | 'PUT' | 'POST' | 'DELETE';
  /** The operation's query parameters (uploadId, partNumber, response-content-disposition...). */
  query?: Record<string, string>;
  /** Headers the request must be sent with, signed: S3 refuses it if they differ. */
  signedHeaders?: Record<string, string>;
  expiresIn: number;
  signingDate?: Date;
}

export interface StoredObject {
  size: number;
  contentType?: string;
  lastModified: string;
}

/**
 * The query the S3 client's presigner gives a GetObject URL: S3 answers `x-amz-checksum-mode`
 * with the object's stored checksums and ignores `x-id` (the SDK's operation name). Both stay so
 * that a URL is exactly the one the presigner signed before, character for character.
 */
export const GET_OBJECT_QUERY: Readonly<Record<string, string>> = {
  'x-amz-checksum-mode': 'ENABLED',
  'x-id': 'GetObject',
};

/** A presigned upload's bytes are the browser's: the signature cannot cover them. */
const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';

const escapeKey = (key: string) => key.split('/').map(escapeUri).join('/');

/** A bucket name usable as a DNS label (no dots: they would break the certificate's wildcard). */
const isVirtualHostable = (bucket: string) => /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/.test(bucket);

const objectAddress = ({ region, endpoint }: S3Target, bucket: string, key: string): Address => {
  if (endpoint) {
    const address = addressOf(endpoint);
    return { ...address, path: `${address.path.replace(/\/$/, '')}/${bucket}/${escapeKey(key)}` };
  }
  const host = regionalHost('s3', region);
  return isVirtualHostable(bucket)
    ? { protocol: 'https:', hostname: `${bucket}.${host}`, path: `/${escapeKey(key)}` }
    : { protocol: 'https:', hostname: host, path: `/${bucket}/${escapeKey(key)}` };
};

interface ServerRequest extends ObjectAt {
  method: 'HEAD' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  body?: Uint8Array;
}

/** S3 requests of one configuration; `s3()` below is this process's. */
export const s3Requests = (target: S3Target) => {
  const service = awsService({
    name: 'S3',
    signingName: 's3',
    region: target.region,
    credentials: target.credentials,
    attemptTimeoutMs: target.attemptTimeoutMs,
    // S3 signs the path as sent: encoded once, not again.
    uriEscapePath: false,
  });

  const presignedUrl = async ({
    bucket,
    method,
    key,
    query = {},
    signedHeaders = {},
    expiresIn,
    signingDate = new Date(),
  }: PresignRequest) => {
    const address = objectAddress(target, bucket, key);
    const presigned = await service.signer.presign(
      {
        ...address,
        method,
        query: { ...query },
        headers: { ...signedHeaders, host: hostHeader(address), 'X-Amz-Content-Sha256': UNSIGNED_PAYLOAD },
      },
      { expiresIn, signingDate },
    );
    return urlOf(address, presigned.query as Record<string, string>);
  };

  const send = (operation: string, { method, bucket, key, headers, body }: ServerRequest) =>
    service.send(operation, { method, address: objectAddress(target, bucket, key), headers, body });
  const { refused } = service;

  /** What S3 holds at a key, or null when nothing is there. */
  const headObject = async ({ bucket, key }: ObjectAt): Promise<StoredObject | null> => {
    const answer = await send('HeadObject', { method: 'HEAD', bucket, key });
    if (answer.status === 404) return null;
    if (!isSuccess(answer)) throw refused('HeadObject', answer);
    const { 'content-length': size, 'content-type': contentType, 'last-modified': lastModified } = answer.headers;
    return {
      size: Number(size ?? 0),
      ...(contentType ? { contentType } : {}),
      lastModified: (lastModified ? new Date(lastModified) : new Date()).toISOString(),
    };
  };

  const deleteObject = async ({ bucket, key }: ObjectAt) => {
    const answer = await send('DeleteObject', { method: 'DELETE', bucket, key });
    if (!isSuccess(answer)) throw refused('DeleteObject', answer);
  };

  /** The payload is signed with its SHA-256: S3 refuses bytes that changed on the way. */
  const putObject = async ({
    bucket,
    key,
    body,
    contentType,
  }: ObjectAt & { body: Uint8Array; contentType: string }) => {
    const answer = await send('PutObject', {
      method: 'PUT',
      bucket,
      key,
      headers: { 'content-type': contentType, 'content-length': String(body.length) },
      body,
    });
    if (!isSuccess(answer)) throw refused('PutObject', answer);
  };

  return { presignedUrl, headObject, deleteObject, putObject };
};

export type S3Requests = ReturnType<typeof s3Requests>;

/** This process's S3 requests, configured as adapters/s3.ts configures the S3 client. */
export const s3: () => S3Requests = perConfiguration((settings) =>
  s3Requests({ region: settings.AWS_REGION, endpoint: settings.S3_ENDPOINT }),
);

export const photosBucket = () => config().PHOTOS_BUCKET;

/** A presigned request on the photos bucket. */
export const presignedUrl = (request: Omit<PresignRequest, 'bucket'>) =>
  s3().presignedUrl({ bucket: photosBucket(), ...request });

/** What the photos bucket holds at a key, or null when nothing is there. */
export const headObject = (key: string) => s3().headObject({ bucket: photosBucket(), key });

export const deleteObject = (key: string) => s3().deleteObject({ bucket: photosBucket(), key });

/** A small file the server itself received (the one-request routes); larger ones never pass through. */
export const putObject = ({ key, body, contentType }: { key: string; body: Uint8Array; contentType: string }) =>
  s3().putObject({ bucket: photosBucket(), key, body, contentType });
