import type { AddOnView, OfferedAddOnView, OrderAddOnsView } from '@marketplace/events/add-ons';
import { type CreateOrderResponse, editedPrefix } from '@marketplace/events/orders';
import { ulid } from 'ulid';
import { beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_STRIPE_PUBLISHABLE_KEY } from '../local/stack';
import { retrievePaymentIntent } from '../src/adapters/stripe';
import { orderBillingEntries } from '../src/data/billing';
import { getEarning } from '../src/data/earnings';
import { claimOrder, completeOrder, getOrder, registerEdited, registerOriginal } from '../src/data/orders';
import { anEditor, aPhotographer, as, aUserWithRoles, db, type TestAccount, waitFor } from './support';

/** Add-ons on chosen photos (decision 0109): the admin's catalogue, the server's price, the payment and the earning. */

const stripeUrl = () => process.env.STRIPE_API_URL!;

/** An order of three HDR photos (8.00 each) with its originals registered, awaiting payment. */
const anOrderWithPhotos = async (photographer: TestAccount, options: { turnaroundTier?: string } = {}) => {
  const response = await as(photographer).post('/api/orders', { jobTypeId: 'hdr', photoCount: 3, ...options });
  expect(response.status).toBe(201);
  const created = response.body as CreateOrderResponse;
  const keys: string[] = [];
  for (let i = 0; i < 3; i++) {
    const key = `orders/${created.order.id}/originals/room-${i}.jpg`;
    await registerOriginal({
      order: (await getOrder(created.order.id))!,
      key,
      filename: `room-${i}.jpg`,
      size: 1000,
      contentType: 'image/jpeg',
      lastModified: new Date().toISOString(),
    });
    keys.push(key);
  }
  return { created, orderId: created.order.id, keys };
};

const confirmInBrowser = async ({ order, stripeClientSecret }: CreateOrderResponse) => {
  const response = await fetch(`${stripeUrl()}/v1/payment_intents/${order.stripePaymentIntentId}/confirm`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${LOCAL_STRIPE_PUBLISHABLE_KEY}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ payment_method: 'pm_card_visa', client_secret: stripeClientSecret }),
  });
  return response.status;
};

/** What a refused request must leave as it was: the order's total, its selection, the intent's amount, its events. */
const snapshot = async (orderId: string) => {
  const order = (await getOrder(orderId))!;
  const { data: selection } = await db().orderAddOns.get({ orderId }).go();
  const intent = await retrievePaymentIntent(order.stripePaymentIntentId!);
  const events = (await db().orderEvent.query.byOrder({ orderId }).go()).data.filter(
    (e) => e.eventType === 'add_ons_saved',
  );
  return {
    total: order.totalAmountCents,
    addOns: order.addOns ?? [],
    selection: selection?.photos ?? null,
    amount: intent.amount,
    events: events.length,
  };
};

describe('add-ons on chosen photos', () => {
  let admin: TestAccount;
  let photographer: TestAccount;
  let otherPhotographer: TestAccount;
  let editor: TestAccount;
  /** Two add-ons of this run (unique names), so the seeded ones are left to others. */
  let staging: AddOnView;
  let sky: AddOnView;

  beforeAll(async () => {
    [admin, photographer, otherPhotographer, editor] = await Promise.all([
      aUserWithRoles(['admin']),
      aPhotographer(),
      aPhotographer(),
      anEditor(),
    ]);
    const suffix = ulid().slice(-6);
    const make = async (body: object) => {
      const response = await as(admin).post('/api/admin/job-types/add-ons', body);
      expect(response.status).toBe(201);
      return response.body as AddOnView;
    };
    staging = await make({
      name: `Staging ${suffix}`,
      pricePerPhotoCents: 2400,
      editorRatePerPhotoCents: 1450,
      sortOrder: 1,
    });
    sky = await make({ name: `Sky ${suffix}`, pricePerPhotoCents: 200, editorRatePerPhotoCents: 120, sortOrder: 2 });
  });

  it('lets admins keep the catalogue, refusing bad prices with a message per field', async () => {
    const listed = await as(admin).get('/api/admin/job-types/add-ons');
    expect(listed.status).toBe(200);
    const ids = (listed.body as AddOnView[]).map((a) => a.id);
    expect(ids).toEqual(expect.arrayContaining([staging.id, sky.id, 'virtual-staging', 'day-to-dusk']));

    const bad = await as(admin).post('/api/admin/job-types/add-ons', { name: ' ', pricePerPhotoCents: 1.5 });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('Name is required');
    expect(JSON.stringify(bad.body)).toContain('Amounts are whole cents');

    const withdrawn = await as(admin).post('/api/admin/job-types/add-ons', {
      name: `Withdrawn ${ulid().slice(-6)}`,
      pricePerPhotoCents: 100,
    });
    const off = await as(admin).patch(`/api/admin/job-types/add-ons/${withdrawn.body.id}`, { isActive: false });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ isActive: false, pricePerPhotoCents: 100 });

    // Photographers see what is offered, without the editor's rate.
    const offered = await as(photographer).get('/api/orders/add-ons');
    expect(offered.status).toBe(200);
    const offeredIds = (offered.body as OfferedAddOnView[]).map((a) => a.id);
    expect(offeredIds).toContain(staging.id);
    expect(offeredIds).not.toContain(withdrawn.body.id);
    expect(JSON.stringify(offered.body)).not.toContain('editorRatePerPhotoCents');
    expect((await as(photographer).get('/api/admin/job-types/add-ons')).status).toBe(403);
  });

  it('prices the order on the server, moves the payment intent to the total, and is paid at that total', async () => {
    const { created, orderId, keys } = await anOrderWithPhotos(photographer);
    const saved = await as(photographer).put(`/api/orders/${orderId}/add-ons`, {
      photos: [
        { key: keys[0], addOnIds: [staging.id, sky.id] },
        { key: keys[1], addOnIds: [staging.id] },
        { key: keys[2], addOnIds: [] },
      ],
    });
    expect(saved.status).toBe(200);
    const view = saved.body as OrderAddOnsView;
    // 3 × 8.00 + Staging 2 × 24.00 + Sky 1 × 2.00
    expect(view.price).toEqual({
      pricePerPhotoCents: 800,
      photoCount: 3,
      baseCents: 2400,
      surcharge: null,
      addOnsCents: 5000,
      totalCents: 7400,
      lines: [
        { addOnId: staging.id, name: staging.name, pricePerPhotoCents: 2400, photoCount: 2, amountCents: 4800 },
        { addOnId: sky.id, name: sky.name, pricePerPhotoCents: 200, photoCount: 1, amountCents: 200 },
      ],
    });
    expect(view.photos).toEqual([
      { key: keys[0], addOnIds: [staging.id, sky.id] },
      { key: keys[1], addOnIds: [staging.id] },
    ]);
    expect((await retrievePaymentIntent(created.order.stripePaymentIntentId)).amount).toBe(7400);
    const { data: payment } = await db().payment.get({ paymentIntentId: created.order.stripePaymentIntentId }).go();
    expect(payment?.amountCents).toBe(7400);

    // Saved again with one add-on fewer: the same route moves the amount back down.
    const fewer = await as(photographer).put(`/api/orders/${orderId}/add-ons`, {
      photos: [
        { key: keys[0], addOnIds: [staging.id] },
        { key: keys[1], addOnIds: [staging.id] },
      ],
    });
    expect(fewer.body.price.totalCents).toBe(7200);
    expect((await retrievePaymentIntent(created.order.stripePaymentIntentId)).amount).toBe(7200);

    // The order, the editor's view of it and the activity log say the same.
    const detail = await as(photographer).get(`/api/orders/${orderId}`);
    expect(detail.body).toMatchObject({
      totalAmountCents: 7200,
      addOns: [{ addOnId: staging.id, photoCount: 2, amountCents: 4800 }],
    });
    // The activity log (written by the outbox's worker, a moment later).
    const logged = await waitFor(
      async () =>
        (await db().orderEvent.query.byOrder({ orderId }).go()).data
          .filter((e) => e.eventType === 'add_ons_saved')
          .map((e) => e.description),
      (descriptions) => descriptions.length === 2,
    );
    expect(logged).toContain(`Add-ons: ${staging.name} ×2; total 72.00 USD`);

    expect(await confirmInBrowser(created)).toBe(200);
    const paid = await as(photographer).post(`/api/orders/${orderId}/payment-success`, {
      paymentIntentId: created.order.stripePaymentIntentId,
    });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: 'paid', totalAmountCents: 7200 });

    // Paid: the add-ons can no longer change, and nothing is written.
    const before = await snapshot(orderId);
    const late = await as(photographer).put(`/api/orders/${orderId}/add-ons`, { photos: [] });
    expect(late.status).toBe(409);
    expect(late.body.error).toBe('ADD_ONS_LOCKED');
    expect(await snapshot(orderId)).toEqual(before);

    // The payment's billing entry (and so its PDF receipt) lists the add-on line.
    const [entry] = await orderBillingEntries(orderId);
    expect(entry?.addOns).toEqual([{ name: staging.name, photoCount: 2, pricePerPhotoCents: 2400 }]);

    // What was paid stays whatever the admin changes later.
    await as(admin).patch(`/api/admin/job-types/add-ons/${sky.id}`, { pricePerPhotoCents: 250 });
    const kept = await as(photographer).get(`/api/orders/${orderId}/add-ons`);
    expect(kept.body.price.totalCents).toBe(7200);
    await as(admin).patch(`/api/admin/job-types/add-ons/${sky.id}`, { pricePerPhotoCents: 200 });

    // Cancelled by an admin: what was paid comes back, add-ons included.
    const cancelled = await as(admin).post(`/api/orders/admin/${orderId}/cancel`);
    expect(cancelled.status).toBe(200);
    expect((await getOrder(orderId))?.refundedAmountCents).toBe(7200);
  });

  it('prices add-ons on top of the turnaround tier the order kept', async () => {
    const { orderId, keys } = await anOrderWithPhotos(photographer, { turnaroundTier: 'express' });
    const saved = await as(photographer).put(`/api/orders/${orderId}/add-ons`, {
      photos: [{ key: keys[0], addOnIds: [staging.id] }],
    });
    expect(saved.status).toBe(200);
    const { price } = saved.body as OrderAddOnsView;
    // 3 × 8.00 + Express 3 × 3.00 (the seed's HDR surcharge) + Staging 1 × 24.00
    expect(price).toMatchObject({
      baseCents: 2400,
      surcharge: { label: 'Express (24 h)', perPhotoCents: 300, amountCents: 900 },
      addOnsCents: 2400,
      totalCents: 5700,
    });
    expect((await snapshot(orderId)).amount).toBe(5700);
  });

  it('refuses hostile selections with a clear 400 and writes nothing', async () => {
    const { orderId, keys } = await anOrderWithPhotos(photographer);
    const before = await snapshot(orderId);
    const refused = [
      { photos: [{ key: keys[0], addOnIds: ['no-such-add-on'] }] },
      { photos: [{ key: `orders/${ulid()}/originals/elsewhere.jpg`, addOnIds: [staging.id] }] },
      { photos: [{ key: keys[0], addOnIds: [staging.id] }], totalCents: 1 },
      { photos: [{ key: keys[0], addOnIds: [staging.id], pricePerPhotoCents: 1 }] },
      { photos: [{ key: keys[0], addOnIds: [staging.id, staging.id] }] },
      {
        photos: [
          { key: keys[0], addOnIds: [staging.id] },
          { key: keys[0], addOnIds: [sky.id] },
        ],
      },
      { photos: 'all' },
    ];
    for (const body of refused) {
      const response = await as(photographer).put(`/api/orders/${orderId}/add-ons`, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(typeof response.body.message).toBe('string');
    }
    const unknown = await as(photographer).put(`/api/orders/${orderId}/add-ons`, {
      photos: [{ key: keys[0], addOnIds: ['no-such-add-on'] }],
    });
    expect(unknown.body).toMatchObject({ error: 'UNKNOWN_ADD_ON', message: 'Please choose add-ons that are offered' });

    // Not the owner: the order does not exist for them.
    const stranger = await as(otherPhotographer).put(`/api/orders/${orderId}/add-ons`, {
      photos: [{ key: keys[0], addOnIds: [staging.id] }],
    });
    expect(stranger.status).toBe(404);
    expect(await snapshot(orderId)).toEqual(before);
  });

  it("adds each add-on's editor rate per photo to the editor's earning at delivery", async () => {
    const { created, orderId, keys } = await anOrderWithPhotos(photographer);
    await as(photographer).put(`/api/orders/${orderId}/add-ons`, {
      photos: [
        { key: keys[0], addOnIds: [staging.id, sky.id] },
        { key: keys[2], addOnIds: [sky.id] },
      ],
    });
    await confirmInBrowser(created);
    await as(photographer).post(`/api/orders/${orderId}/payment-success`, {
      paymentIntentId: created.order.stripePaymentIntentId,
    });
    const claimed = await claimOrder({
      orderId,
      editor: { userId: editor.uid, name: 'Eddie Editor', email: editor.email },
      rateCents: 250,
    });
    expect(claimed).not.toBeNull();
    const editorView = await as(editor).get(`/api/orders/${orderId}/add-ons`);
    expect(editorView.status).toBe(200);
    expect(editorView.body.photos).toEqual([
      { key: keys[0], addOnIds: [staging.id, sky.id] },
      { key: keys[2], addOnIds: [sky.id] },
    ]);
    await registerEdited({
      order: (await getOrder(orderId))!,
      editorId: editor.uid,
      key: `${editedPrefix(orderId)}${ulid()}-room-0.jpg`,
      filename: 'room-0.jpg',
      size: 1000,
      lastModified: new Date().toISOString(),
    });
    await completeOrder({ orderId, editorId: editor.uid });
    // 3 × 2.50 + Staging 1 × 14.50 + Sky 2 × 1.20
    const earning = await getEarning(orderId, { consistent: true });
    expect(earning?.amountCents).toBe(750 + 1450 + 240);
  });
});
