import { type CreateOrderResponse, orderFormMessages } from '@marketplace/events/orders';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { LOCAL_STRIPE_PUBLISHABLE_KEY } from '../local/stack';
import { retrievePaymentIntent } from '../src/adapters/stripe';
import { payOrder } from '../src/data/order-payments';
import { getOrder, registerOriginal } from '../src/data/orders';
import { anEditor, aPhotographer, as, call, db, type TestAccount, waitFor } from './support';

const apiUrl = () => process.env.API_URL!;
const stripeUrl = () => process.env.STRIPE_API_URL!;

/** An order as the photographer's browser creates it, with money figures the server must ignore. */
const anOrder = async (photographer: TestAccount) => {
  const response = await as(photographer).post('/api/orders', {
    jobTypeId: 'hdr',
    photoCount: 2,
    totalAmountCents: 1,
    pricePerPhotoCents: 1,
  });
  if (response.status !== 201)
    throw new Error(`order not created: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as CreateOrderResponse;
};

/** Originals the server has seen in S3, registered straight through the data layer. */
const uploadOriginals = async (orderId: string, count: number) => {
  for (let i = 0; i < count; i++) {
    const order = (await getOrder(orderId))!;
    await registerOriginal({
      order,
      key: `orders/${orderId}/originals/photo-${i}.jpg`,
      filename: `photo-${i}.jpg`,
      size: 1000,
      contentType: 'image/jpeg',
      lastModified: new Date().toISOString(),
    });
  }
};

/** The card form's confirm, straight to the Stripe fake with the publishable key, as Stripe.js does it. */
const confirmInBrowser = async ({ order, stripeClientSecret }: CreateOrderResponse, paymentMethod: string) => {
  const response = await fetch(`${stripeUrl()}/v1/payment_intents/${order.stripePaymentIntentId}/confirm`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${LOCAL_STRIPE_PUBLISHABLE_KEY}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ payment_method: paymentMethod, client_secret: stripeClientSecret }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, never> };
};

const sendWebhook = async (payload: string, signature?: string) => {
  const response = await fetch(`${apiUrl()}/api/webhooks/stripe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
    body: payload,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
};

const succeededEvent = (intent: object) =>
  JSON.stringify({
    id: `evt_test_${Math.random().toString(36).slice(2)}`,
    object: 'event',
    type: 'payment_intent.succeeded',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: { object: intent },
  });

const signed = (payload: string, secret = process.env.STRIPE_WEBHOOK_SECRET!) =>
  Stripe.webhooks.generateTestHeaderString({ payload, secret });

const orderStatus = async (photographer: TestAccount, orderId: string) =>
  (await as(photographer).get(`/api/orders/${orderId}`)).body.status as string;

const paymentSuccess = (photographer: TestAccount, created: CreateOrderResponse) =>
  as(photographer).post(`/api/orders/${created.order.id}/payment-success`, {
    paymentIntentId: created.order.stripePaymentIntentId,
  });

describe('card payments', () => {
  it('prices an order on the server and ignores the money figures the browser sends', async () => {
    const created = await anOrder(await aPhotographer());
    const intent = await retrievePaymentIntent(created.order.stripePaymentIntentId);

    expect(created.order.totalAmountCents).toBe(1600);
    expect(intent).toMatchObject({ amount: 1600, currency: 'usd', metadata: { orderId: created.order.id } });
    expect(created.stripeClientSecret).toBe(intent.client_secret);
  });

  it('marks an order paid once its card payment succeeded, due 48 hours after payment', async () => {
    const photographer = await aPhotographer();
    const created = await anOrder(photographer);

    const confirmed = await confirmInBrowser(created, 'pm_card_visa');
    const response = await paymentSuccess(photographer, created);

    expect(confirmed.status).toBe(200);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: created.order.id, status: 'paid' });
    const paidAt = new Date(response.body.paidAt).getTime();
    expect(Date.now() - paidAt).toBeLessThan(60_000);
    expect(new Date(response.body.dueAt).getTime() - paidAt).toBe(48 * 60 * 60 * 1000);
  });

  it('leaves an order awaiting payment when the card is declined', async () => {
    const photographer = await aPhotographer();
    const created = await anOrder(photographer);

    const declined = await confirmInBrowser(created, 'pm_card_chargeDeclined');
    const response = await paymentSuccess(photographer, created);

    expect(declined.status).toBe(402);
    expect(declined.body.error).toMatchObject({ type: 'card_error', message: 'Your card was declined.' });
    expect(response.status).toBe(409);
    expect(response.body.message).toBe('Payment was not completed: the card payment is requires payment method');
    expect(await orderStatus(photographer, created.order.id)).toBe('pending_payment');
  });

  it('refuses to mark an order paid for a payment never confirmed or made for another order', async () => {
    const photographer = await aPhotographer();
    const created = await anOrder(photographer);
    const other = await anOrder(photographer);
    await confirmInBrowser(other, 'pm_card_visa');

    const unconfirmed = await paymentSuccess(photographer, created);
    const foreign = await as(photographer).post(`/api/orders/${created.order.id}/payment-success`, {
      paymentIntentId: other.order.stripePaymentIntentId,
    });

    expect(unconfirmed.status).toBe(409);
    expect(foreign.status).toBe(409);
    expect(foreign.body.message).toBe('This payment does not belong to this order');
    expect(await orderStatus(photographer, created.order.id)).toBe('pending_payment');
  });

  it('rejects webhooks that are unsigned or signed with another secret, changing nothing', async () => {
    const photographer = await aPhotographer();
    const created = await anOrder(photographer);
    const intent = await retrievePaymentIntent(created.order.stripePaymentIntentId);
    const forged = succeededEvent({ ...intent, status: 'succeeded', amount_received: intent.amount });

    const badSignature = await sendWebhook(forged, signed(forged, 'whsec_someone_else'));
    const unsigned = await sendWebhook(forged);
    const altered = await sendWebhook(forged.replace('"livemode":false', '"livemode":true'), signed(forged));

    expect(badSignature.status).toBe(400);
    expect(badSignature.body.error).toBe('INVALID_SIGNATURE');
    expect(unsigned.status).toBe(400);
    expect(altered.status).toBe(400);
    expect(await orderStatus(photographer, created.order.id)).toBe('pending_payment');
  });

  it('acknowledges event types it does not handle', async () => {
    const payload = JSON.stringify({
      id: 'evt_other',
      object: 'event',
      type: 'customer.created',
      data: { object: {} },
    });
    expect((await sendWebhook(payload, signed(payload))).status).toBe(200);
  });

  it('verifies a webhook whose body API Gateway passed base64-encoded', async () => {
    const { handler } = await import('../src/handlers/payments/stripe-webhook');
    const payload = JSON.stringify({ id: 'evt_b64', object: 'event', type: 'customer.created', data: { object: {} } });
    const invoke = (signature: string) =>
      handler(
        {
          routeKey: 'POST /api/webhooks/stripe',
          headers: { 'content-type': 'application/octet-stream', 'stripe-signature': signature },
          body: Buffer.from(payload).toString('base64'),
          isBase64Encoded: true,
          requestContext: {},
        } as never,
        { awsRequestId: 'test', functionName: 'payments/stripe-webhook' } as never,
      );

    expect((await invoke(signed(payload))).statusCode).toBe(200);
    expect((await invoke(signed(`${payload} `))).statusCode).toBe(400);
  });

  it('pays an order exactly once when ten webhooks and ten confirmations arrive at once', async () => {
    const photographer = await aPhotographer();
    const created = await anOrder(photographer);
    const orderId = created.order.id;
    // The confirm answers the succeeded intent: the race starts while the fake's own webhook is in flight.
    const confirmed = await confirmInBrowser(created, 'pm_card_visa');
    const event = succeededEvent(confirmed.body);

    const results = await Promise.all([
      ...Array.from({ length: 10 }, () => sendWebhook(event, signed(event))),
      ...Array.from({ length: 10 }, () => paymentSuccess(photographer, created)),
    ]);

    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(results.slice(10).every((r) => r.body.status === 'paid')).toBe(true);
    const readPaidEvents = async () =>
      ((await db().orderEvent.query.byOrder({ orderId }).go()).data as { eventType: string }[]).filter(
        (e) => e.eventType === 'order_paid',
      );
    expect(await waitFor(readPaidEvents, (found) => found.length > 0)).toHaveLength(1);
    // Give any duplicate time to reach the activity log, then check there is still one.
    await new Promise((r) => setTimeout(r, 1500));
    expect(await readPaidEvents()).toHaveLength(1);
    expect((await as(photographer).get('/api/stats/photographer')).body.totalSpent).toBe(1600);
  });

  it('lets exactly one of twenty simultaneous payment reports mark the order paid', async () => {
    const photographer = await aPhotographer();
    const created = await anOrder(photographer);
    // The intent as Stripe reports it once paid, without a confirm whose webhook would settle the race first.
    const intent = await retrievePaymentIntent(created.order.stripePaymentIntentId);
    const payment = { ...intent, status: 'succeeded' };
    const pending = (await getOrder(created.order.id))!;

    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => payOrder({ order: pending, payment, via: i % 2 ? 'client' : 'webhook' })),
    );

    expect(outcomes.filter((o) => o === 'paid')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'already-paid')).toHaveLength(19);
    expect((await as(photographer).get('/api/stats/photographer')).body.totalSpent).toBe(1600);
  });

  it("hands out the payment's client secret only when every photo is uploaded and the order is unpaid", async () => {
    const photographer = await aPhotographer();
    const created = await anOrder(photographer);
    const path = `/api/orders/${created.order.id}/payment`;

    const tooFew = await as(photographer).get(path);
    await uploadOriginals(created.order.id, 2);
    const ready = await as(photographer).get(path);
    await confirmInBrowser(created, 'pm_card_visa');
    await paymentSuccess(photographer, created);
    const paid = await as(photographer).get(path);

    expect(tooFew.status).toBe(409);
    expect(tooFew.body.message).toBe(orderFormMessages.tooFewFiles(2, 0));
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      order: {
        id: created.order.id,
        orderNumber: created.order.orderNumber,
        name: null,
        photoCount: 2,
        totalAmountCents: 1600,
      },
      stripePaymentIntentId: created.order.stripePaymentIntentId,
      stripeClientSecret: created.stripeClientSecret,
    });
    expect(paid.status).toBe(409);
    expect(paid.body.message).toBe('This order is already paid');
  });

  it("keeps each order's payment routes to its own photographer", async () => {
    const owner = await aPhotographer();
    const created = await anOrder(owner);
    await uploadOriginals(created.order.id, 2);
    const [stranger, editor] = await Promise.all([aPhotographer(), anEditor()]);
    const routes = [
      { method: 'GET', path: `/api/orders/${created.order.id}/payment` },
      { method: 'POST', path: `/api/orders/${created.order.id}/payment-success` },
    ];
    const body = { paymentIntentId: created.order.stripePaymentIntentId };

    for (const { method, path } of routes) {
      const send = (token?: string) => call(path, { method, token, ...(method === 'POST' ? { body } : {}) });
      expect((await send(stranger.token)).status, `${method} ${path} by another photographer`).toBe(404);
      expect((await send(editor.token)).status, `${method} ${path} by an editor`).toBe(403);
      expect((await send()).status, `${method} ${path} signed out`).toBe(401);
    }
    expect(await orderStatus(owner, created.order.id)).toBe('pending_payment');
  });

  it("pays an order from the Stripe fake's own signed webhook, without the browser's confirmation", async () => {
    const photographer = await aPhotographer();
    const created = await anOrder(photographer);

    await confirmInBrowser(created, 'pm_card_visa');

    const status = await waitFor(
      () => orderStatus(photographer, created.order.id),
      (s) => s === 'paid',
    );
    expect(status).toBe('paid');
    const paidVia = await waitFor(
      async () =>
        (await db().orderEvent.query.byOrder({ orderId: created.order.id }).go()).data as {
          eventType: string;
          metadata: { via?: string };
        }[],
      (found) => found.some((e) => e.eventType === 'order_paid'),
    );
    expect(paidVia.find((e) => e.eventType === 'order_paid')?.metadata.via).toBe('webhook');
  });
});
