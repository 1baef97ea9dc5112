import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { build } from 'esbuild';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { lambdaBuildOptions } from '../../../infra/lib/bundling/options';
import { parseStripeForm, type SeenRequest, type StripeFault, startStripeFake } from '../../local/stripe-fake';
import { signingOnlyOurHeaders, startRecorder } from '../../test/aws-requests-recorder';
import { routes } from '../routes';
import { STRIPE_API_VERSION, type StripeApiOptions, StripeError, stripeApi, stripeForm } from './stripe-api';
import { verifyStripeSignature } from './stripe-webhook-signature';

/**
 * The Stripe keys in the cloud: read from Secrets Manager while the function initialises, once
 * per container. Secrets Manager is played by a small HTTP server speaking its JSON protocol
 * (the adapter is pointed at it with AWS_ENDPOINT_URL_SECRETS_MANAGER, as the SDK is), so nothing
 * leaves the machine.
 */
const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:stripe-keys';
const secret = { secretKey: 'sk_test_from_secrets_manager', webhookSecret: 'whsec_from_secrets_manager' };

let server: Server;
let reads: { target: string | undefined; secretId: string }[] = [];
/** What the next reads answer: the secret, or a non-retryable error. */
let answers: ('secret' | 'missing')[] = [];

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const body = (await buffer(request)).toString('utf8');
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

  it('are read with the request the Secrets Manager client sends, signed alike', async () => {
    const recorder = await startRecorder(() => ({
      headers: { 'content-type': 'application/x-amz-json-1.1' },
      body: { ARN: SECRET_ARN, Name: 'stripe-keys', SecretString: JSON.stringify(secret) },
    }));
    try {
      const credentials = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'secret', sessionToken: 'token/+=' };
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2025-03-14T15:09:26Z'));
      const adapter = await freshAdapter({
        ...cloudEnvironment(),
        AWS_REGION: 'eu-central-1',
        AWS_ACCESS_KEY_ID: credentials.accessKeyId,
        AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
        AWS_SESSION_TOKEN: credentials.sessionToken,
        AWS_ENDPOINT_URL_SECRETS_MANAGER: undefined,
        // The SDK's endpoint for every service, when none names this one.
        AWS_ENDPOINT_URL: recorder.url,
      });
      expect(await adapter.stripeKeys()).toEqual(secret);
      const [ours] = recorder.received.splice(0);
      const sdk = signingOnlyOurHeaders(
        new SecretsManagerClient({ region: 'eu-central-1', endpoint: recorder.url, credentials }),
      );
      await sdk.send(new GetSecretValueCommand({ SecretId: SECRET_ARN }));
      const [reference] = recorder.received;
      expect(ours!.body).toBe(reference!.body);
      expect(ours!.url).toBe(reference!.url);
      for (const header of ['content-type', 'x-amz-target', 'x-amz-date', 'x-amz-security-token', 'authorization']) {
        expect(ours!.headers[header], header).toBe(reference!.headers[header]);
      }
      expect(ours!.headers.authorization).toContain('/20250314/eu-central-1/secretsmanager/aws4_request');
    } finally {
      vi.useRealTimers();
      await recorder.close();
    }
  });
});

/**
 * The calls to Stripe's API, against the local Stripe fake (services/local/stripe-fake.ts) and its
 * fault switches; what the fake cannot do (stall, advise a retry) against a bare local server.
 */
const fakeWebhookSecret = 'whsec_adapter_test';
let fake: Server;
let fakeUrl: string;

beforeAll(async () => {
  // Its webhooks go nowhere: these tests read the API's answers, not the events.
  fake = await startStripeFake({
    port: 0,
    webhookUrl: 'http://127.0.0.1:9/unreachable',
    webhookSecret: fakeWebhookSecret,
  });
  fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => fake.close(resolve));
});

const fakeFault = async (fault: Partial<StripeFault>) => {
  const response = await fetch(`${fakeUrl}/__faults`, { method: 'POST', body: JSON.stringify(fault) });
  expect(response.status).toBe(200);
};

const seenByFake = async () =>
  ((await (await fetch(`${fakeUrl}/__faults`)).json()) as { requests: SeenRequest[] }).requests;

const clearFake = () => fetch(`${fakeUrl}/__faults`, { method: 'DELETE' });

/** Short pauses between retries, so the retry tests take milliseconds; the defaults are tested apart. */
const api = (options: Partial<StripeApiOptions> = {}) =>
  stripeApi({ secretKey: 'sk_test_adapter', baseUrl: fakeUrl, firstRetryDelayMs: 5, ...options });

const intentParams = (amount: number) => ({
  amount,
  currency: 'usd',
  automatic_payment_methods: { enabled: true },
  description: 'Photo editing order #7',
  metadata: { orderId: `order-${amount}`, orderNumber: '7' },
});

/** The error a call rejects with (the test fails if it resolves). */
const rejection = async (call: Promise<unknown>) => {
  try {
    await call;
  } catch (error) {
    return error as StripeError;
  }
  throw new Error('The call was expected to fail');
};

/** A confirm as the card form sends it, with the publishable key: only the fake's own API does this. */
const confirmWithCard = async (intent: { id: string; client_secret: string | null }) => {
  const response = await fetch(`${fakeUrl}/v1/payment_intents/${intent.id}/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      key: 'pk_test_adapter',
      client_secret: intent.client_secret ?? '',
      payment_method: 'pm_card_visa',
    }),
  });
  expect(response.status).toBe(200);
};

describe("Stripe's form encoding", () => {
  it('nests objects and arrays in brackets as Stripe reads them, and leaves out what is undefined', () => {
    const form = stripeForm({
      amount: 1600,
      automatic_payment_methods: { enabled: true },
      metadata: { orderId: 'order 1&2', orderNumber: '7' },
      payment_method_types: ['card', 'link'],
      items: [{ price: 'p1' }],
      description: undefined,
      receipt_email: null,
      created: new Date(1_700_000_000_500),
    });
    expect(new URLSearchParams(form).get('metadata[orderId]')).toBe('order 1&2');
    expect(new URLSearchParams(form).get('automatic_payment_methods[enabled]')).toBe('true');
    expect(parseStripeForm(form)).toEqual({
      amount: '1600',
      automatic_payment_methods: { enabled: 'true' },
      metadata: { orderId: 'order 1&2', orderNumber: '7' },
      payment_method_types: ['card', 'link'],
      items: [{ price: 'p1' }],
      receipt_email: '',
      created: '1700000000',
    });
  });
});

describe("Stripe's API over node:http(s), against the Stripe fake", () => {
  beforeEach(clearFake);

  it('pins the API version of the stripe package the types describe', () => {
    expect(STRIPE_API_VERSION).toBe(Stripe.API_VERSION);
  });

  it('creates, reads and cancels a payment intent, in the shape the stripe package reads', async () => {
    const created = await api().paymentIntents.create(intentParams(1600), { idempotencyKey: 'create-1600' });
    const sdk = new Stripe('sk_test_adapter', {
      host: '127.0.0.1',
      port: Number(new URL(fakeUrl).port),
      protocol: 'http',
    });

    expect(created).toMatchObject({
      object: 'payment_intent',
      amount: 1600,
      currency: 'usd',
      status: 'requires_payment_method',
      automatic_payment_methods: { enabled: true },
      description: 'Photo editing order #7',
      metadata: { orderId: 'order-1600', orderNumber: '7' },
    });
    expect(created.client_secret).toMatch(/^pi_\w+_secret_\w+$/);
    expect(await api().paymentIntents.retrieve(created.id)).toEqual(created);
    expect({ ...(await sdk.paymentIntents.retrieve(created.id)) }).toEqual(created);
    expect(await api().paymentIntents.cancel(created.id)).toMatchObject({ id: created.id, status: 'canceled' });
    expect(await seenByFake()).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: '/v1/payment_intents',
        idempotencyKey: 'create-1600',
        status: 200,
      }),
      expect.objectContaining({ method: 'GET', path: `/v1/payment_intents/${created.id}`, status: 200 }),
      expect.objectContaining({ method: 'GET', path: `/v1/payment_intents/${created.id}`, status: 200 }),
      expect.objectContaining({ method: 'POST', path: `/v1/payment_intents/${created.id}/cancel`, status: 200 }),
    ]);
  });

  it('gives every POST an idempotency key, the caller’s or its own, and never one to a GET', async () => {
    const created = await api().paymentIntents.create(intentParams(1610));
    await api().paymentIntents.retrieve(created.id);
    await api().paymentIntents.cancel(created.id);

    const [create, read, cancel] = await seenByFake();
    expect(create?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(read?.idempotencyKey).toBeUndefined();
    expect(cancel?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(cancel?.idempotencyKey).not.toBe(create?.idempotencyKey);
  });

  it('creates one intent per idempotency key, however often the create is sent', async () => {
    const first = await api().paymentIntents.create(intentParams(1620), { idempotencyKey: 'same-1620' });
    const again = await api().paymentIntents.create(intentParams(1620), { idempotencyKey: 'same-1620' });
    const other = await api().paymentIntents.create(intentParams(1620), { idempotencyKey: 'other-1620' });

    expect(again.id).toBe(first.id);
    expect(other.id).not.toBe(first.id);
  });

  it('retries a create whose answer was lost with the same key, and gets the same intent back', async () => {
    // Stripe ran the create, but its answer never arrived; the key it was sent with is our own.
    await fakeFault({ method: 'POST', path: '/v1/payment_intents', match: { amount: '1630' }, when: 'after' });

    const created = await api().paymentIntents.create(intentParams(1630));

    const attempts = (await seenByFake()).filter((r) => r.path === '/v1/payment_intents');
    expect(attempts.map((r) => [r.status, r.injected])).toEqual([
      [500, true],
      [200, false],
    ]);
    expect(attempts[1]?.idempotencyKey).toBe(attempts[0]?.idempotencyKey);
    expect(attempts[1]?.replayed).toBe(true);
    expect((await api().paymentIntents.retrieve(created.id)).metadata).toEqual({
      orderId: 'order-1630',
      orderNumber: '7',
    });
  });

  it('retries a refund whose answer was lost: the payment is refunded once', async () => {
    const intent = await api().paymentIntents.create(intentParams(1640));
    await confirmWithCard(intent);
    await fakeFault({
      method: 'POST',
      path: '/v1/refunds',
      match: { payment_intent: intent.id },
      when: 'after',
      reply: 'disconnect',
    });

    const refund = await api().refunds.create({ payment_intent: intent.id }, { idempotencyKey: `refund-${intent.id}` });
    const again = await api().refunds.create({ payment_intent: intent.id }, { idempotencyKey: `refund-${intent.id}` });

    expect(refund).toMatchObject({ object: 'refund', amount: 1640, payment_intent: intent.id, status: 'succeeded' });
    expect(again.id).toBe(refund.id);
    const refunds = (
      (await await fetch(`${fakeUrl}/v1/refunds?payment_intent=${intent.id}`, {
        headers: { authorization: 'Bearer sk_test_adapter' },
      }).then((r) => r.json())) as { data: unknown[] }
    ).data;
    expect(refunds).toHaveLength(1);
  });

  const retried = [
    { label: 'an error on its side (500)', fault: { status: 500 } },
    { label: 'unavailable (503)', fault: { status: 503 } },
    { label: 'too many requests (429)', fault: { status: 429 } },
    { label: 'a lock timeout (409)', fault: { status: 409 } },
    { label: 'a closed connection', fault: { reply: 'disconnect' as const } },
  ];
  for (const { label, fault } of retried) {
    it(`retries ${label} twice, and gets through on the last try`, async () => {
      const intent = await api().paymentIntents.create(intentParams(1650));
      await clearFake();
      await fakeFault({ method: 'GET', path: `/v1/payment_intents/${intent.id}`, times: 2, ...fault });

      expect((await api().paymentIntents.retrieve(intent.id)).id).toBe(intent.id);
      expect((await seenByFake()).map((r) => r.injected)).toEqual([true, true, false]);
    });
  }

  it('gives up after two retries: Stripe down is a StripeAPIError, unreachable a StripeConnectionError', async () => {
    const intent = await api().paymentIntents.create(intentParams(1660));
    const path = `/v1/payment_intents/${intent.id}`;
    await fakeFault({ method: 'GET', path, times: 3, status: 503 });
    const down = await rejection(api().paymentIntents.retrieve(intent.id));
    await fakeFault({ method: 'GET', path, times: 3, status: 429 });
    const limited = await rejection(api().paymentIntents.retrieve(intent.id));
    await fakeFault({ method: 'GET', path, times: 3, reply: 'disconnect' });
    const unreachable = await rejection(api().paymentIntents.retrieve(intent.id));

    expect(down).toBeInstanceOf(StripeError);
    expect(down).toMatchObject({ type: 'StripeAPIError', rawType: 'api_error', statusCode: 503 });
    expect(limited).toMatchObject({ type: 'StripeRateLimitError', statusCode: 429 });
    expect(unreachable).toMatchObject({
      type: 'StripeConnectionError',
      message: 'An error occurred with our connection to Stripe. Request was retried 2 times.',
    });
    expect((await seenByFake()).filter((r) => r.path === path && r.injected)).toHaveLength(9);
  });

  it('does not retry what a retry cannot change: a refusal, or a body that is not JSON', async () => {
    const tooSmall = await rejection(api().paymentIntents.create(intentParams(20)));
    const intent = await api().paymentIntents.create(intentParams(1670));
    await fakeFault({ method: 'GET', path: `/v1/payment_intents/${intent.id}`, reply: 'malformed' });
    const malformed = await rejection(api().paymentIntents.retrieve(intent.id));

    expect(tooSmall).toMatchObject({
      type: 'StripeInvalidRequestError',
      rawType: 'invalid_request_error',
      code: 'amount_too_small',
      param: 'amount',
      statusCode: 400,
      message: 'Amount must be at least $0.50 usd',
    });
    expect(malformed).toMatchObject({
      type: 'StripeAPIError',
      message: 'Invalid JSON received from the Stripe API',
      statusCode: 200,
    });
    expect((await seenByFake()).map((r) => r.status)).toEqual([400, 200, 200]);
  });

  it("maps Stripe's error answers to the stripe package's error types and codes", async () => {
    const intent = await api().paymentIntents.create(intentParams(1680), { idempotencyKey: 'key-1680' });
    await confirmWithCard(intent);

    const missing = await rejection(api().paymentIntents.retrieve('pi_nobody_knows'));
    const succeeded = await rejection(api().paymentIntents.cancel(intent.id));
    const reusedKey = await rejection(
      api().refunds.create({ payment_intent: intent.id }, { idempotencyKey: 'key-1680' }),
    );
    const badKey = await rejection(api({ secretKey: 'sk_live_not_ours' }).paymentIntents.retrieve(intent.id));

    expect(missing).toMatchObject({
      type: 'StripeInvalidRequestError',
      code: 'resource_missing',
      statusCode: 404,
      message: "No such payment_intent: 'pi_nobody_knows'",
    });
    expect(succeeded).toMatchObject({ type: 'StripeInvalidRequestError', code: 'payment_intent_unexpected_state' });
    expect(reusedKey).toMatchObject({ type: 'StripeIdempotencyError', rawType: 'idempotency_error', statusCode: 400 });
    expect(badKey).toMatchObject({ type: 'StripeAuthenticationError', statusCode: 401 });
    expect(missing.requestId).toMatch(/^req_/);
  });
});

describe("Stripe's API over node:http(s), against a bare local server", () => {
  /** Answers each request with the next of these, or leaves it unanswered ('stall'). */
  let script: ({ status: number; headers?: Record<string, string>; body?: string } | 'stall')[] = [];
  let arrivals: {
    at: number;
    idempotencyKey: string | undefined;
    stripeVersion: string | undefined;
    authorization: string | undefined;
  }[] = [];
  let bare: Server;
  let bareUrl: string;

  beforeAll(async () => {
    bare = createServer((request, response) => {
      request.resume();
      arrivals.push({
        at: performance.now(),
        idempotencyKey: request.headers['idempotency-key'] as string | undefined,
        stripeVersion: request.headers['stripe-version'] as string | undefined,
        authorization: request.headers.authorization,
      });
      const next = script.shift() ?? { status: 200 };
      if (next === 'stall') return;
      response.writeHead(next.status, { 'content-type': 'application/json', ...next.headers });
      response.end(next.body ?? JSON.stringify({ id: 'pi_bare', object: 'payment_intent' }));
    });
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    bare.closeAllConnections();
    await new Promise((resolve) => bare.close(resolve));
  });

  beforeEach(() => {
    script = [];
    arrivals = [];
  });

  const bareApi = (options: Partial<StripeApiOptions> = {}) =>
    stripeApi({ secretKey: 'sk_test_bare', baseUrl: bareUrl, firstRetryDelayMs: 5, ...options });

  it('sends the secret key and the pinned API version', async () => {
    await bareApi().paymentIntents.retrieve('pi_bare');
    expect(arrivals).toEqual([
      expect.objectContaining({ authorization: 'Bearer sk_test_bare', stripeVersion: STRIPE_API_VERSION }),
    ]);
  });

  it('gives up on an attempt left unanswered after the timeout and tries again with the same key', async () => {
    script = ['stall', 'stall'];
    const started = performance.now();

    const intent = await bareApi({ timeoutMs: 150 }).paymentIntents.create(intentParams(1690));

    expect(intent.id).toBe('pi_bare');
    expect(arrivals).toHaveLength(3);
    expect(new Set(arrivals.map((a) => a.idempotencyKey)).size).toBe(1);
    expect(performance.now() - started).toBeGreaterThanOrEqual(300);
  });

  it('reports attempts that all timed out as a StripeConnectionError', async () => {
    script = ['stall', 'stall', 'stall'];
    const error = await rejection(bareApi({ timeoutMs: 100 }).paymentIntents.retrieve('pi_bare'));
    expect(error).toMatchObject({
      type: 'StripeConnectionError',
      message: 'Request aborted due to timeout being reached (100ms)',
    });
    expect(arrivals).toHaveLength(3);
  });

  it("follows Stripe's Stripe-Should-Retry advice over the status", async () => {
    const refusal = JSON.stringify({ error: { type: 'invalid_request_error', message: 'Try again' } });
    script = [
      { status: 400, headers: { 'stripe-should-retry': 'true' }, body: refusal },
      { status: 200 },
      {
        status: 500,
        headers: { 'stripe-should-retry': 'false' },
        body: JSON.stringify({ error: { type: 'api_error', message: 'No' } }),
      },
    ];

    expect((await bareApi().paymentIntents.retrieve('pi_bare')).id).toBe('pi_bare');
    expect(await rejection(bareApi().paymentIntents.retrieve('pi_bare'))).toMatchObject({
      type: 'StripeAPIError',
      statusCode: 500,
    });
    expect(arrivals).toHaveLength(3);
  });

  it('waits longer before each retry, with jitter: the first pause, then one to two times it', async () => {
    script = [
      { status: 503, body: '{}' },
      { status: 503, body: '{}' },
    ];
    await bareApi({ firstRetryDelayMs: 100 }).paymentIntents.retrieve('pi_bare');

    const [first, second, third] = arrivals.map((a) => a.at);
    expect(second! - first!).toBeGreaterThanOrEqual(95);
    expect(second! - first!).toBeLessThan(250);
    expect(third! - second!).toBeGreaterThanOrEqual(95);
    expect(third! - second!).toBeLessThan(350);
  });

  it('takes an error status without an error body for an error all the same', async () => {
    script = [
      { status: 502, body: '{}' },
      { status: 502, body: '{}' },
      { status: 502, body: '<html>Bad gateway</html>' },
    ];
    expect(await rejection(bareApi().paymentIntents.retrieve('pi_bare'))).toMatchObject({ type: 'StripeAPIError' });
    script = [{ status: 404, body: '{}' }];
    expect(await rejection(bareApi().paymentIntents.retrieve('pi_bare'))).toMatchObject({
      type: 'StripeInvalidRequestError',
      statusCode: 404,
    });
  });
});

describe('the webhook signature, checked against the stripe package', () => {
  const secret = 'whsec_cross_check';
  const payload = JSON.stringify(
    { id: 'evt_1', object: 'event', type: 'payment_intent.succeeded', data: { object: { id: 'pi_1' } } },
    null,
    2,
  );
  const now = Date.now();
  const nowSeconds = Math.floor(now / 1000);
  const signed = (options: { payload?: string; secret?: string; timestamp?: number } = {}) =>
    Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: nowSeconds, ...options });
  const v1Of = (header: string) =>
    header
      .split(',')
      .find((part) => part.startsWith('v1='))!
      .slice(3);
  /** Whether the stripe package takes this delivery. */
  const sdkAccepts = (body: string | Buffer, header: string) => {
    try {
      // Received at the same moment as ours: the cases run a while after their headers were made.
      Stripe.webhooks.constructEvent(body, header, secret, undefined, undefined, now);
      return true;
    } catch {
      return false;
    }
  };

  const cases: { label: string; body: string | Buffer; header: string; accepted: boolean }[] = [
    { label: 'signed by the stripe package', body: payload, header: signed(), accepted: true },
    { label: 'as the raw bytes', body: Buffer.from(payload), header: signed(), accepted: true },
    { label: 'signed 299 s ago', body: payload, header: signed({ timestamp: nowSeconds - 299 }), accepted: true },
    {
      label: 'with several v1, one good (a secret being rolled)',
      body: payload,
      header: `t=${nowSeconds},v1=${'0'.repeat(64)},v1=${v1Of(signed())},v0=abc`,
      accepted: true,
    },
    { label: 'signed with another secret', body: payload, header: signed({ secret: 'whsec_other' }), accepted: false },
    { label: 'with an altered body', body: payload.replace('pi_1', 'pi_2'), header: signed(), accepted: false },
    { label: 'with a body reformatted', body: JSON.stringify(JSON.parse(payload)), header: signed(), accepted: false },
    { label: 'signed 301 s ago', body: payload, header: signed({ timestamp: nowSeconds - 301 }), accepted: false },
    { label: 'with an empty v1', body: payload, header: `t=${nowSeconds},v1=`, accepted: false },
    {
      label: 'with a v1 cut short',
      body: payload,
      header: `t=${nowSeconds},v1=${v1Of(signed()).slice(0, 63)}`,
      accepted: false,
    },
    { label: 'with no v1', body: payload, header: `t=${nowSeconds},v0=${v1Of(signed())}`, accepted: false },
    { label: 'with no timestamp', body: payload, header: `v1=${v1Of(signed())}`, accepted: false },
    {
      label: 'with another timestamp than signed',
      body: payload,
      header: `t=${nowSeconds - 1},v1=${v1Of(signed())}`,
      accepted: false,
    },
    { label: 'with a header that is no signature', body: payload, header: 'garbage', accepted: false },
    { label: 'with an empty body', body: '', header: signed({ payload: '' }), accepted: false },
    {
      label: 'over a body that is not JSON',
      body: 'not json',
      header: signed({ payload: 'not json' }),
      accepted: false,
    },
  ];
  for (const { label, body, header, accepted } of cases) {
    it(`${accepted ? 'accepts' : 'refuses'} an event ${label}, as the stripe package does`, () => {
      const event = verifyStripeSignature(body, header, secret, now);
      expect(sdkAccepts(body, header)).toBe(accepted);
      if (accepted) expect(event).toEqual(JSON.parse(payload));
      else expect(event).toBeNull();
    });
  }

  it('is what the webhook route verifies with, under the configured webhook secret', async () => {
    const adapter = await freshAdapter({ STRIPE_SECRET_KEY: 'sk_test_local', STRIPE_WEBHOOK_SECRET: secret });
    expect(await adapter.verifiedWebhookEvent(payload, signed())).toMatchObject({
      id: 'evt_1',
      type: 'payment_intent.succeeded',
    });
    expect(await adapter.verifiedWebhookEvent(payload, signed({ secret: 'whsec_other' }))).toBeNull();
    expect(await adapter.verifiedWebhookEvent(payload, `t=${nowSeconds},v1=`)).toBeNull();
  });
});

describe('the payment calls the routes make, against the Stripe fake', () => {
  const localAdapter = () =>
    freshAdapter({
      STRIPE_SECRET_KEY: 'sk_test_local',
      STRIPE_WEBHOOK_SECRET: fakeWebhookSecret,
      STRIPE_API_URL: fakeUrl,
    });

  /** A payment intent for the test order numbered `n` (order-adapter-<n>, #4<n>). */
  const intentFor = (adapter: Awaited<ReturnType<typeof localAdapter>>, n: number, amountCents = 2400) =>
    adapter.createOrderPaymentIntent({ orderId: `order-adapter-${n}`, orderNumber: 40 + n, amountCents });

  beforeEach(clearFake);

  it("creates an order's payment once, however often it is asked", async () => {
    const adapter = await localAdapter();
    const order = { orderId: 'order-adapter-1', orderNumber: 41, amountCents: 2400 };

    const intent = await adapter.createOrderPaymentIntent(order);
    const again = await adapter.createOrderPaymentIntent(order);

    expect(again.id).toBe(intent.id);
    expect(intent).toMatchObject({
      amount: 2400,
      currency: 'usd',
      description: 'Photo editing order #41',
      metadata: { orderId: 'order-adapter-1', orderNumber: '41' },
      automatic_payment_methods: { enabled: true },
    });
    expect(intent.client_secret).toMatch(/_secret_/);
    expect((await seenByFake()).map((r) => r.idempotencyKey)).toEqual([
      'order-order-adapter-1-payment-intent',
      'order-order-adapter-1-payment-intent',
    ]);
  });

  it('finds an intent, or null for one Stripe does not know, which the payment report turns into a 409', async () => {
    const adapter = await localAdapter();
    const intent = await intentFor(adapter, 2);

    expect((await adapter.findPaymentIntent(intent.id))?.id).toBe(intent.id);
    expect(await adapter.findPaymentIntent('pi_unknown_here')).toBeNull();
    await expect(adapter.retrievePaymentIntent('pi_unknown_here')).rejects.toMatchObject({
      statusCode: 409,
      code: 'PAYMENT_NOT_FOUND',
    });
  });

  it('turns Stripe down, unreachable or unreadable into a 502 with the call’s own message', async () => {
    const adapter = await localAdapter();
    const intent = await intentFor(adapter, 3);
    const path = `/v1/payment_intents/${intent.id}`;

    await fakeFault({ method: 'GET', path, times: 3, status: 500 });
    const down = adapter.findPaymentIntent(intent.id);
    await expect(down).rejects.toMatchObject({ statusCode: 502, code: 'PAYMENT_PROVIDER_UNAVAILABLE' });
    await expect(down).rejects.toThrow(/could not be checked with the card provider/);
    await fakeFault({ method: 'GET', path, reply: 'malformed' });
    await expect(adapter.findPaymentIntent(intent.id)).rejects.toMatchObject({ statusCode: 502 });
    await fakeFault({
      method: 'POST',
      path: '/v1/payment_intents',
      match: { amount: '2500' },
      times: 3,
      reply: 'disconnect',
    });
    await expect(
      adapter.createOrderPaymentIntent({ orderId: 'order-adapter-4', orderNumber: 44, amountCents: 2500 }),
    ).rejects.toThrow(/Card payments are not available right now/);
    await fakeFault({ method: 'POST', path: `${path}/cancel`, times: 3, status: 503 });
    await expect(adapter.cancelPaymentIntent(intent.id)).rejects.toThrow(/could not be stopped/);
  }, 30_000);

  it('stops a payment: canceled, canceled before, missing, or succeeded first with the intent', async () => {
    const adapter = await localAdapter();
    const open = await intentFor(adapter, 5);
    const paid = await intentFor(adapter, 6, 2600);
    await confirmWithCard(paid);

    expect(await adapter.cancelPaymentIntent(open.id)).toEqual({ status: 'canceled' });
    expect(await adapter.cancelPaymentIntent(open.id)).toEqual({ status: 'canceled' });
    expect(await adapter.cancelPaymentIntent('pi_unknown_here')).toEqual({ status: 'missing' });
    expect(await adapter.cancelPaymentIntent(paid.id)).toMatchObject({
      status: 'succeeded',
      intent: { id: paid.id, status: 'succeeded', amount_received: 2600 },
    });
  });

  it('refunds a payment once per key', async () => {
    const adapter = await localAdapter();
    const paid = await intentFor(adapter, 7, 3000);
    await confirmWithCard(paid);

    const part = await adapter.refundPayment({
      paymentIntentId: paid.id,
      amountCents: 1000,
      idempotencyKey: 'refund-7-a',
    });
    const again = await adapter.refundPayment({
      paymentIntentId: paid.id,
      amountCents: 1000,
      idempotencyKey: 'refund-7-a',
    });
    const rest = await adapter.refundPayment({ paymentIntentId: paid.id, idempotencyKey: 'refund-7-b' });

    expect(again.id).toBe(part.id);
    expect([part.amount, rest.amount]).toEqual([1000, 2000]);
    await expect(
      adapter.refundPayment({ paymentIntentId: paid.id, idempotencyKey: 'refund-7-c' }),
    ).rejects.toMatchObject({ type: 'StripeInvalidRequestError', code: 'charge_already_refunded' });
  });
});

describe('the functions that call Stripe, bundled as deployed', () => {
  it('carry none of the stripe package, which would be parsed on every cold start', async () => {
    const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
    const handlers = [...new Set(routes.filter((r) => r.grants.includes('stripe')).map((r) => r.handler))];
    const bundles = await Promise.all(
      handlers.map(async (handler) => {
        const { metafile } = await build({
          ...lambdaBuildOptions(repoRoot),
          entryPoints: [path.join(repoRoot, 'services', 'src', 'handlers', `${handler}.ts`)],
          outfile: path.join(repoRoot, 'out', `${handler}.mjs`),
          write: false,
          metafile: true,
          logLevel: 'error',
        });
        // What the output holds: metafile.inputs also lists what tree shaking then left out.
        const inputs = Object.values(metafile.outputs).flatMap((output) =>
          Object.entries(output.inputs)
            .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
            .map(([input]) => input),
        );
        return {
          handler,
          usesAdapter: inputs.some((input) => input.endsWith('adapters/stripe.ts')),
          stripePackage: inputs.filter((input) => input.includes('node_modules/stripe/')).length,
        };
      }),
    );
    expect(bundles.length).toBeGreaterThanOrEqual(5);
    for (const bundle of bundles)
      expect(bundle).toEqual({ handler: bundle.handler, usesAdapter: true, stripePackage: 0 });
  }, 120_000);

  it("make their first Stripe calls without fetch, so a cold start never loads Node's HTTP client (undici)", async () => {
    const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
    const outDir = mkdtempSync(path.join(tmpdir(), 'stripe-bundle-'));
    try {
      // A payment route as deployed, with the adapter calls it makes exported beside its handler,
      // so a fresh process can make them without the table the handler reads first.
      const outfile = path.join(outDir, 'index.mjs');
      await build({
        ...lambdaBuildOptions(repoRoot),
        stdin: {
          contents: [
            "export { handler } from './handlers/payments/get-order-payment';",
            "export { createOrderPaymentIntent, findPaymentIntent } from './adapters/stripe';",
          ].join('\n'),
          resolveDir: path.join(repoRoot, 'services', 'src'),
          sourcefile: 'payment-route.ts',
          loader: 'ts',
        },
        outfile,
        logLevel: 'error',
      });
      const script = `
        let fetchCalls = 0;
        const nodeFetch = globalThis.fetch;
        globalThis.fetch = (...args) => { fetchCalls += 1; return nodeFetch(...args); };
        const route = await import(process.argv[1]);
        const created = await route.createOrderPaymentIntent({ orderId: 'order-bundled', orderNumber: 77, amountCents: 1200 });
        const found = await route.findPaymentIntent(created.id);
        const undici = process.moduleLoadList.filter((name) => name.includes('undici'));
        console.log(JSON.stringify({ handler: typeof route.handler, found: found.id === created.id, fetchCalls, undici }));
        process.exit(0);`;
      // Asynchronously: the Stripe fake answers from this process.
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--input-type=module', '-e', script, pathToFileURL(outfile).href],
        {
          env: {
            PATH: process.env.PATH ?? '',
            AWS_REGION: 'us-east-1',
            LOG_LEVEL: 'ERROR',
            STRIPE_API_URL: fakeUrl,
            STRIPE_SECRET_KEY: 'sk_test_bundled',
            STRIPE_WEBHOOK_SECRET: fakeWebhookSecret,
          },
        },
      );
      expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({
        handler: 'function',
        found: true,
        fetchCalls: 0,
        undici: [],
      });
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  }, 120_000);
});
