import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * The Stripe keys in the cloud: read from Secrets Manager while the function initialises, once
 * per container. Secrets Manager is played by a small HTTP server speaking its JSON protocol
 * (the SDK is pointed at it with AWS_ENDPOINT_URL_SECRETS_MANAGER), so nothing leaves the machine.
 */
const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:stripe-keys';
const secret = { secretKey: 'sk_test_from_secrets_manager', webhookSecret: 'whsec_from_secrets_manager' };

let server: Server;
let reads: { target: string | undefined; secretId: string }[] = [];
/** What the next reads answer: the secret, or a non-retryable error. */
let answers: ('secret' | 'missing')[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const target = request.headers['x-amz-target'] as string | undefined;
      reads.push({ target, secretId: (JSON.parse(body || '{}') as { SecretId: string }).SecretId });
      const answer = answers.shift() ?? 'secret';
      response.setHeader('content-type', 'application/x-amz-json-1.1');
      if (answer === 'missing') {
        response.statusCode = 400;
        response.end(JSON.stringify({ __type: 'ResourceNotFoundException', message: 'no such secret' }));
        return;
      }
      response.end(JSON.stringify({ ARN: SECRET_ARN, Name: 'stripe-keys', SecretString: JSON.stringify(secret) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const cloudEnvironment = () => ({
  STRIPE_SECRET_ARN: SECRET_ARN,
  STRIPE_SECRET_KEY: undefined,
  STRIPE_WEBHOOK_SECRET: undefined,
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'test',
  AWS_SECRET_ACCESS_KEY: 'test',
  AWS_ENDPOINT_URL_SECRETS_MANAGER: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
});

/** The adapter as a new container loads it, with this environment. */
const freshAdapter = async (environment: Record<string, string | undefined>) => {
  for (const [name, value] of Object.entries(environment)) vi.stubEnv(name, value);
  vi.resetModules();
  return import('./stripe');
};

beforeEach(() => {
  reads = [];
  answers = [];
});

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

const waitForReads = async (count: number) => {
  for (let waited = 0; reads.length < count && waited < 5000; waited += 10) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('the Stripe keys in the cloud', () => {
  it('are read from Secrets Manager when the module loads, before any request asks for them', async () => {
    await freshAdapter(cloudEnvironment());
    await waitForReads(1);
    expect(reads).toEqual([{ target: 'secretsmanager.GetSecretValue', secretId: SECRET_ARN }]);
  });

  it('are read once per container, however many requests ask', async () => {
    const adapter = await freshAdapter(cloudEnvironment());
    const [first, second] = await Promise.all([adapter.stripeKeys(), adapter.stripeKeys()]);
    expect(await adapter.stripeKeys()).toEqual(secret);
    expect(first).toEqual(secret);
    expect(second).toEqual(secret);
    expect(reads).toHaveLength(1);
  });

  it('are read again by the next request when a read failed', async () => {
    // Every read fails for now: whether the first request shares the init read or starts its own, it fails.
    answers = ['missing', 'missing'];
    const adapter = await freshAdapter(cloudEnvironment());
    await waitForReads(1);
    await expect(adapter.stripeKeys()).rejects.toThrow(/no such secret/);
    answers = [];
    const readsBefore = reads.length;
    expect(await adapter.stripeKeys()).toEqual(secret);
    expect(reads).toHaveLength(readsBefore + 1);
  });

  it('come from the environment locally, with no Secrets Manager read', async () => {
    const adapter = await freshAdapter({
      ...cloudEnvironment(),
      STRIPE_SECRET_KEY: 'sk_test_local',
      STRIPE_WEBHOOK_SECRET: 'whsec_local',
    });
    expect(await adapter.stripeKeys()).toEqual({ secretKey: 'sk_test_local', webhookSecret: 'whsec_local' });
    expect(adapter.prefetchStripeKeys()).toBe(false);
    expect(reads).toHaveLength(0);
  });
});
