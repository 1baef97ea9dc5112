import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
