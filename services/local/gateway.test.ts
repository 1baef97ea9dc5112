import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RateLimits } from '../src/rate-limits';
import type { RouteDefinition } from '../src/routes';
import { createGateway } from './gateway';

/** The gateway with routes whose handlers echo the event they were given. */
const testRoutes: RouteDefinition[] = [
  { method: 'GET', path: '/api/orders/{id}', handler: 'by-id', allow: 'signed-in', records: 'none', grants: [] },
  { method: 'GET', path: '/api/orders/available', handler: 'available', allow: 'public', records: 'none', grants: [] },
  {
    method: 'POST',
    path: '/api/slow',
    handler: 'slow',
    allow: 'public',
    records: 'none',
    grants: [],
    timeoutSeconds: 0.2,
  },
  { method: 'POST', path: '/api/broken', handler: 'broken', allow: 'public', records: 'none', grants: [] },
  { method: 'ANY', path: '/api/{proxy+}', handler: 'fallback', allow: 'public', records: 'none', grants: [] },
];

let base = '';
const server = createGateway({
  routes: testRoutes,
  verifyToken: async (token) => {
    if (token !== 'good') throw new Error('bad token');
    return { sub: 'user-1', email: 'u@example.com', email_verified: true, auth_time: 1 };
  },
  loadHandler: async (route) => async (event: APIGatewayProxyEventV2) => {
    if (route.handler === 'slow') await new Promise((r) => setTimeout(r, 1000));
    if (route.handler === 'broken') throw new Error('secret internals');
    return { handler: route.handler, event };
  },
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const get = async (path: string, init: RequestInit = {}) => {
  const response = await fetch(`${base}${path}`, init);
  return { status: response.status, body: (await response.json()) as { handler: string; event: unknown } };
};

describe('the local API gateway', () => {
  it('prefers a literal path segment over a path parameter, and the catch-all last', async () => {
    expect((await get('/api/orders/available')).body.handler).toBe('available');
    expect((await get('/api/orders/123', { headers: { authorization: 'Bearer good' } })).body.handler).toBe('by-id');
    expect((await get('/api/anything/else')).body.handler).toBe('fallback');
  });

  it('builds an HTTP API v2 event with the route key, path parameters, query and JWT claims as strings', async () => {
    const { body } = await get('/api/orders/ord%201?page=2&tag=a&tag=b', { headers: { authorization: 'Bearer good' } });
    const event = body.event as APIGatewayProxyEventV2 & {
      requestContext: { authorizer: { jwt: { claims: Record<string, string> } } };
    };
    expect(event.version).toBe('2.0');
    expect(event.routeKey).toBe('GET /api/orders/{id}');
    expect(event.pathParameters).toEqual({ id: 'ord 1' });
    expect(event.queryStringParameters).toEqual({ page: '2', tag: 'a,b' });
    expect(event.requestContext.authorizer.jwt.claims).toMatchObject({
      sub: 'user-1',
      email_verified: 'true',
      auth_time: '1',
    });
  });

  it("answers like API Gateway's JWT authorizer when the token is missing or bad", async () => {
    expect(await get('/api/orders/1')).toEqual({ status: 401, body: { message: 'Unauthorized' } });
    expect(await get('/api/orders/1', { headers: { authorization: 'Bearer forged' } })).toEqual({
      status: 401,
      body: { message: 'Unauthorized' },
    });
  });

  it('answers 503 when a handler outlives its timeout and 500 without internals when it throws', async () => {
    expect(await get('/api/slow', { method: 'POST' })).toEqual({
      status: 503,
      body: { message: 'Service Unavailable' },
    });
    const broken = await get('/api/broken', { method: 'POST' });
    expect(broken).toEqual({ status: 500, body: { message: 'Internal Server Error' } });
  });
});

describe('the local API gateway with per-client rate limits', () => {
  const limits: RateLimits = { publicRouteRequests: 10, allRequests: 20, windowSeconds: 60 };
  const calls: string[] = [];
  const limited = createGateway({
    routes: testRoutes,
    rateLimits: limits,
    verifyToken: async () => ({ sub: 'user-1', email: 'u@example.com', email_verified: true, auth_time: 1 }),
    loadHandler: async (route) => async () => {
      calls.push(route.handler);
      return { handler: route.handler };
    },
  });
  let port = 0;

  beforeAll(async () => {
    await new Promise<void>((resolve) => limited.listen(0, '127.0.0.1', resolve));
    port = (limited.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => limited.close(() => resolve())));

  /** A request from one loopback address (Linux routes all of 127.0.0.0/8 here), one at a time. */
  const from = (localAddress: string, path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: unknown }>((resolve, reject) => {
      const request = http.request({ host: '127.0.0.1', port, path, localAddress, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: JSON.parse(Buffer.concat(chunks).toString()),
          }),
        );
      });
      request.on('error', reject);
      request.end();
    });

  const statusesFrom = async (localAddress: string, path: string, count: number, headers?: Record<string, string>) => {
    const statuses: number[] = [];
    for (let i = 0; i < count; i += 1) statuses.push((await from(localAddress, path, headers)).status);
    return statuses;
  };

  it("answers a client over the public routes' limit 429 in our JSON error shape, without running the route", async () => {
    calls.length = 0;
    const statuses = await statusesFrom('127.0.0.2', '/api/orders/available', 12);
    expect(statuses).toEqual([...Array(10).fill(200), 429, 429]);
    expect(calls).toHaveLength(10);
    const refused = await from('127.0.0.2', '/api/orders/available');
    expect(refused).toMatchObject({
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '60' },
      body: { message: 'Too many requests from your address. Please wait a minute and try again.' },
    });
    expect(calls).toHaveLength(10);
    expect(await statusesFrom('127.0.0.3', '/api/orders/available', 3)).toEqual([200, 200, 200]);
  });

  it('limits all requests of a client, signed-in routes and unknown paths alike', async () => {
    const statuses = await statusesFrom('127.0.0.4', '/api/anything/else', 21);
    expect(statuses.filter((status) => status === 200)).toHaveLength(20);
    expect(statuses.at(-1)).toBe(429);
    expect((await from('127.0.0.4', '/api/orders/1', { authorization: 'Bearer good' })).status).toBe(429);
    expect((await from('127.0.0.5', '/api/orders/1', { authorization: 'Bearer good' })).status).toBe(200);
  });

  it("counts a proxy's requests against the address it forwards for, as Vite's /api proxy sends them", async () => {
    const viaProxy = (browser: string) => ({ 'x-forwarded-for': `spoofed-by-the-browser, ${browser}` });
    expect(await statusesFrom('127.0.0.6', '/api/orders/available', 11, viaProxy('192.0.2.1'))).toEqual([
      ...Array(10).fill(200),
      429,
    ]);
    expect((await from('127.0.0.6', '/api/orders/available', viaProxy('192.0.2.2'))).status).toBe(200);
  });
});
