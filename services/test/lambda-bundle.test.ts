import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { lambdaBuildOptions } from '../../infra/lib/bundling/options';
import { getUser } from '../src/data/users';

/**
 * A route bundled exactly as the CDK app bundles it (with jsonschema and the document client's
 * package name replaced by stand-ins, infra/lib/bundling), run in a Node process of its own
 * against the local table: the bundle builds ElectroDB's entities and reads through them with the
 * commands the services hand it. The unbundled tests never load the stand-ins.
 */
const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const outDir = mkdtempSync(path.join(tmpdir(), 'lambda-bundle-'));

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

const bundled = async (handler: string) => {
  const outfile = path.join(outDir, handler.replaceAll('/', '_'), 'index.mjs');
  await build({
    ...lambdaBuildOptions(repoRoot),
    entryPoints: [path.join(repoRoot, 'services', 'src', 'handlers', `${handler}.ts`)],
    outfile,
    logLevel: 'error',
  });
  return outfile;
};

/** Imports the bundle in a fresh process, calls its handler once with this event, and returns the answer. */
const invoke = (bundle: string, event: object) => {
  const script = `
    const { handler } = await import(process.argv[1]);
    const context = { functionName: 'bundle-test', awsRequestId: 'bundle-test', getRemainingTimeInMillis: () => 10_000 };
    console.log(JSON.stringify(await handler(JSON.parse(process.argv[2]), context)));`;
  const output = execFileSync(
    process.execPath,
    ['--input-type=module', '-e', script, pathToFileURL(bundle).href, JSON.stringify(event)],
    { encoding: 'utf8', env: { ...process.env, LOG_LEVEL: 'ERROR' } },
  );
  return JSON.parse(output.trim().split('\n').at(-1)!) as { statusCode: number; body: string };
};

const getEvent = (routeKey: string, pathname: string) => ({
  version: '2.0',
  routeKey,
  rawPath: pathname,
  rawQueryString: '',
  headers: {},
  requestContext: {
    http: { method: 'GET', path: pathname, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' },
    requestId: 'bundle-test',
    routeKey,
    stage: '$default',
  },
  isBase64Encoded: false,
});

describe('a route bundled as it is deployed', () => {
  it('builds the entities and reads the table', async () => {
    const answer = invoke(await bundled('system/health'), getEvent('GET /api/health', '/api/health'));
    expect(answer.statusCode).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 'ok' });
  }, 60_000);

  it("writes through a transaction: a new identity's first request creates its user record", async () => {
    // The record, its email claim and the admin list's totals are one transaction: ElectroDB
    // builds a Service over the entities for it, which must tell them from models without jsonschema.
    const userId = `bundle${randomUUID().replaceAll('-', '')}`;
    const email = `${userId}@example.test`;
    const event = getEvent('GET /api/auth/me', '/api/auth/me');
    const signedIn = {
      ...event,
      requestContext: { ...event.requestContext, authorizer: { jwt: { claims: { sub: userId, email }, scopes: [] } } },
    };
    const answer = invoke(await bundled('auth/get-me'), signedIn);
    expect(answer.statusCode).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ id: userId, email, roles: ['photographer'] });
    expect(await getUser(userId)).toMatchObject({ userId, email });
  }, 60_000);

  it('carries neither the model validator nor the DynamoDB commands it does without', async () => {
    const { readFileSync } = await import('node:fs');
    const source = readFileSync(await bundled('orders/list-job-types'), 'utf8');
    // jsonschema's own error text; the stand-in has none.
    expect(source).not.toContain('does not conform to the');
    // A table-admin command no route sends: it is in the bundle only when the whole client is.
    expect(source).not.toContain('DescribeKinesisStreamingDestination');
    expect(source).toContain('TransactWriteItems');
  }, 60_000);
});
