import type { BillingHistoryView, BillingStatementView } from '@marketplace/events/billing';
import type { CreateOrderResponse } from '@marketplace/events/orders';
import { describe, expect, it } from 'vitest';
import { LOCAL_STRIPE_PUBLISHABLE_KEY } from '../local/stack';
import { getOrder, markOrderPaid, registerOriginal } from '../src/data/orders';
import { aDataLayerOrder, aPhotographer, as, aUserWithRoles, db, type TestAccount } from './support';

/** A payment recorded as the webhook records it, with the card Stripe reported. */
const aPaymentOf = async (photographer: TestAccount, name?: string) => {
  const order = await aDataLayerOrder(photographer);
  if (name) await db().order.patch({ orderId: order.orderId }).set({ name }).go();
  await markOrderPaid({
    orderId: order.orderId,
    paymentIntentId: order.stripePaymentIntentId!,
    amountCents: order.totalAmountCents,
    via: 'webhook',
    card: { brand: 'mastercard', last4: '4444' },
  });
  return order;
};

/** A real card payment through the API, then an admin's cancel: a payment and its refund. */
const aRefundedOrder = async (photographer: TestAccount) => {
  const created = (await as(photographer).post('/api/orders', { jobTypeId: 'hdr', photoCount: 1 }))
    .body as CreateOrderResponse;
  await registerOriginal({
    order: (await getOrder(created.order.id))!,
    key: `orders/${created.order.id}/originals/front.jpg`,
    filename: 'front.jpg',
    size: 1000,
    contentType: 'image/jpeg',
    lastModified: new Date().toISOString(),
  });
  await fetch(`${process.env.STRIPE_API_URL}/v1/payment_intents/${created.order.stripePaymentIntentId}/confirm`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${LOCAL_STRIPE_PUBLISHABLE_KEY}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ payment_method: 'pm_card_visa', client_secret: created.stripeClientSecret }),
  });
  await as(photographer).post(`/api/orders/${created.order.id}/payment-success`, {
    paymentIntentId: created.order.stripePaymentIntentId,
  });
  const admin = await aUserWithRoles(['admin']);
  expect((await as(admin).post(`/api/orders/admin/${created.order.id}/cancel`)).status).toBe(200);
  return created.order;
};

const history = async (photographer: TestAccount, query = '') => {
  const response = await as(photographer).get(`/api/billing/history${query}`);
  expect(response.status).toBe(200);
  return response.body as BillingHistoryView;
};

const thisMonth = () => new Date().toISOString().slice(0, 7);

describe('billing history', () => {
  it('lists every payment and refund newest first, a page at a time by cursor', async () => {
    const photographer = await aPhotographer();
    const first = await aPaymentOf(photographer);
    const second = await aPaymentOf(photographer);
    const refunded = await aRefundedOrder(photographer);

    const page1 = await history(photographer, '?limit=3');
    const page2 = await history(photographer, `?limit=3&cursor=${encodeURIComponent(page1.nextCursor!)}`);

    const all = [...page1.entries, ...page2.entries];
    expect(page1.entries).toHaveLength(3);
    expect(page2).toMatchObject({ nextCursor: null });
    expect(all.map((e) => [e.kind, e.orderId])).toEqual([
      ['refund', refunded.id],
      ['payment', refunded.id],
      ['payment', second.orderId],
      ['payment', first.orderId],
    ]);
    expect(all.map((e) => e.occurredAt)).toEqual([...all.map((e) => e.occurredAt)].sort().reverse());
    expect(all[2]).toMatchObject({ amountCents: 1600, cardBrand: 'mastercard', cardLast4: '4444' });
    expect(all[0]).toMatchObject({ amountCents: 800, cardBrand: 'visa', cardLast4: '4242' });
  });

  it("shows no one else's payments", async () => {
    const [owner, stranger] = await Promise.all([aPhotographer(), aPhotographer()]);
    await aPaymentOf(owner);
    expect((await history(stranger)).entries).toEqual([]);
  });

  it('refuses a cursor it did not make, and a bad limit, with a 400', async () => {
    const photographer = await aPhotographer();
    const forged = await as(photographer).get(
      `/api/billing/history?cursor=${Buffer.from('{"entryId":"x"}').toString('base64url')}`,
    );
    const tooMany = await as(photographer).get('/api/billing/history?limit=500');
    expect(forged.status).toBe(400);
    expect(forged.body.message).toBe('This page link is no longer valid. Please start again from the first page.');
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toBe('limit must be a whole number from 1 to 50');
  });

  it('gives a month as CSV: standard quoting, refunds negative, formula-like text neutralised', async () => {
    const photographer = await aPhotographer();
    await aPaymentOf(photographer, '=HYPERLINK("http://x.example","Oak, Street")');
    await aRefundedOrder(photographer);

    const response = await as(photographer).get(`/api/billing/statement?month=${thisMonth()}&tz=UTC`);
    const empty = await as(photographer).get('/api/billing/statement?month=2020-01&tz=UTC');

    expect(response.status).toBe(200);
    const { filename, csv } = response.body as BillingStatementView;
    expect(filename).toBe(`billing-${thisMonth()}.csv`);
    const lines = csv.split('\r\n');
    expect(lines.at(-1)).toBe('');
    expect(lines[0]).toBe(
      'Date,Time zone,Type,Order number,Order name,Service,Photos,Amount (USD),Card,Receipt number',
    );
    expect(lines.slice(1, -1)).toHaveLength(3);
    expect(lines[1]).toContain(`,"'=HYPERLINK(""http://x.example"",""Oak, Street"")",HDR,2,16.00,mastercard 4444,`);
    expect(lines[2]).toMatch(/,Payment,\d+,,HDR,1,8\.00,visa 4242,/);
    expect(lines[3]).toMatch(/,Refund,\d+,,HDR,1,-8\.00,visa 4242,/);
    expect((empty.body as BillingStatementView).csv).toBe(`${lines[0]}\r\n`);
  });

  it('refuses a month that is not YYYY-MM and an unknown time zone with a 400', async () => {
    const photographer = await aPhotographer();
    const badMonth = await as(photographer).get('/api/billing/statement?month=2026-13');
    const badZone = await as(photographer).get('/api/billing/statement?month=2026-11&tz=Mars%2FOlympus');
    expect(badMonth.status).toBe(400);
    expect(badMonth.body.message).toBe('month must be YYYY-MM, such as 2026-11');
    expect(badZone.status).toBe(400);
    expect(badZone.body.message).toBe('Unknown time zone');
  });
});
