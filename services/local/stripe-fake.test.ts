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
    expect(parseStripeForm('expand[]=customer&expand[]=latest_charge.balance_transaction')).toEqual({
      expand: ['customer', 'latest_charge.balance_transaction'],
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

/** A webhook endpoint that keeps the events whose signature holds with its secret. */
const aWebhookEndpoint = async (secret: string) => {
  const events: Stripe.Event[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const body = Buffer.concat(chunks).toString('utf8');
        events.push(Stripe.webhooks.constructEvent(body, String(req.headers['stripe-signature']), secret));
        res.writeHead(200).end();
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    events,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
};

const connectSecret = 'whsec_fake_connect_test';

/** A fake with both webhook endpoints, on a folder of its own unless told otherwise. */
const aConnectFake = async (stateDir?: string) => {
  const platform = await aWebhookEndpoint(webhookSecret);
  const connect = await aWebhookEndpoint(connectSecret);
  const server = await startStripeFake({
    port: 0,
    webhookUrl: platform.url,
    webhookSecret,
    connectWebhookUrl: connect.url,
    connectWebhookSecret: connectSecret,
    stateDir,
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    sdk: new Stripe('sk_test_fake', { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 }),
    platformEvents: platform.events,
    connectEvents: connect.events,
    stop: async () => {
      await new Promise((resolve) => server.close(resolve));
      await platform.close();
      await connect.close();
    },
  };
};
type ConnectFake = Awaited<ReturnType<typeof aConnectFake>>;

/** The hidden fields and the action of a page's form, as a browser would post it. */
const postForm = (pageUrl: string, html: string, choice: Record<string, string>) => {
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`no form on ${pageUrl}`);
  const hidden = Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!]),
  );
  return fetch(new URL(action, pageUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...hidden, ...choice }),
  });
};

/** Charges a card so the platform holds `amount` less Stripe's fee (2.9% + 30 cents). */
const fundPlatform = async (sdk: Stripe, amount: number) => {
  const intent = await sdk.paymentIntents.create({
    amount,
    currency: 'usd',
    payment_method: 'pm_card_visa',
    confirm: true,
  });
  expect(intent.status).toBe('succeeded');
  return amount - (Math.round(amount * 0.029) + 30);
};

const anExpressAccount = (sdk: Stripe, email = 'editor@example.com') =>
  sdk.accounts.create({
    type: 'express',
    country: 'US',
    email,
    capabilities: { transfers: { requested: true } },
    metadata: { editorId: 'editor-1' },
  });

/** An Account Link's page opened and left with one of its three buttons; resolves to the redirect. */
const onboard = async (fake: ConnectFake, account: string, choice: 'complete' | 'incomplete' | 'later') => {
  const link = await fake.sdk.accountLinks.create({
    account,
    refresh_url: 'http://localhost:5173/editor/payouts/refresh',
    return_url: 'http://localhost:5173/editor/payouts/return',
    type: 'account_onboarding',
  });
  const html = await (await fetch(link.url)).text();
  const response = await postForm(link.url, html, { choice });
  return { link, html, response };
};

const platformAvailable = async (sdk: Stripe, stripeAccount?: string) =>
  (await sdk.balance.retrieve({}, stripeAccount ? { stripeAccount } : {})).available.find((b) => b.currency === 'usd')
    ?.amount ?? 0;

describe("the local Stripe fake's customers and saved cards", () => {
  let fake: ConnectFake;
  beforeAll(async () => {
    fake = await aConnectFake();
  });
  afterAll(() => fake.stop());

  it('creates, reads and updates customers, merging metadata as Stripe does', async () => {
    const customer = await fake.sdk.customers.create({
      email: 'photographer@example.com',
      name: 'Pat Photographer',
      metadata: { userId: 'user-1', plan: 'basic' },
    });
    expect(customer).toMatchObject({ object: 'customer', email: 'photographer@example.com', livemode: false });
    expect(customer.id).toMatch(/^cus_/);

    const updated = await fake.sdk.customers.update(customer.id, {
      name: 'Pat P.',
      metadata: { plan: '', tier: 'gold' },
    });
    expect(updated.name).toBe('Pat P.');
    expect(updated.metadata).toEqual({ userId: 'user-1', tier: 'gold' });
    expect(await fake.sdk.customers.retrieve(customer.id)).toMatchObject({
      name: 'Pat P.',
      metadata: { tier: 'gold' },
    });
    await expect(fake.sdk.customers.retrieve('cus_missing')).rejects.toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
      message: "No such customer: 'cus_missing'",
    });
  });

  it('attaches, lists, makes default and detaches cards with the details Stripe gives', async () => {
    const customer = await fake.sdk.customers.create({ email: 'saver@example.com' });
    const visa = await fake.sdk.paymentMethods.attach('pm_card_visa', { customer: customer.id });
    const mastercard = await fake.sdk.paymentMethods.attach('pm_card_mastercard', { customer: customer.id });
    const otherVisa = await fake.sdk.paymentMethods.attach('pm_card_visa', { customer: customer.id });

    // A test id makes a new PaymentMethod each time, with a card's details; one card, one fingerprint.
    expect(visa.id).toMatch(/^pm_/);
    expect(visa.id).not.toBe('pm_card_visa');
    expect(visa).toMatchObject({ object: 'payment_method', type: 'card', customer: customer.id });
    expect(visa.card).toMatchObject({ brand: 'visa', last4: '4242', funding: 'credit', country: 'US' });
    expect(visa.card?.exp_month).toBeGreaterThanOrEqual(1);
    expect(visa.card?.exp_year).toBeGreaterThan(new Date().getFullYear());
    expect(otherVisa.card?.fingerprint).toBe(visa.card?.fingerprint);
    expect(mastercard.card?.fingerprint).not.toBe(visa.card?.fingerprint);
    expect((await fake.sdk.paymentMethods.retrieve(visa.id)).customer).toBe(customer.id);

    const firstPage = await fake.sdk.customers.listPaymentMethods(customer.id, { type: 'card', limit: 2 });
    expect(firstPage.data.map((pm) => pm.id)).toEqual([otherVisa.id, mastercard.id]);
    expect(firstPage.has_more).toBe(true);
    const secondPage = await fake.sdk.customers.listPaymentMethods(customer.id, {
      limit: 2,
      starting_after: mastercard.id,
    });
    expect(secondPage.data.map((pm) => pm.id)).toEqual([visa.id]);
    expect(secondPage.has_more).toBe(false);
    const listed = await fake.sdk.paymentMethods.list({ customer: customer.id, type: 'card' });
    expect(listed.data).toHaveLength(3);

    const withDefault = await fake.sdk.customers.update(customer.id, {
      invoice_settings: { default_payment_method: mastercard.id },
    });
    expect(withDefault.invoice_settings.default_payment_method).toBe(mastercard.id);
    const stranger = await fake.sdk.paymentMethods.attach('pm_card_amex', {
      customer: (await fake.sdk.customers.create({})).id,
    });
    await expect(
      fake.sdk.customers.update(customer.id, { invoice_settings: { default_payment_method: stranger.id } }),
    ).rejects.toMatchObject({ statusCode: 400, param: 'invoice_settings[default_payment_method]' });

    const detached = await fake.sdk.paymentMethods.detach(mastercard.id);
    expect(detached.customer).toBeNull();
    expect((await fake.sdk.customers.retrieve(customer.id)) as Stripe.Customer).toMatchObject({
      invoice_settings: { default_payment_method: null },
    });
    expect((await fake.sdk.customers.listPaymentMethods(customer.id)).data).toHaveLength(2);
    await expect(fake.sdk.paymentMethods.detach(mastercard.id)).rejects.toThrow(/not attached to a customer/);
    await expect(fake.sdk.paymentMethods.attach(mastercard.id, { customer: customer.id })).rejects.toThrow(
      /may not be used again/,
    );
    await expect(fake.sdk.paymentMethods.attach(visa.id, { customer: stranger.customer as string })).rejects.toThrow(
      /already been attached/,
    );
  });

  it('refuses to save a card that declines, as Stripe checks a card when it is attached', async () => {
    const customer = await fake.sdk.customers.create({});
    await expect(
      fake.sdk.paymentMethods.attach('pm_card_chargeDeclined', { customer: customer.id }),
    ).rejects.toMatchObject({ type: 'StripeCardError', code: 'card_declined', statusCode: 402 });
    expect((await fake.sdk.customers.listPaymentMethods(customer.id)).data).toHaveLength(0);
  });

  it('saves the card a payment used with setup_future_usage and pays with it later off session', async () => {
    const customer = await fake.sdk.customers.create({ email: 'repeat@example.com' });
    const first = await fake.sdk.paymentIntents.create({
      amount: 2400,
      currency: 'usd',
      customer: customer.id,
      setup_future_usage: 'off_session',
      metadata: { orderId: 'order-1' },
    });
    expect(first).toMatchObject({ customer: customer.id, setup_future_usage: 'off_session' });
    // The browser confirms with the card's number, as Stripe.js does.
    const confirmed = await fetch(`${fake.url}/v1/payment_intents/${first.id}/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        key: publishableKey,
        client_secret: first.client_secret!,
        'payment_method_data[type]': 'card',
        'payment_method_data[card][number]': '4242424242424242',
        'payment_method_data[card][exp_month]': '8',
        'payment_method_data[card][exp_year]': '31',
        'payment_method_data[card][cvc]': '123',
      }),
    });
    const paid = (await confirmed.json()) as Stripe.PaymentIntent;
    expect(paid.status).toBe('succeeded');
    const [saved] = (await fake.sdk.customers.listPaymentMethods(customer.id)).data;
    expect(saved?.id).toBe(paid.payment_method);
    expect(saved?.card).toMatchObject({ last4: '4242', exp_month: 8, exp_year: 2031, checks: { cvc_check: 'pass' } });

    const later = await fake.sdk.paymentIntents.create({
      amount: 1800,
      currency: 'usd',
      customer: customer.id,
      payment_method: saved!.id,
      off_session: true,
      confirm: true,
    });
    expect(later).toMatchObject({ status: 'succeeded', payment_method: saved!.id, amount_received: 1800 });

    // A saved card pays only for its own customer.
    const someoneElse = await fake.sdk.customers.create({});
    await expect(
      fake.sdk.paymentIntents.create({
        amount: 1000,
        currency: 'usd',
        customer: someoneElse.id,
        payment_method: saved!.id,
      }),
    ).rejects.toMatchObject({
      statusCode: 400,
      param: 'payment_method',
      message: expect.stringContaining('does not belong to the Customer'),
    });
    await expect(
      fake.sdk.paymentIntents.create({ amount: 1000, currency: 'usd', payment_method: saved!.id, confirm: true }),
    ).rejects.toThrow(/belongs to the Customer/);
    // A card used without being saved cannot be used again.
    const once = await fake.sdk.paymentIntents.confirm(
      (await fake.sdk.paymentIntents.create({ amount: 900, currency: 'usd' })).id,
      {
        payment_method: 'pm_card_visa',
      },
    );
    await expect(
      fake.sdk.paymentIntents.create({
        amount: 900,
        currency: 'usd',
        payment_method: once.payment_method as string,
        confirm: true,
      }),
    ).rejects.toThrow(/may not be used again/);
  });

  it('asks for authentication with the 3155 card and completes it through the challenge page', async () => {
    const customer = await fake.sdk.customers.create({});
    const intent = await fake.sdk.paymentIntents.create({
      amount: 3200,
      currency: 'usd',
      customer: customer.id,
      setup_future_usage: 'off_session',
      metadata: { orderId: 'order-3ds' },
    });
    const waiting = await fake.sdk.paymentIntents.confirm(intent.id, {
      payment_method: 'pm_card_authenticationRequired',
      return_url: 'http://localhost:5173/orders/order-3ds/pay?step=back',
    });
    expect(waiting.status).toBe('requires_action');
    expect(waiting.next_action).toMatchObject({
      type: 'redirect_to_url',
      redirect_to_url: { return_url: 'http://localhost:5173/orders/order-3ds/pay?step=back' },
    });
    const challenge = waiting.next_action!.redirect_to_url!.url!;
    expect(challenge).toBe(`${fake.url}/__authenticate/${intent.id}`);

    const pageResponse = await fetch(challenge);
    const html = await pageResponse.text();
    expect(pageResponse.headers.get('content-type')).toContain('text/html');
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<h1>Authenticate your payment</h1>');
    expect(html).toContain('Visa ending in 3155');
    expect(html).toContain('>Complete authentication</button>');
    expect(html).toContain('>Fail authentication</button>');

    const back = await postForm(challenge, html, { outcome: 'complete' });
    expect(back.status).toBe(303);
    const location = new URL(back.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe('http://localhost:5173/orders/order-3ds/pay');
    expect(Object.fromEntries(location.searchParams)).toEqual({
      step: 'back',
      payment_intent: intent.id,
      payment_intent_client_secret: intent.client_secret,
      redirect_status: 'succeeded',
    });
    const paid = await fake.sdk.paymentIntents.retrieve(intent.id);
    expect(paid).toMatchObject({ status: 'succeeded', next_action: null, amount_received: 3200 });
    await waitFor(() =>
      fake.platformEvents.some(
        (e) => e.type === 'payment_intent.succeeded' && (e.data.object as { id: string }).id === intent.id,
      ),
    );
    // Each event once; like Stripe's, the deliveries may arrive in either order.
    expect(
      fake.platformEvents
        .filter((e) => (e.data.object as { id: string }).id === intent.id)
        .map((e) => e.type)
        .sort(),
    ).toEqual(['payment_intent.requires_action', 'payment_intent.succeeded']);

    // Saved by an authenticated payment, the card now pays off session without a challenge.
    const [saved] = (await fake.sdk.customers.listPaymentMethods(customer.id)).data;
    expect(saved?.card?.last4).toBe('3155');
    const renewal = await fake.sdk.paymentIntents.create({
      amount: 1500,
      currency: 'usd',
      customer: customer.id,
      payment_method: saved!.id,
      off_session: true,
      confirm: true,
    });
    expect(renewal.status).toBe('succeeded');
    // The page has nothing left to settle.
    expect((await postForm(challenge, html, { outcome: 'fail' })).status).toBe(409);
  });

  it('fails a payment whose authentication fails on the challenge page, as Stripe does', async () => {
    const intent = await fake.sdk.paymentIntents.create({ amount: 2000, currency: 'usd' });
    const waiting = await fake.sdk.paymentIntents.confirm(intent.id, {
      payment_method: 'pm_card_authenticationRequired',
      return_url: 'http://localhost:5173/back',
    });
    const challenge = waiting.next_action!.redirect_to_url!.url!;
    const back = await postForm(challenge, await (await fetch(challenge)).text(), { outcome: 'fail' });

    expect(back.status).toBe(303);
    expect(new URL(back.headers.get('location')!).searchParams.get('redirect_status')).toBe('failed');
    const failed = await fake.sdk.paymentIntents.retrieve(intent.id);
    expect(failed.status).toBe('requires_payment_method');
    expect(failed.last_payment_error).toMatchObject({
      code: 'payment_intent_authentication_failure',
      payment_method: { card: { last4: '3155' } },
    });
    await waitFor(() =>
      fake.platformEvents.some(
        (e) => e.type === 'payment_intent.payment_failed' && (e.data.object as { id: string }).id === intent.id,
      ),
    );
    // The customer can try again with another card.
    expect((await fake.sdk.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa' })).status).toBe(
      'succeeded',
    );
  });

  it('declines the 3155 card off session when it was saved without authentication', async () => {
    const customer = await fake.sdk.customers.create({});
    const card = await fake.sdk.paymentMethods.attach('pm_card_authenticationRequired', { customer: customer.id });
    const error = await fake.sdk.paymentIntents
      .create({
        amount: 1200,
        currency: 'usd',
        customer: customer.id,
        payment_method: card.id,
        off_session: true,
        confirm: true,
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      type: 'StripeCardError',
      code: 'authentication_required',
      decline_code: 'authentication_required',
      payment_intent: { status: 'requires_payment_method', last_payment_error: { payment_method: { id: card.id } } },
    });
  });

  it('saves the 0341 card but declines every charge on it', async () => {
    const customer = await fake.sdk.customers.create({});
    const card = await fake.sdk.paymentMethods.attach('pm_card_chargeCustomerFail', { customer: customer.id });
    expect(card.card?.last4).toBe('0341');
    await expect(
      fake.sdk.paymentIntents.create({
        amount: 1200,
        currency: 'usd',
        customer: customer.id,
        payment_method: card.id,
        off_session: true,
        confirm: true,
      }),
    ).rejects.toMatchObject({ type: 'StripeCardError', code: 'card_declined', decline_code: 'generic_decline' });
    const intent = await fake.sdk.paymentIntents.create({ amount: 1200, currency: 'usd' });
    const byNumber = await fetch(`${fake.url}/v1/payment_intents/${intent.id}/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        key: publishableKey,
        client_secret: intent.client_secret!,
        'payment_method_data[card][number]': '4000 0000 0000 0341',
      }),
    });
    expect(byNumber.status).toBe(402);
    // Still saved: the customer can choose another card.
    expect((await fake.sdk.customers.listPaymentMethods(customer.id)).data.map((pm) => pm.id)).toEqual([card.id]);
  });

  it('expands ids into their objects and refuses what cannot be expanded', async () => {
    const customer = await fake.sdk.customers.create({ email: 'expand@example.com' });
    const intent = await fake.sdk.paymentIntents.create({
      amount: 5000,
      currency: 'usd',
      customer: customer.id,
      payment_method: 'pm_card_visa',
      confirm: true,
      expand: ['customer', 'latest_charge.balance_transaction'],
    });
    expect(intent.customer).toMatchObject({ id: customer.id, email: 'expand@example.com' });
    const charge = intent.latest_charge as Stripe.Charge;
    expect(charge).toMatchObject({ object: 'charge', amount: 5000, status: 'succeeded', paid: true });
    expect(charge.receipt_url).toMatch(new RegExp(`/__receipts/${charge.id}$`));
    expect(charge.balance_transaction).toMatchObject({ amount: 5000, fee: 175, net: 4825, type: 'charge' });
    const receipt = await (await fetch(charge.receipt_url!)).text();
    expect(receipt).toContain('50.00 USD');

    const listed = await fake.sdk.paymentIntents.retrieve(intent.id, { expand: ['payment_method'] });
    expect(listed.payment_method).toMatchObject({ object: 'payment_method', card: { last4: '4242' } });
    await expect(fake.sdk.paymentIntents.retrieve(intent.id, { expand: ['currency'] })).rejects.toThrow(
      'This property cannot be expanded (currency).',
    );
    // As Stripe.js and curl send it: expand[]=.
    const raw = await fetch(`${fake.url}/v1/customers/${customer.id}/payment_methods?expand[]=data.customer`, {
      headers: { authorization: 'Bearer sk_test_fake' },
    });
    expect(raw.status).toBe(200);
    const transfersOfNone = await fetch(
      `${fake.url}/v1/charges?payment_intent=${intent.id}&expand[]=data.payment_intent`,
      {
        headers: { authorization: 'Bearer sk_test_fake' },
      },
    );
    expect(
      ((await transfersOfNone.json()) as { data: { payment_intent: { id: string } }[] }).data[0]?.payment_intent.id,
    ).toBe(intent.id);
  });
});

describe("the local Stripe fake's Connect accounts", () => {
  let fake: ConnectFake;
  beforeAll(async () => {
    fake = await aConnectFake();
  });
  afterAll(() => fake.stop());

  const accountEvents = (account: string) => fake.connectEvents.filter((e) => e.account === account);

  it('creates Express accounts that must be onboarded before they can be paid', async () => {
    const account = await anExpressAccount(fake.sdk);
    expect(account.id).toMatch(/^acct_/);
    expect(account).toMatchObject({
      object: 'account',
      type: 'express',
      country: 'US',
      email: 'editor@example.com',
      charges_enabled: false,
      payouts_enabled: false,
      details_submitted: false,
      capabilities: { transfers: 'inactive' },
      metadata: { editorId: 'editor-1' },
      controller: { stripe_dashboard: { type: 'express' } },
    });
    expect(account.requirements?.currently_due).toEqual(
      expect.arrayContaining(['business_profile.url', 'external_account', 'individual.dob.day', 'tos_acceptance.date']),
    );
    expect(account.requirements?.disabled_reason).toBe('requirements.past_due');
    expect((await fake.sdk.accounts.retrieve(account.id)).id).toBe(account.id);
    await expect(fake.sdk.accounts.retrieve('acct_unknown')).rejects.toMatchObject({
      statusCode: 403,
      code: 'account_invalid',
    });
    await expect(fake.sdk.accounts.create({ type: 'gig' as 'express' })).rejects.toMatchObject({ param: 'type' });
  });

  it('completes onboarding through the Account Link page and tells the Connect endpoint', async () => {
    const account = await anExpressAccount(fake.sdk);
    const { link, html, response } = await onboard(fake, account.id, 'complete');

    expect(link).toMatchObject({ object: 'account_link' });
    expect(link.expires_at - link.created).toBe(300);
    expect(link.url).toMatch(new RegExp(`^${fake.url}/__onboarding/`));
    expect(html).toContain('<h1>Set up payouts</h1>');
    expect(html).toContain('<legend>How does this onboarding end?</legend>');
    for (const button of ['Complete onboarding', 'Leave incomplete', 'Come back later']) {
      expect(html).toContain(`>${button}</button>`);
    }
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('http://localhost:5173/editor/payouts/return');

    const done = await fake.sdk.accounts.retrieve(account.id);
    expect(done).toMatchObject({
      details_submitted: true,
      charges_enabled: true,
      payouts_enabled: true,
      capabilities: { transfers: 'active' },
      requirements: { currently_due: [], eventually_due: [], past_due: [], disabled_reason: null },
    });
    expect(done.external_accounts?.data[0]).toMatchObject({ object: 'bank_account', last4: '6789' });

    await waitFor(() => accountEvents(account.id).length > 0);
    const [event] = accountEvents(account.id);
    expect(event).toMatchObject({
      type: 'account.updated',
      account: account.id,
      data: { object: { id: account.id, payouts_enabled: true }, previous_attributes: { payouts_enabled: false } },
    });
    // Connect events go to the Connect endpoint only, signed with its own secret.
    expect(fake.platformEvents.some((e) => e.type === 'account.updated')).toBe(false);

    // A link works once: a second visit is told it expired and is sent to refresh_url.
    const again = await (await fetch(link.url)).text();
    expect(again).toContain('<h1>This link has expired</h1>');
    expect(again).toContain('http-equiv="refresh" content="2;url=http://localhost:5173/editor/payouts/refresh"');
    expect(again).not.toContain('<form');
  });

  it('leaves an account incomplete, or unchanged when its owner comes back later', async () => {
    const account = await anExpressAccount(fake.sdk);
    const later = await onboard(fake, account.id, 'later');
    expect(later.response.status).toBe(303);
    expect(later.response.headers.get('location')).toBe('http://localhost:5173/editor/payouts/refresh');
    expect(await fake.sdk.accounts.retrieve(account.id)).toMatchObject({ details_submitted: false });

    const incomplete = await onboard(fake, account.id, 'incomplete');
    expect(incomplete.response.headers.get('location')).toBe('http://localhost:5173/editor/payouts/return');
    expect(await fake.sdk.accounts.retrieve(account.id)).toMatchObject({
      details_submitted: true,
      charges_enabled: false,
      payouts_enabled: false,
      capabilities: { transfers: 'inactive' },
      requirements: { currently_due: ['external_account'], disabled_reason: 'requirements.past_due' },
    });
    await waitFor(() => accountEvents(account.id).length > 0);
    expect(accountEvents(account.id).map((e) => e.type)).toEqual(['account.updated']);

    // A new link finishes what the first left.
    await onboard(fake, account.id, 'complete');
    expect((await fake.sdk.accounts.retrieve(account.id)).payouts_enabled).toBe(true);
    await waitFor(() => accountEvents(account.id).length > 1);
    expect(accountEvents(account.id)).toHaveLength(2);
  });

  it('refuses a link for an unknown account or with a bad URL, and an Express login link before onboarding', async () => {
    await expect(
      fake.sdk.accountLinks.create({
        account: 'acct_nobody',
        refresh_url: 'http://localhost/r',
        return_url: 'http://localhost/x',
        type: 'account_onboarding',
      }),
    ).rejects.toMatchObject({ code: 'resource_missing', param: 'account' });
    const account = await anExpressAccount(fake.sdk);
    await expect(
      fake.sdk.accountLinks.create({
        account: account.id,
        refresh_url: 'nope',
        return_url: 'http://localhost/x',
        type: 'account_onboarding',
      }),
    ).rejects.toMatchObject({ param: 'refresh_url' });
    await expect(fake.sdk.accounts.createLoginLink(account.id)).rejects.toThrow(/not completed onboarding/);
    await onboard(fake, account.id, 'complete');
    const login = await fake.sdk.accounts.createLoginLink(account.id);
    expect(login).toMatchObject({ object: 'login_link', url: `${fake.url}/__express/${account.id}` });
    expect(await (await fetch(login.url)).text()).toContain('<h1>Your payouts</h1>');
  });
});

describe("the local Stripe fake's transfers, reversals and payouts", () => {
  let fake: ConnectFake;
  let editor: string;
  beforeAll(async () => {
    fake = await aConnectFake();
    editor = (await anExpressAccount(fake.sdk)).id;
    await onboard(fake, editor, 'complete');
  });
  afterAll(() => fake.stop());

  it('refuses a transfer to an account without the transfers capability, or to none', async () => {
    await fundPlatform(fake.sdk, 10_000);
    const pending = await anExpressAccount(fake.sdk, 'pending@example.com');
    await expect(
      fake.sdk.transfers.create({ amount: 1000, currency: 'usd', destination: pending.id }),
    ).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      statusCode: 400,
      code: 'insufficient_capabilities_for_transfer',
      message:
        'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
    });
    await expect(
      fake.sdk.transfers.create({ amount: 1000, currency: 'usd', destination: 'acct_nobody' }),
    ).rejects.toMatchObject({ code: 'resource_missing', param: 'destination' });
  });

  it('moves money from the platform to the account once per idempotency key, and never more than it holds', async () => {
    const before = await platformAvailable(fake.sdk);
    const editorBefore = await platformAvailable(fake.sdk, editor);
    await expect(
      fake.sdk.transfers.create({ amount: before + 1, currency: 'usd', destination: editor }),
    ).rejects.toMatchObject({ statusCode: 400, code: 'balance_insufficient' });

    const params = {
      amount: 1200,
      currency: 'usd',
      destination: editor,
      transfer_group: 'order-77',
      description: 'Editing order 77',
      metadata: { orderId: 'order-77' },
    };
    const transfer = await fake.sdk.transfers.create(params, { idempotencyKey: 'transfer-order-77' });
    const replay = await fake.sdk.transfers.create(params, { idempotencyKey: 'transfer-order-77' });
    expect(replay.id).toBe(transfer.id);
    expect(transfer).toMatchObject({
      object: 'transfer',
      amount: 1200,
      amount_reversed: 0,
      reversed: false,
      destination: editor,
      transfer_group: 'order-77',
      reversals: { object: 'list', data: [], has_more: false },
    });
    expect(transfer.destination_payment).toMatch(/^py_/);
    expect(await platformAvailable(fake.sdk)).toBe(before - 1200);
    expect(await platformAvailable(fake.sdk, editor)).toBe(editorBefore + 1200);
    await expect(
      fake.sdk.transfers.create({ ...params, amount: 1300 }, { idempotencyKey: 'transfer-order-77' }),
    ).rejects.toMatchObject({ type: 'StripeIdempotencyError' });
    await waitFor(() => fake.platformEvents.some((e) => e.type === 'transfer.created'));
    expect(
      fake.platformEvents.filter((e) => e.type === 'transfer.created').map((e) => (e.data.object as { id: string }).id),
    ).toEqual([transfer.id]);
  });

  it('lists transfers newest first, filtered and paged as Stripe pages', async () => {
    const made: string[] = [];
    for (const group of ['page-a', 'page-b', 'page-a']) {
      made.push(
        (await fake.sdk.transfers.create({ amount: 100, currency: 'usd', destination: editor, transfer_group: group }))
          .id,
      );
    }
    const groupA = await fake.sdk.transfers.list({ transfer_group: 'page-a' });
    expect(groupA.data.map((t) => t.id)).toEqual([made[2], made[0]]);
    const first = await fake.sdk.transfers.list({ destination: editor, limit: 2 });
    expect(first.data.map((t) => t.id)).toEqual([made[2], made[1]]);
    expect(first.has_more).toBe(true);
    const back = await fake.sdk.transfers.list({ destination: editor, limit: 1, ending_before: made[1] });
    expect(back.data.map((t) => t.id)).toEqual([made[2]]);
    const recent = await fake.sdk.transfers.list({ created: { gte: Math.floor(Date.now() / 1000) - 60 }, limit: 100 });
    expect(recent.data.map((t) => t.id)).toEqual(expect.arrayContaining(made));
    expect((await fake.sdk.transfers.list({ created: { lte: 1 } })).data).toEqual([]);
    await expect(fake.sdk.transfers.list({ limit: 101 })).rejects.toMatchObject({ param: 'limit' });
    expect((await fake.sdk.transfers.retrieve(made[0]!)).transfer_group).toBe('page-a');
  });

  it('reverses a transfer in parts, never beyond what is left, and says so on the transfer', async () => {
    const transfer = await fake.sdk.transfers.create({ amount: 1000, currency: 'usd', destination: editor });
    const platformBefore = await platformAvailable(fake.sdk);
    const first = await fake.sdk.transfers.createReversal(
      transfer.id,
      { amount: 400, metadata: { refund: 're_1' } },
      { idempotencyKey: 'reverse-1' },
    );
    const replay = await fake.sdk.transfers.createReversal(
      transfer.id,
      { amount: 400, metadata: { refund: 're_1' } },
      { idempotencyKey: 'reverse-1' },
    );
    expect(replay.id).toBe(first.id);
    expect(first).toMatchObject({ object: 'transfer_reversal', amount: 400, transfer: transfer.id });
    await expect(fake.sdk.transfers.createReversal(transfer.id, { amount: 601 })).rejects.toMatchObject({
      statusCode: 400,
      param: 'amount',
      message: 'Reversal amount ($6.01) is greater than unreversed amount on transfer ($6.00)',
    });
    const rest = await fake.sdk.transfers.createReversal(transfer.id);
    expect(rest.amount).toBe(600);
    await expect(fake.sdk.transfers.createReversal(transfer.id, { amount: 1 })).rejects.toThrow(
      /already been fully reversed/,
    );

    const reversed = await fake.sdk.transfers.retrieve(transfer.id);
    expect(reversed).toMatchObject({ amount_reversed: 1000, reversed: true });
    expect(reversed.reversals.data.map((r) => r.id)).toEqual([rest.id, first.id]);
    expect((await fake.sdk.transfers.listReversals(transfer.id, { limit: 1 })).has_more).toBe(true);
    expect(await platformAvailable(fake.sdk)).toBe(platformBefore + 1000);
    await waitFor(() => fake.platformEvents.filter((e) => e.type === 'transfer.reversed').length >= 2);
    expect(
      fake.platformEvents
        .filter((e) => e.type === 'transfer.reversed')
        .map((e) => (e.data.object as Stripe.Transfer).amount_reversed),
    ).toEqual([400, 1000]);
  });

  it("pays out a connected account's balance on schedule, and puts it back when the payout fails", async () => {
    await fake.sdk.transfers.create({ amount: 2500, currency: 'usd', destination: editor });
    const available = await platformAvailable(fake.sdk, editor);
    expect(available).toBeGreaterThanOrEqual(2500);

    const paidRun = await fetch(`${fake.url}/__payouts`, { method: 'POST', body: JSON.stringify({ account: editor }) });
    const { payouts } = (await paidRun.json()) as { payouts: Stripe.Payout[] };
    expect(payouts).toHaveLength(1);
    expect(payouts[0]).toMatchObject({ object: 'payout', amount: available, status: 'paid', currency: 'usd' });
    expect(await platformAvailable(fake.sdk, editor)).toBe(0);
    const account = await fake.sdk.accounts.retrieve(editor);
    expect(payouts[0]?.destination).toBe(account.external_accounts?.data[0]?.id);

    await fake.sdk.transfers.create({ amount: 700, currency: 'usd', destination: editor });
    const failedRun = await fetch(`${fake.url}/__payouts`, {
      method: 'POST',
      body: JSON.stringify({ account: editor, fail: true }),
    });
    const failed = ((await failedRun.json()) as { payouts: Stripe.Payout[] }).payouts[0]!;
    expect(failed).toMatchObject({ status: 'failed', failure_code: 'account_closed', amount: 700 });
    expect(await platformAvailable(fake.sdk, editor)).toBe(700);

    const listed = await fake.sdk.payouts.list({}, { stripeAccount: editor });
    expect(listed.data.map((p) => p.id)).toEqual([failed.id, payouts[0]!.id]);
    expect((await fake.sdk.payouts.list({ status: 'paid' }, { stripeAccount: editor })).data).toHaveLength(1);
    expect((await fake.sdk.payouts.retrieve(failed.id, {}, { stripeAccount: editor })).status).toBe('failed');
    // Payouts belong to their account: the platform does not see them.
    expect((await fake.sdk.payouts.list()).data).toEqual([]);
    await expect(fake.sdk.payouts.retrieve(failed.id)).rejects.toMatchObject({ statusCode: 404 });

    await waitFor(() => fake.connectEvents.filter((e) => e.type.startsWith('payout.')).length >= 4);
    // Stripe promises no order among webhooks, even a payout's own two: each payout's are compared as a set.
    const eventsOf = (payoutId: string) =>
      fake.connectEvents
        .filter((e) => e.type.startsWith('payout.') && (e.data.object as Stripe.Payout).id === payoutId)
        .map((e) => [e.type, (e.data.object as Stripe.Payout).status, e.account])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(eventsOf(payouts[0]!.id)).toEqual([
      ['payout.created', 'in_transit', editor],
      ['payout.paid', 'paid', editor],
    ]);
    expect(eventsOf(failed.id)).toEqual([
      ['payout.created', 'in_transit', editor],
      ['payout.failed', 'failed', editor],
    ]);
  });

  it('answers the balance of the platform and of a connected account, and refuses an unknown one', async () => {
    const platform = await fake.sdk.balance.retrieve();
    expect(platform).toMatchObject({ object: 'balance', livemode: false });
    expect(platform.available[0]).toMatchObject({ currency: 'usd' });
    const connected = await fake.sdk.balance.retrieve({}, { stripeAccount: editor });
    expect(connected.pending).toEqual([{ amount: 0, currency: 'usd', source_types: { card: 0 } }]);
    const transactions = await fake.sdk.balanceTransactions.list({ type: 'payout' }, { stripeAccount: editor });
    expect(transactions.data.every((t) => t.type === 'payout' && t.amount < 0)).toBe(true);
    await expect(fake.sdk.balance.retrieve({}, { stripeAccount: 'acct_stranger' })).rejects.toMatchObject({
      statusCode: 403,
      code: 'account_invalid',
    });
    // The fake serves the balance, payouts and the account itself on a connected account, nothing else.
    await expect(fake.sdk.customers.create({}, { stripeAccount: editor })).rejects.toThrow(/on a connected account/);
    expect((await fake.sdk.accounts.retrieveCurrent({}, { stripeAccount: editor })).id).toBe(editor);
  });

  it('refuses a payout run for an account whose payouts are not enabled', async () => {
    const pending = await anExpressAccount(fake.sdk, 'not-yet@example.com');
    const run = await fetch(`${fake.url}/__payouts`, { method: 'POST', body: JSON.stringify({ account: pending.id }) });
    expect(run.status).toBe(409);
  });
});

describe("the local Stripe fake's Connect state on disk", () => {
  it('keeps customers, cards, accounts, links, transfers, payouts and balances across a restart', async () => {
    const fake = await aConnectFake(aFolder());
    const customer = await fake.sdk.customers.create({ email: 'kept@example.com' });
    const card = await fake.sdk.paymentMethods.attach('pm_card_visa', { customer: customer.id });
    await fake.sdk.customers.update(customer.id, { invoice_settings: { default_payment_method: card.id } });
    const account = (await anExpressAccount(fake.sdk)).id;
    const { link } = await onboard(fake, account, 'complete');
    await fundPlatform(fake.sdk, 20_000);
    const transfer = await fake.sdk.transfers.create({ amount: 3000, currency: 'usd', destination: account });
    await fake.sdk.transfers.createReversal(transfer.id, { amount: 1000 });
    await fetch(`${fake.url}/__payouts`, { method: 'POST', body: '{}' });
    await fake.sdk.transfers.create(
      { amount: 500, currency: 'usd', destination: account },
      { idempotencyKey: 'kept-key' },
    );
    const platformBefore = await platformAvailable(fake.sdk);
    const payoutsBefore = await fake.sdk.payouts.list({}, { stripeAccount: account });

    expect((await fetch(`${fake.url}/__restart`, { method: 'POST' })).status).toBe(200);

    expect(await fake.sdk.customers.retrieve(customer.id)).toMatchObject({
      email: 'kept@example.com',
      invoice_settings: { default_payment_method: card.id },
    });
    expect((await fake.sdk.customers.listPaymentMethods(customer.id)).data.map((pm) => pm.id)).toEqual([card.id]);
    expect(await fake.sdk.accounts.retrieve(account)).toMatchObject({ payouts_enabled: true, details_submitted: true });
    expect(await (await fetch(link.url)).text()).toContain('This link has expired');
    expect(await fake.sdk.transfers.retrieve(transfer.id)).toMatchObject({ amount_reversed: 1000 });
    expect(await platformAvailable(fake.sdk)).toBe(platformBefore);
    expect(await platformAvailable(fake.sdk, account)).toBe(500);
    expect((await fake.sdk.payouts.list({}, { stripeAccount: account })).data).toEqual(payoutsBefore.data);
    const again = await fake.sdk.transfers.create(
      { amount: 500, currency: 'usd', destination: account },
      { idempotencyKey: 'kept-key' },
    );
    expect(await platformAvailable(fake.sdk, account)).toBe(500);
    expect((await fake.sdk.transfers.list({ limit: 1 })).data[0]?.id).toBe(again.id);
    // The saved card still pays after the restart.
    const paid = await fake.sdk.paymentIntents.create({
      amount: 1000,
      currency: 'usd',
      customer: customer.id,
      payment_method: card.id,
      off_session: true,
      confirm: true,
    });
    expect(paid.status).toBe('succeeded');
    await fake.stop();
  });
});
