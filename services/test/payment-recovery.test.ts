import type { CreateOrderResponse } from '@marketplace/events/orders';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { LOCAL_STRIPE_PUBLISHABLE_KEY } from '../local/stack';
import type { StripeFault } from '../local/stripe-fake';
import { getOrder, registerOriginal } from '../src/data/orders';
import { aPhotographer, as, aUserWithRoles, db, type TestAccount } from './support';

/**
 * A pending order stays payable whatever happens to Stripe's side: the local fake restarting,
 * Stripe answering 404 for the order's intent, a body that is not JSON, a connection closed with
 * no answer. Our routes answer a 4xx or a 502 in our error shape, never a 500, and write nothing
 * they should not. The fake is the stack's own, restarted and faulted through its local controls.
 */
const stripeUrl = () => process.env.STRIPE_API_URL!;

const stripeFault = async (fault: Partial<StripeFault>) => {
  const response = await fetch(`${stripeUrl()}/__faults`, { method: 'POST', body: JSON.stringify(fault) });
  if (!response.ok) throw new Error(`fault not set: ${response.status} ${await response.text()}`);
};

/** As a new process of the fake would: everything it held in memory dropped and its folder read again. */
const restartStripeFake = async () => {
  const response = await fetch(`${stripeUrl()}/__restart`, { method: 'POST' });
  if (!response.ok) throw new Error(`fake not restarted: ${response.status}`);
};

/** Each test's order has a photo count of its own, so a fault matched on its amount touches no other. */
const anOrder = async (photographer: TestAccount, photoCount = 2) => {
  const response = await as(photographer).post('/api/orders', { jobTypeId: 'hdr', photoCount });
  if (response.status !== 201) throw new Error(`order not created: ${response.status}`);
  return response.body as CreateOrderResponse;
};

/** Its photos, registered straight through the data layer, so the payment page will open. */
const uploadOriginals = async (orderId: string, count: number) => {
  for (let i = 0; i < count; i++) {
    await registerOriginal({
      order: (await getOrder(orderId))!,
      key: `orders/${orderId}/originals/photo-${i}.jpg`,
      filename: `photo-${i}.jpg`,
      size: 1000,
      contentType: 'image/jpeg',
      lastModified: new Date().toISOString(),
    });
  }
};

/** The card form's confirm, as Stripe.js sends it with the publishable key and the client secret. */
const confirmInBrowser = async (clientSecret: string) => {
  const intentId = clientSecret.split('_secret_')[0];
  const response = await fetch(`${stripeUrl()}/v1/payment_intents/${intentId}/confirm`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${LOCAL_STRIPE_PUBLISHABLE_KEY}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ payment_method: 'pm_card_visa', client_secret: clientSecret }),
  });
  return response.status;
};

const paymentSuccess = (photographer: TestAccount, orderId: string, paymentIntentId: string) =>
  as(photographer).post(`/api/orders/${orderId}/payment-success`, { paymentIntentId });

/** Our error shape and nothing more: no SDK error names, no stack. */
const expectOurError = (body: unknown, code: string) => {
  expect(body).toEqual({ error: code, message: expect.any(String) });
  expect(JSON.stringify(body)).not.toMatch(/Stripe[A-Z]\w*Error|\bat .*\.(ts|js):\d+|node_modules|stack/);
};

const paymentRecord = async (paymentIntentId: string) => (await db().payment.get({ paymentIntentId }).go()).data;

describe('an order created before the Stripe fake restarts', () => {
  it('is still payable after it: the payment page hands out its secret and the payment goes through', async () => {
    const photographer = await aPhotographer();
    const created = await anOrder(photographer);
    await uploadOriginals(created.order.id, 2);

    await restartStripeFake();

    const page = await as(photographer).get(`/api/orders/${created.order.id}/payment`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({
      stripePaymentIntentId: created.order.stripePaymentIntentId,
      stripeClientSecret: created.stripeClientSecret,
    });
    expect(await confirmInBrowser(created.stripeClientSecret!)).toBe(200);
    const paid = await paymentSuccess(photographer, created.order.id, created.order.stripePaymentIntentId);
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ id: created.order.id, status: 'paid' });
  });
});

describe('Stripe answering what the payment report cannot use', () => {
  const cases: { label: string; fault: Partial<StripeFault>; status: number; code: string }[] = [
    {
      label: "404, Stripe's own 'no such payment_intent'",
      fault: { status: 404 },
      status: 409,
      code: 'PAYMENT_NOT_FOUND',
    },
    {
      label: 'a body that is not JSON',
      fault: { reply: 'malformed' },
      status: 502,
      code: 'PAYMENT_PROVIDER_UNAVAILABLE',
    },
    // Three closes: the first try and the Stripe client's two retries.
    {
      label: 'the connection closed with no answer',
      fault: { reply: 'disconnect', times: 3 },
      status: 502,
      code: 'PAYMENT_PROVIDER_UNAVAILABLE',
    },
  ];
  for (const { label, fault, status, code } of cases) {
    it(`${label}: ${status} ${code}, nothing written, and the next report pays the order`, async () => {
      const photographer = await aPhotographer();
      const created = await anOrder(photographer);
      const intentId = created.order.stripePaymentIntentId;
      // Stripe's webhooks for this payment do not arrive: the browser's report is the only way in.
      await stripeFault({ path: 'webhooks', match: { id: intentId }, times: 5 });
      expect(await confirmInBrowser(created.stripeClientSecret!)).toBe(200);
      await stripeFault({ method: 'GET', path: `/v1/payment_intents/${intentId}`, ...fault });

      const failed = await paymentSuccess(photographer, created.order.id, intentId);

      expect(failed.status).toBe(status);
      expectOurError(failed.body, code);
      if (code === 'PAYMENT_NOT_FOUND') expect(failed.body.message).toMatch(/payment page/);
      expect(await getOrder(created.order.id)).toMatchObject({
        status: 'pending_payment',
        stripePaymentIntentId: intentId,
      });
      expect(await paymentRecord(intentId)).toMatchObject({ status: 'requires_payment' });

      const retried = await paymentSuccess(photographer, created.order.id, intentId);
      expect(retried.status).toBe(200);
      expect(retried.body.status).toBe('paid');
    });
  }
});

describe('Stripe answering badly on the other routes that call it', () => {
  it('the payment page: a body that is not JSON or a closed connection is a 502, and the page opens after', async () => {
    const photographer = await aPhotographer();
    const created = await anOrder(photographer);
    await uploadOriginals(created.order.id, 2);
    const path = `/v1/payment_intents/${created.order.stripePaymentIntentId}`;
    const page = () => as(photographer).get(`/api/orders/${created.order.id}/payment`);

    await stripeFault({ method: 'GET', path, reply: 'malformed' });
    const malformed = await page();
    await stripeFault({ method: 'GET', path, reply: 'disconnect', times: 3 });
    const disconnected = await page();

    expect(malformed.status).toBe(502);
    expectOurError(malformed.body, 'PAYMENT_PROVIDER_UNAVAILABLE');
    expect(disconnected.status).toBe(502);
    expectOurError(disconnected.body, 'PAYMENT_PROVIDER_UNAVAILABLE');
    expect((await page()).body.stripeClientSecret).toBe(created.stripeClientSecret);
  });

  it('order creation: a body that is not JSON is a 502 and no order is written', async () => {
    const photographer = await aPhotographer();
    // 67 HDR photos: 53,600 cents, this test's own amount.
    await stripeFault({ method: 'POST', path: '/v1/payment_intents', match: { amount: '53600' }, reply: 'malformed' });

    const failed = await as(photographer).post('/api/orders', { jobTypeId: 'hdr', photoCount: 67 });

    expect(failed.status).toBe(502);
    expectOurError(failed.body, 'PAYMENT_PROVIDER_UNAVAILABLE');
    const { data } = await db().order.query.byPhotographer({ photographerId: photographer.uid }).go();
    expect(data).toHaveLength(0);
  });

  it("an admin's cancel: Stripe unreachable while stopping the payment is a 502, and the order stays", async () => {
    const [photographer, admin] = await Promise.all([aPhotographer(), aUserWithRoles(['admin'])]);
    const created = await anOrder(photographer);
    const cancel = () => as(admin).post(`/api/orders/admin/${created.order.id}/cancel`);
    await stripeFault({
      method: 'POST',
      path: `/v1/payment_intents/${created.order.stripePaymentIntentId}/cancel`,
      reply: 'disconnect',
      times: 3,
    });

    const failed = await cancel();

    expect(failed.status).toBe(502);
    expectOurError(failed.body, 'PAYMENT_PROVIDER_UNAVAILABLE');
    expect((await getOrder(created.order.id))?.status).toBe('pending_payment');
    const retried = await cancel();
    expect(retried.status).toBe(200);
    expect((await getOrder(created.order.id))?.status).toBe('cancelled');
  });

  it('the webhook: a signed event it cannot read is a 400, not a 500, and changes nothing', async () => {
    const photographer = await aPhotographer();
    const created = await anOrder(photographer);
    const unreadable = [
      { id: 'evt_no_data', object: 'event', type: 'payment_intent.succeeded' },
      { id: 'evt_no_amount', object: 'event', type: 'payment_intent.succeeded', data: { object: { id: 'pi_x' } } },
      {
        object: 'event',
        type: 'payment_intent.succeeded',
        data: { object: { ...created.order, id: created.order.stripePaymentIntentId } },
      },
    ];
    for (const event of unreadable) {
      const payload = JSON.stringify(event);
      const response = await fetch(`${process.env.API_URL}/api/webhooks/stripe`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': Stripe.webhooks.generateTestHeaderString({
            payload,
            secret: process.env.STRIPE_WEBHOOK_SECRET!,
          }),
        },
        body: payload,
      });
      expect(response.status, payload).toBe(400);
      expectOurError(await response.json(), 'INVALID_EVENT');
    }
    expect((await getOrder(created.order.id))?.status).toBe('pending_payment');
  });
});

describe('a payment Stripe no longer knows', () => {
  /** Stripe answers "no such payment_intent" for it, as after its test data was deleted. */
  const forgetAtStripe = async (intentId: string, reads: number) => {
    await stripeFault({ method: 'GET', path: `/v1/payment_intents/${intentId}`, status: 404, times: reads });
    await stripeFault({ method: 'POST', path: `/v1/payment_intents/${intentId}/cancel`, status: 404, times: reads });
  };

  it('is started again by the payment page with a new intent, which pays the order once', async () => {
    const photographer = await aPhotographer();
    const created = await anOrder(photographer);
    await uploadOriginals(created.order.id, 2);
    const lostId = created.order.stripePaymentIntentId;
    await forgetAtStripe(lostId, 1);

    const page = await as(photographer).get(`/api/orders/${created.order.id}/payment`);

    expect(page.status).toBe(200);
    const { stripePaymentIntentId: newId, stripeClientSecret } = page.body;
    expect(newId).not.toBe(lostId);
    expect(stripeClientSecret).toMatch(new RegExp(`^${newId}_secret_`));
    expect(await getOrder(created.order.id)).toMatchObject({ status: 'pending_payment', stripePaymentIntentId: newId });
    expect(await paymentRecord(newId)).toMatchObject({ orderId: created.order.id, status: 'requires_payment' });
    expect(await paymentRecord(lostId)).toMatchObject({ status: 'failed' });

    // The lost intent no longer pays this order; the new one does.
    const stale = await paymentSuccess(photographer, created.order.id, lostId);
    expect(stale.status).toBe(409);
    expect(await confirmInBrowser(stripeClientSecret)).toBe(200);
    const paid = await paymentSuccess(photographer, created.order.id, newId);
    expect(paid.status).toBe(200);
    expect(paid.body.status).toBe('paid');
    expect(await paymentRecord(newId)).toMatchObject({ status: 'succeeded' });
    const stats = await as(photographer).get('/api/stats/photographer');
    expect(stats.body).toMatchObject({ totalSpent: created.order.totalAmountCents });
  });

  it('is started again once when two payment pages open at the same time', async () => {
    const photographer = await aPhotographer();
    const created = await anOrder(photographer);
    await uploadOriginals(created.order.id, 2);
    await forgetAtStripe(created.order.stripePaymentIntentId, 2);

    const pages = await Promise.all([1, 2].map(() => as(photographer).get(`/api/orders/${created.order.id}/payment`)));

    expect(pages.map((p) => p.status)).toEqual([200, 200]);
    expect(pages[0]!.body.stripePaymentIntentId).toBe(pages[1]!.body.stripePaymentIntentId);
    expect((await getOrder(created.order.id))?.stripePaymentIntentId).toBe(pages[0]!.body.stripePaymentIntentId);
    const payments = await db().payment.query.byOrder({ orderId: created.order.id }).go();
    expect(payments.data.map((p) => p.status).sort()).toEqual(['failed', 'requires_payment']);
  });
});
