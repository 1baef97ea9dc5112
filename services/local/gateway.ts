import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { type RateLimits, rateLimitedAnswer } from '../src/rate-limits';
import { type RouteDefinition, routeKey } from '../src/routes';
import { clientAddress, createClientRateLimiter } from './rate-limiter';
import type { VerifyToken } from './token-verifier';

/**
 * API Gateway (HTTP API, payload 2.0) on one machine, built from the route table: the same route
 * matching (literal segments beat parameters, greedy {proxy+} last), the JWT authorizer's checks
 * and its 401, the event shape handlers receive, and API Gateway's own 500/503/413 answers. Given
 * rate limits, it also answers for the web ACL in front of CloudFront: 429 to a client over them.
 */
type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<unknown>;

const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024; // API Gateway's request payload limit
const DEFAULT_TIMEOUT_SECONDS = 10;

interface CompiledRoute {
  route: RouteDefinition;
  pattern: RegExp;
  paramNames: string[];
  /** Lower sorts first: fewer parameters, greedy last. */
  rank: number;
}

const compile = (route: RouteDefinition): CompiledRoute => {
  const paramNames: string[] = [];
  let rank = 0;
  const source = route.path
    .split('/')
    .map((segment) => {
      const greedy = /^\{(\w+)\+\}$/.exec(segment);
      if (greedy) {
        paramNames.push(`${greedy[1]}`);
        rank += 1000;
        return '(.+)';
      }
      const param = /^\{(\w+)\}$/.exec(segment);
      if (param) {
        paramNames.push(`${param[1]}`);
        rank += 1;
        return '([^/]+)';
      }
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { route, pattern: new RegExp(`^${source}$`), paramNames, rank };
};

const gatewayError = (statusCode: number, message: string): APIGatewayProxyStructuredResultV2 => ({
  statusCode,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ message }),
});

/** API Gateway passes JWT claims as strings (objects as JSON). */
const claimsAsStrings = (claims: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(claims).map(([key, value]) => [
      key,
      typeof value === 'object' ? JSON.stringify(value) : String(value),
    ]),
  );

/** A malformed escape (`%zz`, a cut UTF-8 sequence) is passed on as sent, not a crash of the gateway. */
const decodeParameter = (raw: string) => {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
};

const isTextual = (contentType: string | undefined) =>
  !contentType || /^(text\/|application\/(json|x-www-form-urlencoded|xml|.*\+json))/i.test(contentType);

export interface GatewayOptions {
  routes: readonly RouteDefinition[];
  loadHandler: (route: RouteDefinition) => Promise<LambdaHandler>;
  verifyToken: VerifyToken;
  log?: (line: string) => void;
  /**
   * Per-client limits, as the web ACL in front of CloudFront enforces them (services/src/rate-limits.ts).
   * Without them the gateway is API Gateway reached directly, which limits no client by itself.
   */
  rateLimits?: RateLimits;
}

export const createGateway = ({ routes, loadHandler, verifyToken, log, rateLimits }: GatewayOptions) => {
  const compiled = routes.map(compile).sort((a, b) => a.rank - b.rank);
  const handlers = new Map<string, Promise<LambdaHandler>>();
  const limiter = rateLimits && createClientRateLimiter(rateLimits, routes);
  const refusal = rateLimits && rateLimitedAnswer(rateLimits);
  const rateLimited: APIGatewayProxyStructuredResultV2 | undefined = refusal && {
    statusCode: refusal.statusCode,
    headers: { 'content-type': 'application/json', 'retry-after': String(refusal.retryAfterSeconds) },
    body: refusal.body,
  };

  const match = (method: string, path: string) => {
    for (const candidate of compiled) {
      if (candidate.route.method !== method && candidate.route.method !== ('ANY' as string)) continue;
      const found = candidate.pattern.exec(path);
      if (!found) continue;
      const pathParameters = Object.fromEntries(
        candidate.paramNames.map((name, i) => [name, decodeParameter(found[i + 1] ?? '')]),
      );
      return { route: candidate.route, pathParameters };
    }
    return null;
  };

  const handle = async (req: http.IncomingMessage, body: Buffer): Promise<APIGatewayProxyStructuredResultV2> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    // The web ACL answers before API Gateway sees the request: a refused one reaches no route.
    if (limiter && rateLimited && !limiter.admit(clientAddress(req), url.pathname)) return rateLimited;
    const method = (req.method ?? 'GET').toUpperCase();
    const matched = match(method, url.pathname);
    if (!matched) return gatewayError(404, 'Not Found');
    if (body.length > MAX_PAYLOAD_BYTES) return gatewayError(413, 'Request Entity Too Large');
    const { route, pathParameters } = matched;

    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
    }

    let claims: Record<string, string> | undefined;
    if (route.allow !== 'public') {
      const bearer = /^Bearer (.+)$/i.exec(headers.authorization ?? '');
      if (!bearer?.[1]) return gatewayError(401, 'Unauthorized');
      try {
        claims = claimsAsStrings(await verifyToken(bearer[1]));
      } catch {
        return gatewayError(401, 'Unauthorized');
      }
    }

    // A Map, so keys such as `constructor` or `__proto__` are plain keys as API Gateway passes them.
    const query = new Map<string, string>();
    for (const [key, value] of url.searchParams) {
      const earlier = query.get(key);
      query.set(key, earlier === undefined ? value : `${earlier},${value}`);
    }
    const queryStringParameters = Object.fromEntries(query);
    const textual = isTextual(headers['content-type']);
    const now = new Date();
    const requestId = randomUUID();
    const event: APIGatewayProxyEventV2 = {
      version: '2.0',
      routeKey: routeKey(route),
      rawPath: url.pathname,
      rawQueryString: url.search.slice(1),
      cookies: headers.cookie?.split(';').map((c) => c.trim()),
      headers,
      queryStringParameters: url.search ? queryStringParameters : undefined,
      pathParameters: Object.keys(pathParameters).length ? pathParameters : undefined,
      requestContext: {
        accountId: 'local',
        apiId: 'local',
        domainName: headers.host ?? 'localhost',
        domainPrefix: 'localhost',
        http: {
          method,
          path: url.pathname,
          protocol: `HTTP/${req.httpVersion}`,
          sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
          userAgent: headers['user-agent'] ?? '',
        },
        requestId,
        routeKey: routeKey(route),
        stage: '$default',
        time: now.toISOString(),
        timeEpoch: now.getTime(),
        ...(claims ? { authorizer: { jwt: { claims, scopes: [] } } } : {}),
      },
      body: body.length ? (textual ? body.toString('utf8') : body.toString('base64')) : undefined,
      isBase64Encoded: body.length > 0 && !textual,
    } as APIGatewayProxyEventV2;

    const timeoutMs = (route.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000;
    const key = routeKey(route);
    if (!handlers.has(key)) handlers.set(key, loadHandler(route));
    let timer: NodeJS.Timeout | undefined;
    try {
      const handler = await handlers.get(key)!;
      // Like Lambda, the function's time starts once its code has loaded (init is not billed to the request).
      const deadline = Date.now() + timeoutMs;
      const context = {
        awsRequestId: requestId,
        functionName: route.handler,
        getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
      } as Context;
      const result = await Promise.race([
        handler(event, context),
        new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), timeoutMs);
        }),
      ]);
      if (result === 'timeout') return gatewayError(503, 'Service Unavailable');
      return toStructuredResult(result);
    } catch (error) {
      log?.(`${key} threw: ${(error as Error)?.stack ?? error}`);
      return gatewayError(500, 'Internal Server Error');
    } finally {
      clearTimeout(timer);
    }
  };

  return http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const started = Date.now();
      const result = await handle(req, Buffer.concat(chunks)).catch((error: unknown) => {
        log?.(`${req.method} ${req.url} broke the gateway: ${(error as Error)?.stack ?? error}`);
        return gatewayError(500, 'Internal Server Error');
      });
      const headers: Record<string, string | string[]> = { ...(result.headers as Record<string, string>) };
      if (result.cookies?.length) headers['set-cookie'] = result.cookies;
      res.writeHead(result.statusCode ?? 200, headers);
      res.end(result.body ? Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8') : undefined);
      log?.(`${req.method} ${req.url} ${result.statusCode} ${Date.now() - started}ms`);
    });
  });
};

/** Payload 2.0: a result without statusCode is a 200 JSON body, as API Gateway infers. */
const toStructuredResult = (result: unknown): APIGatewayProxyStructuredResultV2 => {
  if (result && typeof result === 'object' && 'statusCode' in result)
    return result as APIGatewayProxyStructuredResultV2;
  return {
    statusCode: 200,
    headers: { 'content-type': 'application/json' },
    body: typeof result === 'string' ? result : JSON.stringify(result ?? null),
  };
};
