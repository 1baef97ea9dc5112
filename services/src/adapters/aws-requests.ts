import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { Hash } from '@smithy/hash-node';
import { SignatureV4 } from '@smithy/signature-v4';
import { type Config, config } from '../config';

/**
 * The AWS calls the request paths make (S3's, SQS's SendMessageBatch, Secrets Manager's
 * GetSecretValue, SES's SendEmail), signed with AWS's own SigV4 signer and sent over node:http(s)
 * instead of through each service's SDK client, which is a large part of a route's cold start
 * even when loaded lazily (the bundles' closures are compiled at load). The signer, the SHA-256
 * and the credential chain are in every bundle already, for DynamoDB. Each attempt is signed
 * afresh and has a deadline; network errors, timeouts, 5xx and throttling are tried again, three
 * attempts in all, with the SDK's standard-mode waits (full jitter from 100 ms, from 500 ms when
 * throttled; no retry quota across calls). A call that takes no idempotency key says so, and is
 * not sent again once it may have been carried out.
 */
export type Credentials = ConstructorParameters<typeof SignatureV4>[0]['credentials'];

interface AwsService {
  /** How errors name the service: "SQS", "Secrets Manager". */
  name: string;
  /** SigV4's name for it, in the credential scope: "sqs", "secretsmanager", "ses". */
  signingName: string;
  region: string;
  /** The AWS SDK's default chain (environment, then the container's role) when absent. */
  credentials?: Credentials | undefined;
  /** Each attempt's deadline before its body's transfer time; 3 s when absent. */
  attemptTimeoutMs?: number | undefined;
  /** S3 signs the path as sent, encoded once; every other service encodes it again. */
  uriEscapePath?: boolean;
  /**
   * False for a call AWS cannot tell apart from its repetition (SES's SendEmail takes no
   * idempotency key): an attempt that went out and got no answer (a timeout, a reset) may have
   * been carried out, so it is not sent again. Refusals (5xx, throttling) and connections never
   * made are still tried again. True when absent.
   */
  idempotent?: boolean;
}

/** Where a request goes: the parts SigV4 signs. */
export interface Address {
  protocol: string;
  hostname: string;
  port?: number;
  /** Already percent-encoded. */
  path: string;
}

interface AwsRequest {
  method: string;
  address: Address;
  headers?: Record<string, string>;
  body?: Uint8Array;
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

const MAX_ATTEMPTS = 3;
const BACKOFF_BASE_MS = 100;
const THROTTLED_BACKOFF_BASE_MS = 500;
/** AWS answers these calls in milliseconds; a body adds its transfer time. */
const ATTEMPT_TIMEOUT_MS = 3_000;
const ATTEMPT_MS_PER_MIB = 1_000;

/** The SDK's throttling and transient error codes: the service asks to be tried again later. */
const RETRYABLE_CODES = new Set([
  'Throttling',
  'ThrottlingException',
  'ThrottledException',
  'RequestThrottledException',
  'TooManyRequestsException',
  'ProvisionedThroughputExceededException',
  'TransactionInProgressException',
  'RequestLimitExceeded',
  'BandwidthLimitExceeded',
  'LimitExceededException',
  'RequestThrottled',
  'SlowDown',
  'PriorRequestNotComplete',
  'EC2ThrottledException',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
]);

/** RFC 3986 escaping, as SigV4 and the SDK escape paths and query parameters (`!'()*` too). */
export const escapeUri = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const queryString = (query: Record<string, string>) =>
  Object.keys(query)
    .sort()
    .map((name) => `${escapeUri(name)}=${escapeUri(query[name]!)}`)
    .join('&');

const dnsSuffix = (region: string) => (region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com');

/** A service's own endpoint in a region: `regionalHost('sqs', 'eu-west-1')` is sqs.eu-west-1.amazonaws.com. */
export const regionalHost = (prefix: string, region: string) => `${prefix}.${region}.${dnsSuffix(region)}`;

/** The address of a URL (an endpoint, with the operation's path when it has one). */
export const addressOf = (url: string): Address => {
  const { protocol, hostname, port, pathname } = new URL(url);
  return { protocol, hostname, ...(port ? { port: Number(port) } : {}), path: pathname };
};

export const hostHeader = ({ hostname, port }: Address) => (port ? `${hostname}:${port}` : hostname);

export const urlOf = (address: Address, query: Record<string, string> = {}) => {
  const search = queryString(query);
  return `${address.protocol}//${hostHeader(address)}${address.path}${search ? `?${search}` : ''}`;
};

/**
 * One attempt over node:http(s), the answer read whole, within `timeoutMs` (the body included).
 * The address goes to Node in parts, not as a URL: Node's URL parser would resolve `.` and `..`
 * segments (`%2E%2E` too) after signing, and send the request to another key. Node's global
 * agents keep connections alive between calls. The Stripe client sends its calls through it too:
 * fetch would load Node's HTTP client (undici) on a function's first call.
 */
export const exchange = (
  { protocol, hostname, port, path }: Address,
  { method, headers, body }: { method: string; headers: Record<string, string>; body?: Uint8Array | undefined },
  timeoutMs: number,
) =>
  new Promise<Answer>((resolve, reject) => {
    const send = protocol === 'https:' ? httpsRequest : httpRequest;
    const target = { protocol, hostname, ...(port ? { port } : {}), path };
    const outgoing = send({ ...target, method, headers, signal: AbortSignal.timeout(timeoutMs) }, (response) => {
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

const jsonError = (body: string): { code?: string; message?: string } => {
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
    return { code: text(parsed.code) ?? text(parsed.__type), message: text(parsed.message) ?? text(parsed.Message) };
  } catch {
    return {};
  }
};

/**
 * AWS's error code and message, wherever the protocol puts them: the x-amzn-ErrorType header
 * (REST-JSON), `__type` in a JSON body, `<Code>` in an XML one (S3). A code may come qualified
 * (`com.amazonaws.sqs#QueueDoesNotExist`, `ResourceNotFoundException:http://...`): the SDK's
 * error names are the bare code, and so are ours.
 */
export const awsErrorOf = ({ headers, body }: Answer) => {
  const fromJson = jsonError(body);
  const raw =
    (headers['x-amzn-errortype'] as string | undefined) ?? fromJson.code ?? /<Code>([^<]+)<\/Code>/.exec(body)?.[1];
  const message = fromJson.message ?? /<Message>([^<]+)<\/Message>/.exec(body)?.[1];
  const code = raw?.split(',')[0]?.split(':')[0]?.split('#').at(-1);
  return { code: code || undefined, message };
};

const isThrottled = (answer: Answer) => answer.status === 429 || RETRYABLE_CODES.has(awsErrorOf(answer).code ?? '');

/** Worth another attempt: the service busy, failing or throttling, or a body it waited too long for. */
const isTransient = (answer: Answer) => answer.status >= 500 || isThrottled(answer);

export const isSuccess = ({ status }: Answer) => status >= 200 && status <= 299;

/** Errors of a connection that was never made: the request did not leave. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
const neverSent = (error: unknown) => NOT_SENT_CODES.has((error as NodeJS.ErrnoException)?.code ?? '');

/** Full jitter: a random wait up to the base, then up to twice it (100 ms, or 500 ms when throttled). */
const backoff = (attempt: number, base = BACKOFF_BASE_MS) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * base * 2 ** (attempt - 1)));

/** The content type of AWS's JSON protocol, and the operation it names (`AmazonSQS.SendMessageBatch`). */
export const awsJsonHeaders = (version: '1.0' | '1.1', target: string) => ({
  'content-type': `application/x-amz-json-${version}`,
  'x-amz-target': target,
});

/** Calls to one AWS service in one region, with one set of credentials. */
export const awsService = (service: AwsService) => {
  const signer = new SignatureV4({
    service: service.signingName,
    region: service.region,
    credentials: service.credentials ?? defaultProvider(),
    sha256: Hash.bind(null, 'sha256'),
    uriEscapePath: service.uriEscapePath ?? true,
  });

  /**
   * One request, signed afresh for each attempt. Network errors, timeouts and transient answers
   * are tried again (for a call that is not idempotent, only refusals and connections never
   * made); any other answer is returned as it is.
   */
  const send = async (operation: string, { method, address, headers = {}, body }: AwsRequest) => {
    const timeoutMs =
      (service.attemptTimeoutMs ?? ATTEMPT_TIMEOUT_MS) +
      Math.ceil(((body?.length ?? 0) / 2 ** 20) * ATTEMPT_MS_PER_MIB);
    for (let attempt = 1; ; attempt++) {
      const signed = await signer.sign({
        ...address,
        method,
        query: {},
        headers: { ...headers, host: hostHeader(address) },
        ...(body ? { body } : {}),
      });
      let answer: Answer;
      try {
        answer = await exchange(address, { method, headers: signed.headers, body }, timeoutMs);
      } catch (error) {
        if (service.idempotent === false && !neverSent(error)) {
          throw new Error(
            `${service.name} ${operation} got no answer and may have been carried out, so it is not sent again: ${(error as Error).message}`,
            { cause: error },
          );
        }
        if (attempt >= MAX_ATTEMPTS) {
          throw new Error(
            `${service.name} ${operation} failed after ${MAX_ATTEMPTS} attempts: ${(error as Error).message}`,
            { cause: error },
          );
        }
        await backoff(attempt);
        continue;
      }
      if (attempt < MAX_ATTEMPTS && isTransient(answer)) {
        await backoff(attempt, isThrottled(answer) ? THROTTLED_BACKOFF_BASE_MS : BACKOFF_BASE_MS);
        continue;
      }
      return answer;
    }
  };

  /** The error for an answer outside 2xx: the service, the operation, the status and AWS's code and message. */
  const refused = (operation: string, answer: Answer) => {
    const { code, message } = awsErrorOf(answer);
    return new Error(
      `${service.name} ${operation} answered ${answer.status}${code ? ` ${code}` : ''}${message ? `: ${message}` : ''}`,
    );
  };

  /** A JSON input POSTed to `url` (AWS JSON, or a REST-JSON operation's path); its JSON answer, or the refusal. */
  const sendJson = async <Output>(
    operation: string,
    { url, headers, input }: { url: string; headers: Record<string, string>; input: unknown },
  ): Promise<Output> => {
    const body = Buffer.from(JSON.stringify(input));
    const answer = await send(operation, {
      method: 'POST',
      address: addressOf(url),
      headers: { ...headers, 'content-length': String(body.length) },
      body,
    });
    if (!isSuccess(answer)) throw refused(operation, answer);
    return (answer.body ? JSON.parse(answer.body) : {}) as Output;
  };

  return { signer, send, refused, sendJson };
};

/**
 * A value made from this process's configuration, made again when the configuration is read
 * afresh (tests and the local stack change the environment, then reset it).
 */
export const perConfiguration = <T>(make: (settings: Config) => T) => {
  let current: { settings: Config; value: T } | undefined;
  return (): T => {
    const settings = config();
    if (current?.settings !== settings) current = { settings, value: make(settings) };
    return current.value;
  };
};
