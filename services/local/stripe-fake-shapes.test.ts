import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeFake } from './stripe-fake';

/**
 * Every object the local Stripe fake returns has the top-level fields of Stripe's own example of
 * its resource (stripe-fixtures.json, vendored from Stripe's OpenAPI repository), each with the
 * example's JSON type: null only where the example is null or Stripe's types call the field
 * nullable, and a list where the example has a list. Code written against the fake then reads
 * the same fields from Stripe.
 */
interface Fixtures {
  resources: Record<string, Record<string, unknown>>;
  nullable: Record<string, string[]>;
}
const fixtures = JSON.parse(readFileSync(path.join(import.meta.dirname, 'stripe-fixtures.json'), 'utf8')) as Fixtures;

type Json = Record<string, unknown>;
const jsonType = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
const isList = (value: unknown) =>
  typeof value === 'object' &&
  value !== null &&
  (value as Json).object === 'list' &&
  Array.isArray((value as Json).data);

/** How an object differs from Stripe's example of its resource; empty when it has Stripe's shape. */
const shapeProblems = (kind: string, object: Json) => {
  const example = fixtures.resources[kind];
  if (!example) return [`there is no example of a ${kind}`];
  const nullable = new Set(fixtures.nullable[kind]);
  const problems: string[] = [];
  for (const [field, expected] of Object.entries(example)) {
    if (!(field in object)) {
      problems.push(`${kind}.${field} is missing`);
      continue;
    }
    const value = object[field];
    // An example's null says nothing of the field's type.
    if (expected === null) continue;
    if (value === null) {
      if (!nullable.has(field)) problems.push(`${kind}.${field} is null, which Stripe's never is`);
      continue;
    }
    if (isList(expected)) {
      if (!isList(value)) problems.push(`${kind}.${field} is not a list`);
      continue;
    }
    if (jsonType(value) !== jsonType(expected)) {
      problems.push(`${kind}.${field} is a ${jsonType(value)}, Stripe's is a ${jsonType(expected)}`);
    }
  }
  return problems;
};

/** The kinds of object checked so far, to show every vendored example was used. */
const checked = new Set<string>();
const expectStripeShape = (kind: string, object: unknown) => {
  checked.add(kind);
  expect(shapeProblems(kind, object as Json), `${kind} ${(object as Json)?.id ?? ''}`).toEqual([]);
};
/** A list's items, each of the kind its `object` field names. */
const expectStripeShapes = (list: { data: unknown[] }) => {
  expect(list.data.length).toBeGreaterThan(0);
  for (const item of list.data) expectStripeShape(String((item as Json).object), item);
};

const webhookSecret = 'whsec_shapes';
const connectSecret = 'whsec_shapes_connect';
const events: Stripe.Event[] = [];
const anEndpoint = (secret: string) =>
  http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      events.push(
        Stripe.webhooks.constructEvent(
          Buffer.concat(chunks).toString('utf8'),
          String(req.headers['stripe-signature']),
          secret,
        ),
      );
      res.writeHead(200).end();
    });
  });
const platformEndpoint = anEndpoint(webhookSecret);
const connectEndpoint = anEndpoint(connectSecret);
const urlOf = (server: http.Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

let fake: http.Server;
let fakeUrl: string;
let sdk: Stripe;

beforeAll(async () => {
  for (const server of [platformEndpoint, connectEndpoint]) {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  }
  fake = await startStripeFake({
    port: 0,
    webhookUrl: urlOf(platformEndpoint),
    webhookSecret,
    connectWebhookUrl: urlOf(connectEndpoint),
    connectWebhookSecret: connectSecret,
  });
  const { port } = fake.address() as AddressInfo;
  fakeUrl = `http://127.0.0.1:${port}`;
  sdk = new Stripe('sk_test_fake', { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 });
});

afterAll(async () => {
  await new Promise((resolve) => fake.close(resolve));
  for (const server of [platformEndpoint, connectEndpoint]) await new Promise((resolve) => server.close(resolve));
});

const waitFor = async (done: () => boolean, timeoutMs = 5000) => {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
};

/** Onboards an account through its Account Link page, as its owner would. */
const onboarded = async (account: string) => {
  const link = await sdk.accountLinks.create({
    account,
    refresh_url: 'http://localhost/refresh',
    return_url: 'http://localhost/return',
    type: 'account_onboarding',
  });
  expectStripeShape('account_link', link);
  const html = await (await fetch(link.url)).text();
  const session = /name="session" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const done = await fetch(link.url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ session, choice: 'complete' }),
  });
  expect(done.status).toBe(303);
};

describe("the local Stripe fake's objects, against Stripe's own examples", () => {
  it('checks a field by its example: missing, wrongly null, of another type or not a list', () => {
    const customer = { ...fixtures.resources.customer };
    expect(shapeProblems('customer', customer)).toEqual([]);
    expect(shapeProblems('customer', { ...customer, discount: null, email: 'a@example.com' })).toEqual([]);
    const { balance: _balance, ...withoutBalance } = customer;
    expect(shapeProblems('customer', withoutBalance)).toEqual(['customer.balance is missing']);
    expect(shapeProblems('customer', { ...customer, livemode: null })).toEqual([
      "customer.livemode is null, which Stripe's never is",
    ]);
    expect(shapeProblems('customer', { ...customer, created: '1234567890' })).toEqual([
      "customer.created is a string, Stripe's is a number",
    ]);
    expect(shapeProblems('transfer', { ...fixtures.resources.transfer, reversals: [] })).toEqual([
      'transfer.reversals is not a list',
    ]);
  });

  it('answers customers, payment methods, payment intents, charges and refunds in Stripe shape', async () => {
    const customer = await sdk.customers.create({ email: 'shape@example.com', name: 'Shape', metadata: { a: 'b' } });
    expectStripeShape('customer', customer);
    const card = await sdk.paymentMethods.attach('pm_card_visa', { customer: customer.id });
    expectStripeShape('payment_method', card);
    expectStripeShape(
      'customer',
      await sdk.customers.update(customer.id, { invoice_settings: { default_payment_method: card.id } }),
    );
    expectStripeShapes(await sdk.customers.listPaymentMethods(customer.id));
    const created = await fetch(`${fakeUrl}/v1/payment_methods`, {
      method: 'POST',
      headers: { authorization: 'Bearer pk_test_shapes', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'type=card&card[number]=5555555555554444&card[exp_month]=4&card[exp_year]=2030&card[cvc]=123',
    });
    expectStripeShape('payment_method', await created.json());

    const waiting = await sdk.paymentIntents.create({ amount: 2000, currency: 'usd', customer: customer.id });
    expectStripeShape('payment_intent', waiting);
    const paid = await sdk.paymentIntents.confirm(waiting.id, { payment_method: card.id });
    expectStripeShape('payment_intent', paid);
    const challenged = await sdk.paymentIntents.create({
      amount: 2000,
      currency: 'usd',
      payment_method: 'pm_card_authenticationRequired',
      confirm: true,
      return_url: 'http://localhost/back',
    });
    expectStripeShape('payment_intent', challenged);
    const declined = (await sdk.paymentIntents
      .create({ amount: 2000, currency: 'usd', payment_method: 'pm_card_chargeDeclined', confirm: true })
      .catch((error: Stripe.errors.StripeCardError) => error.payment_intent)) as Stripe.PaymentIntent;
    expectStripeShape('payment_intent', await sdk.paymentIntents.retrieve(declined.id));
    expectStripeShape(
      'payment_intent',
      await sdk.paymentIntents.cancel((await sdk.paymentIntents.create({ amount: 900, currency: 'usd' })).id),
    );

    const charge = await sdk.charges.retrieve(paid.latest_charge as string);
    expectStripeShape('charge', charge);
    expectStripeShape('charge', await sdk.charges.retrieve(declined.latest_charge as string));
    expectStripeShape(
      'balance_transaction',
      await sdk.balanceTransactions.retrieve(charge.balance_transaction as string),
    );
    const refund = await sdk.refunds.create({ payment_intent: paid.id, amount: 500 });
    expectStripeShape('refund', refund);
    expectStripeShapes(await sdk.refunds.list({ payment_intent: paid.id }));
    expectStripeShapes((await sdk.charges.retrieve(charge.id)).refunds!);
    expectStripeShapes(await sdk.balanceTransactions.list());
  });

  it('answers accounts, links, transfers, reversals, balances and payouts in Stripe shape', async () => {
    await sdk.paymentIntents.create({ amount: 50_000, currency: 'usd', payment_method: 'pm_card_visa', confirm: true });
    const account = await sdk.accounts.create({
      type: 'express',
      email: 'editor@example.com',
      capabilities: { transfers: { requested: true } },
    });
    expectStripeShape('account', account);
    expectStripeShape(
      'account',
      await sdk.accounts.create({ controller: { stripe_dashboard: { type: 'none' }, fees: { payer: 'application' } } }),
    );
    await onboarded(account.id);
    const ready = await sdk.accounts.retrieve(account.id);
    expectStripeShape('account', ready);
    expectStripeShapes(ready.external_accounts!);
    expectStripeShape('account', await sdk.accounts.retrieveCurrent());
    expectStripeShape('login_link', await sdk.accounts.createLoginLink(account.id));

    const transfer = await sdk.transfers.create({ amount: 4000, currency: 'usd', destination: account.id });
    expectStripeShape('transfer', transfer);
    const reversal = await sdk.transfers.createReversal(transfer.id, { amount: 1000 });
    expectStripeShape('transfer_reversal', reversal);
    const reversed = await sdk.transfers.retrieve(transfer.id);
    expectStripeShape('transfer', reversed);
    expectStripeShapes(reversed.reversals);
    expectStripeShapes(await sdk.transfers.list());

    expectStripeShape('balance', await sdk.balance.retrieve());
    expectStripeShape('balance', await sdk.balance.retrieve({}, { stripeAccount: account.id }));
    const run = await fetch(`${fakeUrl}/__payouts`, { method: 'POST', body: JSON.stringify({ account: account.id }) });
    const [payout] = ((await run.json()) as { payouts: Stripe.Payout[] }).payouts;
    expectStripeShape('payout', payout);
    await sdk.transfers.create({ amount: 100, currency: 'usd', destination: account.id });
    await fetch(`${fakeUrl}/__payouts`, { method: 'POST', body: JSON.stringify({ account: account.id, fail: true }) });
    expectStripeShapes(await sdk.payouts.list({}, { stripeAccount: account.id }));
    expectStripeShapes(await sdk.balanceTransactions.list({}, { stripeAccount: account.id }));
  });

  it('sends events, and the objects in them, in Stripe shape', async () => {
    await waitFor(() =>
      ['account.updated', 'payout.failed', 'transfer.reversed'].every((t) => events.some((e) => e.type === t)),
    );
    const types = new Set(events.map((e) => e.type));
    expect([...types]).toEqual(
      expect.arrayContaining([
        'payment_intent.succeeded',
        'payment_intent.payment_failed',
        'payment_intent.requires_action',
        'payment_intent.canceled',
        'account.updated',
        'transfer.created',
        'transfer.reversed',
        'payout.created',
        'payout.paid',
        'payout.failed',
      ]),
    );
    for (const event of events) {
      expectStripeShape('event', event);
      const object = event.data.object as unknown as Json;
      expectStripeShape(String(object.object), object);
    }
  });

  it('has checked every resource it vendored an example of', () => {
    expect([...checked].sort()).toEqual(Object.keys(fixtures.resources).sort());
  });
});
