import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { Hash } from '@smithy/hash-node';
import { SignatureV4 } from '@smithy/signature-v4';
import { type Config, config } from '../config';

/**
 * What the request paths ask of S3, signed with AWS's own SigV4 signer instead of sent through
 * the S3 client: presigned URLs for the browser, and a HEAD, a DELETE and a small PUT of the
 * server's own. None of them needs S3's XML answers, and the S3 client (with its presigner) is
 * a large part of a route's cold start; the signer, the SHA-256 and the credential chain are in
 * every bundle already, for DynamoDB. The workers keep the S3 client (adapters/s3.ts).
 *
 * Requests are addressed as the S3 client addresses them with the same configuration: path-style
 * on an explicit endpoint (the local stand-in), else the regional virtual-hosted style.
 */
type Credentials = ConstructorParameters<typeof SignatureV4>[0]['credentials'];

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

const MAX_ATTEMPTS = 3;
const BACKOFF_BASE_MS = 100;
/** S3 answers a HEAD or DELETE in milliseconds; a body adds its transfer time. */
const ATTEMPT_TIMEOUT_MS = 3_000;
const ATTEMPT_MS_PER_MIB = 1_000;

/** RFC 3986 escaping, as the SDK escapes keys and query parameters (`!'()*` too). */
const escapeUri = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const escapeKey = (key: string) => key.split('/').map(escapeUri).join('/');

const queryString = (query: Record<string, string>) =>
  Object.keys(query)
    .sort()
    .map((name) => `${escapeUri(name)}=${escapeUri(query[name]!)}`)
    .join('&');

/** A bucket name usable as a DNS label (no dots: they would break the certificate's wildcard). */
const isVirtualHostable = (bucket: string) => /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/.test(bucket);

const dnsSuffix = (region: string) => (region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com');

interface Address {
  protocol: string;
  hostname: string;
  port?: number;
  path: string;
}

const addressOf = ({ region, endpoint }: S3Target, bucket: string, key: string): Address => {
  if (endpoint) {
    const url = new URL(endpoint);
    return {
      protocol: url.protocol,
      hostname: url.hostname,
      ...(url.port ? { port: Number(url.port) } : {}),
      path: `${url.pathname.replace(/\/$/, '')}/${bucket}/${escapeKey(key)}`,
    };
  }
  const host = `s3.${region}.${dnsSuffix(region)}`;
  return isVirtualHostable(bucket)
    ? { protocol: 'https:', hostname: `${bucket}.${host}`, path: `/${escapeKey(key)}` }
    : { protocol: 'https:', hostname: host, path: `/${bucket}/${escapeKey(key)}` };
};

const hostHeader = ({ hostname, port }: Address) => (port ? `${hostname}:${port}` : hostname);

const urlOf = (address: Address, query: Record<string, string>) => {
  const search = queryString(query);
  return `${address.protocol}//${hostHeader(address)}${address.path}${search ? `?${search}` : ''}`;
};

interface ServerRequest extends ObjectAt {
  method: 'HEAD' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  body?: Uint8Array;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

const exchange = (
  url: string,
  { method, headers, body }: { method: string; headers: Record<string, string>; body?: Uint8Array },
  timeoutMs: number,
) =>
  new Promise<Answer>((resolve, reject) => {
    const send = url.startsWith('https:') ? httpsRequest : httpRequest;
    const outgoing = send(url, { method, headers, signal: AbortSignal.timeout(timeoutMs) }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });

/** S3's error code from an XML error body (a HEAD answer has none). */
const errorCode = (body: string) => /<Code>([^<]+)<\/Code>/.exec(body)?.[1];

/** Worth another attempt: S3 busy or failing (503 SlowDown among them), or a body S3 waited too long for. */
const isTransient = ({ status, body }: Answer) =>
  status >= 500 || status === 429 || errorCode(body) === 'RequestTimeout';

/** Full jitter: a random wait up to 100 ms, then up to 200 ms. */
const backoff = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * BACKOFF_BASE_MS * 2 ** (attempt - 1)));

/** S3 requests of one configuration; `s3()` below is this process's. */
export const s3Requests = (target: S3Target) => {
  const signer = new SignatureV4({
    service: 's3',
    region: target.region,
    credentials: target.credentials ?? defaultProvider(),
    sha256: Hash.bind(null, 'sha256'),
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
    const address = addressOf(target, bucket, key);
    const presigned = await signer.presign(
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

  /**
   * One request of the server's own, signed afresh for each attempt. Network errors, timeouts
   * and S3's transient answers are tried again; any other answer is returned as it is.
   */
  const send = async (operation: string, { method, bucket, key, headers = {}, body }: ServerRequest) => {
    const address = addressOf(target, bucket, key);
    const timeoutMs =
      (target.attemptTimeoutMs ?? ATTEMPT_TIMEOUT_MS) + Math.ceil(((body?.length ?? 0) / 2 ** 20) * ATTEMPT_MS_PER_MIB);
    for (let attempt = 1; ; attempt++) {
      const signed = await signer.sign({
        ...address,
        method,
        query: {},
        headers: { ...headers, host: hostHeader(address) },
        ...(body ? { body } : {}),
      });
      try {
        const answer = await exchange(urlOf(address, {}), { method, headers: signed.headers, body }, timeoutMs);
        if (attempt < MAX_ATTEMPTS && isTransient(answer)) {
          await backoff(attempt);
          continue;
        }
        return answer;
      } catch (error) {
        if (attempt >= MAX_ATTEMPTS) {
          throw new Error(`S3 ${operation} failed after ${MAX_ATTEMPTS} attempts: ${(error as Error).message}`, {
            cause: error,
          });
        }
        await backoff(attempt);
      }
    }
  };

  const refused = (operation: string, { status, body }: Answer) => {
    const code = errorCode(body);
    return new Error(`S3 ${operation} answered ${status}${code ? ` ${code}` : ''}`);
  };

  /** What S3 holds at a key, or null when nothing is there. */
  const headObject = async ({ bucket, key }: ObjectAt): Promise<StoredObject | null> => {
    const answer = await send('HeadObject', { method: 'HEAD', bucket, key });
    if (answer.status === 404) return null;
    if (answer.status < 200 || answer.status > 299) throw refused('HeadObject', answer);
    const { 'content-length': size, 'content-type': contentType, 'last-modified': lastModified } = answer.headers;
    return {
      size: Number(size ?? 0),
      ...(contentType ? { contentType } : {}),
      lastModified: (lastModified ? new Date(lastModified) : new Date()).toISOString(),
    };
  };

  const deleteObject = async ({ bucket, key }: ObjectAt) => {
    const answer = await send('DeleteObject', { method: 'DELETE', bucket, key });
    if (answer.status < 200 || answer.status > 299) throw refused('DeleteObject', answer);
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
    if (answer.status < 200 || answer.status > 299) throw refused('PutObject', answer);
  };

  return { presignedUrl, headObject, deleteObject, putObject };
};

export type S3Requests = ReturnType<typeof s3Requests>;

let current: { settings: Config; requests: S3Requests } | undefined;

/** This process's S3 requests, configured as adapters/s3.ts configures the S3 client. */
export const s3 = (): S3Requests => {
  const settings = config();
  if (current?.settings !== settings) {
    current = { settings, requests: s3Requests({ region: settings.AWS_REGION, endpoint: settings.S3_ENDPOINT }) };
  }
  return current.requests;
};

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
