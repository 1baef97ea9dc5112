import * as z from '@marketplace/events/zod';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { logger } from '../adapters/logger';
import { BadRequest, Conflict } from './errors';
import { publicHttp } from './http';
import { ok } from './responses';

/** A request to the health route (public, so no user record is read). */
const event = (body?: string) =>
  ({
    routeKey: 'GET /api/health',
    rawPath: '/api/health',
    headers: {},
    requestContext: { http: { method: 'GET', path: '/api/health' } },
    ...(body === undefined ? {} : { body }),
  }) as unknown as APIGatewayProxyEventV2;

const context = { awsRequestId: 'request-1', functionName: 'marketplace-health', invokedFunctionArn: 'arn:fn' };

/** The JSON lines written to stdout and stderr while the test runs. */
let lines: { stream: string; entry: Record<string, unknown> }[] = [];
beforeEach(() => {
  lines = [];
  logger.setLogLevel('INFO');
  for (const stream of ['stdout', 'stderr'] as const) {
    vi.spyOn(process[stream], 'write').mockImplementation((chunk: string | Uint8Array) => {
      for (const line of String(chunk)
        .split('\n')
        .filter((l) => l.startsWith('{'))) {
        lines.push({ stream, entry: JSON.parse(line) as Record<string, unknown> });
      }
      return true;
    });
  }
});
afterEach(() => vi.restoreAllMocks());

describe('the route stack', () => {
  it('answers the handler’s result and hands it the request id', async () => {
    const handler = publicHttp({}, async ({ requestId }) => ok({ requestId }));
    const answer = await handler(event(), context);
    expect(answer.statusCode).toBe(200);
    expect(JSON.parse(answer.body as string)).toEqual({ requestId: 'request-1' });
  });

  it('turns bad input into a JSON 400 naming the field, before the handler runs', async () => {
    const handle = vi.fn(async () => ok({}));
    const handler = publicHttp({ body: z.object({ name: z.string() }) }, handle);
    const answer = await handler(event('{"name":3}'), context);
    expect(answer.statusCode).toBe(400);
    const body = JSON.parse(answer.body as string);
    expect(body).toMatchObject({ error: 'VALIDATION_FAILED' });
    expect(body.details[0].path).toBe('body.name');
    expect(handle).not.toHaveBeenCalled();
    expect(JSON.parse((await handler(event('{not json'), context)).body as string).error).toBe('INVALID_JSON');
  });

  it('answers an HttpError with its status and code, and logs nothing below 500', async () => {
    const handler = publicHttp({}, async () => {
      throw new Conflict('Taken already');
    });
    const answer = await handler(event(), context);
    expect(answer.statusCode).toBe(409);
    expect(JSON.parse(answer.body as string)).toEqual({ error: 'CONFLICT', message: 'Taken already' });
    expect(lines.filter((l) => l.entry.level === 'ERROR')).toEqual([]);
  });

  it('answers any other error with a 500 without internals, logged as JSON with the request id and the error', async () => {
    const handler = publicHttp({}, async () => {
      throw new Error('secret internals');
    });
    const answer = await handler(event(), context);
    expect(answer.statusCode).toBe(500);
    const body = JSON.parse(answer.body as string);
    expect(body).toEqual({
      error: 'INTERNAL',
      message: 'Something went wrong on our side. Please try again.',
      requestId: 'request-1',
    });
    expect(answer.body).not.toContain('secret');
    const [logged, ...rest] = lines;
    expect(rest).toEqual([]);
    expect(logged?.stream).toBe('stderr');
    expect(logged?.entry).toMatchObject({
      level: 'ERROR',
      message: 'unhandled error',
      service: 'marketplace',
      function_name: 'marketplace-health',
      function_request_id: 'request-1',
      function_arn: 'arn:fn',
      requestId: 'request-1',
      error: { name: 'Error', message: 'secret internals' },
    });
    expect(typeof logged?.entry.timestamp).toBe('string');
    // The first frame written `(file:line:column)`, as `file:line` (an anonymous function's frame has no brackets).
    expect((logged?.entry.error as { location: string }).location).toMatch(/\.ts:\d+$/);
    expect((logged?.entry.error as { stack: string }).stack).toContain('http.test.ts');
  });

  it('adds the route’s headers to its answers, errors included', async () => {
    const headers = { 'x-robots-tag': 'noindex' };
    const fine = publicHttp({}, async () => ok({}), { headers });
    const failing = publicHttp(
      {},
      async () => {
        throw new BadRequest('No');
      },
      { headers },
    );
    for (const answer of [await fine(event(), context), await failing(event(), context)]) {
      expect(answer.headers).toMatchObject({
        'x-robots-tag': 'noindex',
        'content-type': 'application/json; charset=utf-8',
      });
    }
  });

  it('answers a JSON 500 just before Lambda would stop the function', async () => {
    const handler = publicHttp({}, () => new Promise(() => {}));
    const started = Date.now();
    const answer = await handler(event(), { ...context, getRemainingTimeInMillis: () => 60 });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(answer.statusCode).toBe(500);
    expect(JSON.parse(answer.body as string).error).toBe('INTERNAL');
    expect(lines[0]?.entry).toMatchObject({ message: 'unhandled error', error: { name: 'TimeoutError' } });
  });

  it('refuses a route key the table does not know', async () => {
    const handler = publicHttp({}, async () => ok({}));
    const answer = await handler({ ...event(), routeKey: 'GET /api/nowhere' }, context);
    expect(answer.statusCode).toBe(403);
  });
});
