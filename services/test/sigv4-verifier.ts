import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buffer } from 'node:stream/consumers';

/**
 * A server that checks every request's SigV4 signature as AWS does, recomputed from what arrived
 * on the wire with node:crypto alone (from AWS's SigV4 description), before passing it on to a
 * stand-in that accepts any signature (s3rver, SES's local stand-in). A mismatch gets 403
 * SignatureDoesNotMatch and goes no further. It knows the secrets it is given, one service and
 * one region: a request signed with another key, secret, scope, or changed after signing is
 * refused.
 */
export interface VerifierOptions {
  /** SigV4's name of the service in the credential scope: "s3", "ses". */
  service: string;
  region: string;
  /** Access key id to secret: the keys the endpoint knows. */
  secrets: Record<string, string>;
  /** The stand-in behind the verifier. */
  backendPort: number;
}

interface Arrived {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface Verdict {
  method: string;
  url: string;
  /** The access key the request was signed with, as it named it. */
  accessKeyId: string | undefined;
  problem: string | undefined;
}

const rfc3986 = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text, 'utf8').digest();
const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const parseAmzDate = (date: string) =>
  Date.parse(date.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));

/** Why AWS would refuse this request's signature, or undefined when it holds. */
export const signatureProblem = (
  { method, url, headers, body }: Arrived,
  { service, region, secrets }: Omit<VerifierOptions, 'backendPort'>,
  now = Date.now(),
): string | undefined => {
  const queryStart = url.indexOf('?');
  const rawPath = queryStart < 0 ? url : url.slice(0, queryStart);
  const params = (queryStart < 0 ? '' : url.slice(queryStart + 1))
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const equals = pair.indexOf('=');
      return equals < 0
        ? [decodeURIComponent(pair), '']
        : [decodeURIComponent(pair.slice(0, equals)), decodeURIComponent(pair.slice(equals + 1))];
    }) as [string, string][];
  const param = (name: string) => params.find(([n]) => n === name)?.[1];
  const presigned = param('X-Amz-Signature') !== undefined;

  let credential: string;
  let signedHeaders: string;
  let signature: string;
  let date: string;
  let payloadHash: string;
  if (presigned) {
    credential = param('X-Amz-Credential') ?? '';
    signedHeaders = param('X-Amz-SignedHeaders') ?? '';
    signature = param('X-Amz-Signature') ?? '';
    date = param('X-Amz-Date') ?? '';
    payloadHash = param('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD';
    const expires = Number(param('X-Amz-Expires'));
    if (!(expires > 0 && expires <= 604_800)) return 'X-Amz-Expires out of range';
    if (now > parseAmzDate(date) + expires * 1000) return 'expired';
  } else {
    const match = /^AWS4-HMAC-SHA256 Credential=([^,]+), ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
      String(headers.authorization ?? ''),
    );
    if (!match) return 'no SigV4 authorization';
    [, credential = '', signedHeaders = '', signature = ''] = match;
    date = String(headers['x-amz-date'] ?? '');
    // S3 requires the payload's hash in a header; the other services hash the body themselves.
    payloadHash = String(headers['x-amz-content-sha256'] ?? (service === 's3' ? '' : sha256Hex(body)));
    if (!payloadHash) return 'no x-amz-content-sha256';
    if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== sha256Hex(body)) return 'payload hash mismatch';
    if (Math.abs(now - parseAmzDate(date)) > 15 * 60_000) return 'request time too skewed';
  }

  const [accessKeyId = '', day = '', scopeRegion, scopeService, terminator] = credential.split('/');
  const secret = secrets[accessKeyId];
  if (!secret) return 'unknown access key';
  if (day !== date.slice(0, 8) || scopeRegion !== region || scopeService !== service || terminator !== 'aws4_request') {
    return `bad credential scope ${credential}`;
  }
  const signed = signedHeaders.split(';');
  if (!signed.includes('host')) return 'host not signed';
  const unsignedAmz = Object.keys(headers).filter((name) => name.startsWith('x-amz-') && !signed.includes(name));
  if (unsignedAmz.length) return `unsigned ${unsignedAmz.join(', ')}`;

  // S3 decodes the path it received and encodes each segment again (RFC 3986), once; every other
  // service signs the path as it arrived, encoded once more.
  const canonicalPath = rawPath
    .split('/')
    .map((segment) => rfc3986(service === 's3' ? decodeURIComponent(segment) : segment))
    .join('/');
  const canonicalQuery = params
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value]) => `${rfc3986(name)}=${rfc3986(value)}`)
    .sort()
    .join('&');
  const canonicalHeaders = signed
    .map(
      (name) =>
        `${name}:${String(headers[name] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const canonicalRequest = [method, canonicalPath, canonicalQuery, canonicalHeaders, signedHeaders, payloadHash].join(
    '\n',
  );
  const scope = `${day}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', date, scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), service), 'aws4_request');
  const expected = hmac(signingKey, stringToSign).toString('hex');
  return timingSafeEqual(Buffer.from(expected), Buffer.from(signature.padEnd(64, '0').slice(0, 64)))
    ? undefined
    : 'signature does not match';
};

const accessKeyOf = ({ url, headers }: Pick<Arrived, 'url' | 'headers'>) => {
  const named =
    /Credential=([^/,]+)\//.exec(String(headers.authorization ?? ''))?.[1] ??
    /[?&]X-Amz-Credential=([^%&/]+)/.exec(url)?.[1];
  return named && decodeURIComponent(named);
};

/** The verifier in front of a stand-in: a request whose signature holds goes on, as it arrived. */
export const startVerifyingStandIn = async (options: VerifierOptions) => {
  const verdicts: Verdict[] = [];
  const server: Server = createServer(async (incoming, outgoing) => {
    const arrived = {
      method: incoming.method ?? '',
      url: incoming.url ?? '',
      headers: incoming.headers,
      body: await buffer(incoming),
    };
    const problem = signatureProblem(arrived, options);
    verdicts.push({ method: arrived.method, url: arrived.url, accessKeyId: accessKeyOf(arrived), problem });
    if (problem) {
      outgoing.writeHead(403, { 'content-type': 'application/xml' });
      outgoing.end(`<Error><Code>SignatureDoesNotMatch</Code><Message>${problem}</Message></Error>`);
      return;
    }
    const onward = request(
      {
        host: '127.0.0.1',
        port: options.backendPort,
        method: arrived.method,
        path: arrived.url,
        headers: arrived.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    onward.on('error', () => outgoing.destroy());
    onward.end(arrived.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    verdicts,
    port: (server.address() as AddressInfo).port,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
};
