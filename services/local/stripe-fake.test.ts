import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStripeForm, type StripeFault, startStripeFake } from './stripe-fake';

const webhookSecret = 'whsec_fake_test';
const publishableKey = 'pk_test_fake';

/** A webhook endpoint that verifies signatures like our route and can be told to fail first. */
const received: Stripe.Event[] = [];
/** Deliveries for this intent fail this many times (other intents' late webhooks are unaffected). */
let failing: { intentId: string; remaining: number } | null = null;
/** The intent id of every delivery attempt, in order. */
const deliveries: string[] = [];
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const intentId = String(JSON.parse(body)?.data?.object?.id ?? '');
    deliveries.push(intentId);
    if (failing && failing.intentId === intentId && failing.remaining > 0) {
      failing.remaining -= 1;
      res.writeHead(500).end();
      return;
    }
    try {
      received.push(Stripe.webhooks.constructEvent(body, String(req.headers['stripe-signature']), webhookSecret));
      res.writeHead(200).end();
    } catch {
      res.writeHead(400).end();
    }
  });
});

let fake: http.Server;
let baseUrl: string;
let sdk: Stripe;

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverPort = (receiver.address() as AddressInfo).port;
  fake = await startStripeFake({ port: 0, webhookUrl: `http://127.0.0.1:${receiverPort}/hook`, webhookSecret });
  const { port } = fake.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;
  sdk = new Stripe('sk_test_fake', { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 });
});

afterAll(async () => {
  await new Promise((resolve) => fake.close(resolve));
  await new Promise((resolve) => receiver.close(resolve));
});

const anIntent = (amount = 1600) =>
  sdk.paymentIntents.create({
    amount,
    currency: 'usd',
    automatic_payment_methods: { enabled: true },
    metadata: { orderId: 'order-1' },
  });

/** What Stripe.js sends when the browser confirms a card payment. */
const confirmInBrowser = (intent: { id: string; client_secret: string | null }, form: Record<string, string>) =>
  fetch(`${baseUrl}/v1/payment_intents/${intent.id}/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:5173' },
    body: new URLSearchParams({ key: publishableKey, client_secret: intent.client_secret ?? '', ...form }),
  });

const waitFor = async (done: () => boolean, timeoutMs = 5000) => {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
};

describe('the local Stripe fake', () => {
  it('reads Stripe form encoding into nested objects and arrays', () => {
    expect(parseStripeForm('amount=5&metadata[orderId]=o1&types[0]=card&types[1]=link&a[b][c]=d')).toEqual({
      amount: '5',
      metadata: { orderId: 'o1' },
      types: ['card', 'link'],
      a: { b: { c: 'd' } },
    });
  });

  it('creates payment intents in Stripe shape through the stripe SDK, once per idempotency key', async () => {
    const params = { amount: 1600, currency: 'usd', metadata: { orderId: 'order-9' } };
    const first = await sdk.paymentIntents.create(params, { idempotencyKey: 'same-key' });
    const again = await sdk.paymentIntents.create(params, { idempotencyKey: 'same-key' });
    const other = await sdk.paymentIntents.create(params, { idempotencyKey: 'other-key' });

    expect(first).toMatchObject({
      object: 'payment_intent',
      amount: 1600,
      currency: 'usd',
      status: 'requires_payment_method',
      metadata: { orderId: 'order-9' },
      livemode: false,
    });
    expect(first.id).toMatch(/^pi_/);
    expect(first.client_secret).toMatch(new RegExp(`^${first.id}_secret_\\w+$`));
    expect(typeof first.created).toBe('number');
    expect(again.id).toBe(first.id);
    expect(other.id).not.toBe(first.id);
    expect((await sdk.paymentIntents.retrieve(first.id)).amount).toBe(1600);
  });

  it('confirms a visa card from the browser with the publishable key and sends a signed webhook', async () => {
    const intent = await anIntent();
    const response = await confirmInBrowser(intent, { payment_method: 'pm_card_visa' });

    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toMatchObject({ id: intent.id, status: 'succeeded', amount_received: 1600 });
    await waitFor(() => received.some((e) => (e.data.object as { id: string }).id === intent.id));
    const event = received.find((e) => (e.data.object as { id: string }).id === intent.id);
    expect(event).toMatchObject({ object: 'event', type: 'payment_intent.succeeded', livemode: false });
    expect(event?.id).toMatch(/^evt_/);
    expect(event?.data.object).toMatchObject({ status: 'succeeded', metadata: { orderId: 'order-1' } });
  });

  it('declines pm_card_chargeDeclined with a 402 card error and leaves the intent awaiting a card', async () => {
    const intent = await anIntent();
    const response = await confirmInBrowser(intent, { payment_method: 'pm_card_chargeDeclined' });

    expect(response.status).toBe(402);
    const { error } = (await response.json()) as { error: Record<string, unknown> };
    expect(error).toMatchObject({
      type: 'card_error',
      code: 'card_declined',
      decline_code: 'generic_decline',
      message: 'Your card was declined.',
      payment_intent: { id: intent.id, status: 'requires_payment_method' },
    });
    expect((await sdk.paymentIntents.retrieve(intent.id)).status).toBe('requires_payment_method');
    await expect(sdk.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_chargeDeclined' })).rejects.toThrow(
      Stripe.errors.StripeCardError,
    );
  });

  it('accepts test card numbers as Stripe.js sends them', async () => {
    const visa = await anIntent();
    const declined = await anIntent();
    const ok = await confirmInBrowser(visa, {
      'payment_method_data[type]': 'card',
      'payment_method_data[card][number]': '4242 4242 4242 4242',
    });
    const no = await confirmInBrowser(declined, {
      'payment_method_data[type]': 'card',
      'payment_method_data[card][number]': '4000000000000002',
    });
    expect(ok.status).toBe(200);
    expect(no.status).toBe(402);
  });

  it('refuses a browser confirm whose client secret does not match, and one with no key at all', async () => {
    const intent = await anIntent();
    const wrong = await confirmInBrowser(
      { id: intent.id, client_secret: `${intent.id}_secret_wrong` },
      {
        payment_method: 'pm_card_visa',
      },
    );
    const anonymous = await fetch(`${baseUrl}/v1/payment_intents/${intent.id}/confirm`, { method: 'POST' });

    expect(wrong.status).toBe(400);
    expect(anonymous.status).toBe(401);
    expect((await sdk.paymentIntents.retrieve(intent.id)).status).toBe('requires_payment_method');
  });

  it('does not let a publishable key create payment intents', async () => {
    const response = await fetch(`${baseUrl}/v1/payment_intents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${publishableKey}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'amount=1600&currency=usd',
    });
    expect(response.status).toBe(401);
  });

  it('answers the CORS preflight of a browser confirm', async () => {
    const response = await fetch(`${baseUrl}/v1/payment_intents/pi_x/confirm`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-headers')).toContain('authorization');
    expect(response.headers.get('access-control-allow-headers')).toContain('content-type');
  });

  it('refunds a succeeded payment once per idempotency key and never more than was paid', async () => {
    const intent = await sdk.paymentIntents.confirm((await anIntent()).id, { payment_method: 'pm_card_visa' });
    const partial = await sdk.refunds.create(
      { payment_intent: intent.id, amount: 600 },
      { idempotencyKey: 'refund-1' },
    );
    const replayed = await sdk.refunds.create(
      { payment_intent: intent.id, amount: 600 },
      { idempotencyKey: 'refund-1' },
    );

    expect(partial).toMatchObject({ object: 'refund', amount: 600, status: 'succeeded', payment_intent: intent.id });
    expect(replayed.id).toBe(partial.id);
    await expect(sdk.refunds.create({ payment_intent: intent.id, amount: 1001 })).rejects.toThrow(/greater than/);
    expect((await sdk.refunds.create({ payment_intent: intent.id })).amount).toBe(1000);
    await expect(sdk.refunds.create({ payment_intent: (await anIntent()).id })).rejects.toThrow(/successful charge/);
  });

  it('answers unknown paths and unknown intents with Stripe errors', async () => {
    const unknown = await fetch(`${baseUrl}/v1/nothing-here`, { headers: { authorization: 'Bearer sk_test_fake' } });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({
      error: { type: 'invalid_request_error', message: expect.stringContaining('Unrecognized request URL') },
    });
    await expect(sdk.paymentIntents.retrieve('pi_missing')).rejects.toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    });
  });

  it('retries a webhook our route failed, with a short backoff, until it is accepted', async () => {
    const intent = await anIntent();
    failing = { intentId: intent.id, remaining: 2 };
    await sdk.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa' });

    await waitFor(() => received.some((e) => (e.data.object as { id: string }).id === intent.id));
    expect(received.filter((e) => (e.data.object as { id: string }).id === intent.id)).toHaveLength(1);
    expect(deliveries.filter((id) => id === intent.id)).toHaveLength(3);
  });
});

/** A fake of its own on a folder of its own, and an SDK that does not retry, for the tests below. */
const aFakeOn = async (stateDir: string | undefined) => {
  const server = await startStripeFake({ port: 0, webhookUrl: 'http://127.0.0.1:9/unused', webhookSecret, stateDir });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sdk: new Stripe('sk_test_fake', { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 }),
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
};

const folders: string[] = [];
const aFolder = () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'stripe-fake-'));
  folders.push(folder);
  return folder;
};
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** The fake in a process of its own, which the test can kill -9; resolves once it listens. */
const aFakeProcessOn = (stateDir: string) =>
  new Promise<{ port: number; kill: () => Promise<void> }>((resolve, reject) => {
    const module = pathToFileURL(path.join(import.meta.dirname, 'stripe-fake.ts')).href;
    const script = `const { startStripeFake } = await import(${JSON.stringify(module)});
      const server = await startStripeFake({ port: 0, webhookUrl: 'http://127.0.0.1:9/unused', webhookSecret: 'whsec_x', stateDir: process.argv[1] });
      console.log(JSON.stringify({ port: server.address().port }));`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, stateDir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.once('error', reject);
    child.stdout.once('data', (line: Buffer) =>
      resolve({
        port: JSON.parse(line.toString()).port,
        kill: () =>
          new Promise((done) => {
            child.once('exit', () => done());
            child.kill('SIGKILL');
          }),
      }),
    );
  });

describe("the local Stripe fake's state on disk", () => {
  it('is found by a new fake on the same folder: intents, refunds and idempotency keys', async () => {
    const folder = aFolder();
    const first = await aFakeOn(folder);
    const waiting = await first.sdk.paymentIntents.create(
      { amount: 1600, currency: 'usd', metadata: { orderId: 'order-1' } },
      { idempotencyKey: 'order-1-payment-intent' },
    );
    const paid = await first.sdk.paymentIntents.create({ amount: 2400, currency: 'usd' });
    await first.sdk.paymentIntents.confirm(paid.id, { payment_method: 'pm_card_visa' });
    const refund = await first.sdk.refunds.create({ payment_intent: paid.id, amount: 400 }, { idempotencyKey: 'r-1' });
    await first.stop();

    const second = await aFakeOn(folder);
    expect(await second.sdk.paymentIntents.retrieve(waiting.id)).toMatchObject({
      status: 'requires_payment_method',
      client_secret: waiting.client_secret,
      metadata: { orderId: 'order-1' },
    });
    expect(await second.sdk.paymentIntents.retrieve(paid.id)).toMatchObject({ status: 'succeeded' });
    // The same key gives the same intent back, as Stripe would within a day.
    const again = await second.sdk.paymentIntents.create(
      { amount: 1600, currency: 'usd', metadata: { orderId: 'order-1' } },
      { idempotencyKey: 'order-1-payment-intent' },
    );
    expect(again.id).toBe(waiting.id);
    expect((await second.sdk.refunds.list({ payment_intent: paid.id })).data.map((r) => r.id)).toEqual([refund.id]);
    // What was refunded before the restart still counts: only 2000 of the 2400 is left.
    await expect(second.sdk.refunds.create({ payment_intent: paid.id, amount: 2001 })).rejects.toThrow(/greater than/);
    const confirmed = await second.sdk.paymentIntents.confirm(waiting.id, { payment_method: 'pm_card_visa' });
    expect(confirmed.status).toBe('succeeded');
    await second.stop();
  });

  it('keeps a change answered just before the process is killed with SIGKILL', async () => {
    const folder = aFolder();
    const fake = await aFakeProcessOn(folder);
    const sdk = new Stripe('sk_test_fake', { host: '127.0.0.1', port: fake.port, protocol: 'http' });
    const intent = await sdk.paymentIntents.create({ amount: 1600, currency: 'usd' });
    await sdk.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa' });
    await fake.kill();

    const after = await aFakeOn(folder);
    expect(await after.sdk.paymentIntents.retrieve(intent.id)).toMatchObject({ status: 'succeeded' });
    await after.stop();
  }, 30_000);

  it('skips a change cut short by a crash and keeps the rest', async () => {
    const folder = aFolder();
    const first = await aFakeOn(folder);
    const intent = await first.sdk.paymentIntents.create({ amount: 1600, currency: 'usd' });
    await first.stop();
    appendFileSync(path.join(folder, 'changes.jsonl'), '{"collection":"intents","id":"pi_torn","val');
    writeFileSync(path.join(folder, 'state.json.1234.tmp'), '{"half": ');

    const second = await aFakeOn(folder);
    expect((await second.sdk.paymentIntents.retrieve(intent.id)).id).toBe(intent.id);
    // The start folded every change into a new snapshot (through a temp file renamed into place)
    // and removed the temp file an earlier crash had left.
    expect(readdirSync(folder).sort()).toEqual(['changes.jsonl', 'state.json']);
    expect(readFileSync(path.join(folder, 'changes.jsonl'), 'utf8')).toBe('');
    await second.stop();
  });

  it('reads its folder again on POST /__restart, as a new process would', async () => {
    const kept = await aFakeOn(aFolder());
    const inMemory = await aFakeOn(undefined);
    const keptIntent = await kept.sdk.paymentIntents.create({ amount: 1600, currency: 'usd' });
    const lostIntent = await inMemory.sdk.paymentIntents.create({ amount: 1600, currency: 'usd' });

    expect((await fetch(`${kept.url}/__restart`, { method: 'POST' })).status).toBe(200);
    expect((await fetch(`${inMemory.url}/__restart`, { method: 'POST' })).status).toBe(200);

    expect((await kept.sdk.paymentIntents.retrieve(keptIntent.id)).id).toBe(keptIntent.id);
    await expect(inMemory.sdk.paymentIntents.retrieve(lostIntent.id)).rejects.toMatchObject({
      code: 'resource_missing',
    });
    await kept.stop();
    await inMemory.stop();
  });
});

describe("the local Stripe fake's faults", () => {
  const fault = async (url: string, input: Partial<StripeFault>) => {
    const response = await fetch(`${url}/__faults`, { method: 'POST', body: JSON.stringify(input) });
    return { status: response.status, body: await response.json() };
  };

  it("answers a 404 fault on an intent with Stripe's own resource_missing error", async () => {
    const fake = await aFakeOn(undefined);
    const intent = await fake.sdk.paymentIntents.create({ amount: 1600, currency: 'usd' });
    await fault(fake.url, { method: 'GET', path: `/v1/payment_intents/${intent.id}`, status: 404 });

    await expect(fake.sdk.paymentIntents.retrieve(intent.id)).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      statusCode: 404,
      code: 'resource_missing',
      message: `No such payment_intent: '${intent.id}'`,
    });
    expect((await fake.sdk.paymentIntents.retrieve(intent.id)).id).toBe(intent.id);
    await fake.stop();
  });

  it('answers a malformed body, or closes the connection without an answer', async () => {
    const fake = await aFakeOn(undefined);
    const intent = await fake.sdk.paymentIntents.create({ amount: 1600, currency: 'usd' });
    const path = `/v1/payment_intents/${intent.id}`;
    await fault(fake.url, { method: 'GET', path, reply: 'malformed' });
    await expect(fake.sdk.paymentIntents.retrieve(intent.id)).rejects.toMatchObject({
      type: 'StripeAPIError',
      message: 'Invalid JSON received from the Stripe API',
    });

    // The SDK retries a closed connection once even with retries off: two closes outlast it.
    await fault(fake.url, { method: 'GET', path, reply: 'disconnect', times: 2 });
    await expect(fake.sdk.paymentIntents.retrieve(intent.id)).rejects.toMatchObject({ type: 'StripeConnectionError' });

    const { requests } = (await (await fetch(`${fake.url}/__faults`)).json()) as {
      requests: { path: string; status: number; injected: boolean }[];
    };
    expect(requests.filter((r) => r.path === path).map((r) => [r.status, r.injected])).toEqual([
      [200, true],
      [0, true],
      [0, true],
    ]);
    expect((await fault(fake.url, { path, reply: 'gibberish' as never })).status).toBe(400);
    await fake.stop();
  });
});
