import { type AvailableOrdersResponse, TIER_FILTER_NEEDS_DUE_SORT } from '@marketplace/events/editor-orders';
import type { CreateOrderResponse, OrderDetailView } from '@marketplace/events/orders';
import { lateCreditCents, turnaroundHours } from '@marketplace/events/turnaround';
import { ulid } from 'ulid';
import { beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_STRIPE_PUBLISHABLE_KEY, LOCAL_STRIPE_SECRET_KEY } from '../local/stack';
import { orderBillingEntries } from '../src/data/billing';
import { upsertJobType } from '../src/data/job-types';
import { creditLateDelivery } from '../src/data/late-credits';
import { claimOrder, completeOrder, getOrder, registerEdited, registerOriginal } from '../src/data/orders';
import { getRevision, requestRevision } from '../src/data/revisions';
import { priceOrder } from '../src/domain/orders';
import { handler } from '../src/workers/credit-late-delivery';
import { anEditor, aPhotographer, as, db, outboxStreamRecord, sqsEvent, type TestAccount, waitFor } from './support';

/** Turnaround tiers: the server's price, the due time per tier, and the credit for a late delivery. */
const HOUR_MS = 60 * 60 * 1000;
let jobTypeId: string;

beforeAll(async () => {
  jobTypeId = `tiers-${ulid().toLowerCase()}`;
  await upsertJobType({
    jobTypeId,
    // Not "HDR": the browser tests pick the seeded HDR service by that word, and this one stays offered.
    name: `Tiered service ${jobTypeId}`,
    pricePerPhotoCents: 800,
    defaultEditorPriceCents: 50,
    tierSurchargeCents: { express: 300, rush: 600 },
    isActive: true,
  });
});

const stripeUrl = () => process.env.STRIPE_API_URL!;

const refundsAtStripe = async (paymentIntentId: string) => {
  const response = await fetch(`${stripeUrl()}/v1/refunds?payment_intent=${paymentIntentId}`, {
    headers: { authorization: `Bearer ${LOCAL_STRIPE_SECRET_KEY}` },
  });
  return ((await response.json()) as { data: { id: string; amount: number }[] }).data;
};

/** An order made and paid through the API, as the browser does it. */
const aPaidOrder = async (photographer: TestAccount, body: Record<string, unknown>) => {
  const createdResponse = await as(photographer).post('/api/orders', { jobTypeId, photoCount: 2, ...body });
  expect(createdResponse.status).toBe(201);
  const created = createdResponse.body as CreateOrderResponse;
  for (let i = 0; i < 2; i++) {
    await registerOriginal({
      order: (await getOrder(created.order.id))!,
      key: `orders/${created.order.id}/originals/photo-${i}.jpg`,
      filename: `photo-${i}.jpg`,
      size: 1000,
      contentType: 'image/jpeg',
      lastModified: new Date().toISOString(),
    });
  }
  const confirmed = await fetch(`${stripeUrl()}/v1/payment_intents/${created.order.stripePaymentIntentId}/confirm`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${LOCAL_STRIPE_PUBLISHABLE_KEY}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ payment_method: 'pm_card_visa', client_secret: created.stripeClientSecret }),
  });
  expect(confirmed.status).toBe(200);
  const paid = await as(photographer).post(`/api/orders/${created.order.id}/payment-success`, {
    paymentIntentId: created.order.stripePaymentIntentId,
  });
  expect(paid.status).toBe(200);
  return (await getOrder(created.order.id))!;
};

const editedFile = async (orderId: string, editor: TestAccount, filename: string) =>
  registerEdited({
    order: (await getOrder(orderId))!,
    editorId: editor.uid,
    key: `orders/${orderId}/edited/${ulid()}-${filename}`,
    filename,
    size: 300,
    lastModified: new Date().toISOString(),
  });

/** Claimed, one edited file in, ready to deliver. */
const inProgress = async (orderId: string, editor: TestAccount) => {
  await claimOrder({
    orderId,
    editor: { userId: editor.uid, name: 'Erin Editor', email: editor.email },
    rateCents: 50,
  });
  await editedFile(orderId, editor, 'front.jpg');
};

/** Moves the due time into the past, as if the editor had taken this long. */
const dueAgo = (orderId: string, ms: number) =>
  db()
    .order.patch({ orderId })
    .set({ dueAt: new Date(Date.now() - ms).toISOString() })
    .go();

/** The order's delivery events once the event log holds this many (it stores them from the outbox). */
const completedEvents = (orderId: string, count = 1) =>
  waitFor(
    async () =>
      (
        (await db().orderEvent.query.byOrder({ orderId }).go()).data as { eventType: string; metadata?: unknown }[]
      ).filter((e) => e.eventType === 'order_completed'),
    (events) => events.length >= count,
  );

describe('turnaround tiers', () => {
  it('prices a tier in one function: base, surcharge, total and lines, in cents', () => {
    const jobType = { name: 'HDR', pricePerPhotoCents: 800, tierSurchargeCents: { express: 300, rush: 600 } };
    expect(priceOrder({ photoCount: 3, jobType, tier: 'standard' })).toEqual({
      baseCents: 2400,
      surchargeCents: 0,
      addOnsCents: 0,
      totalCents: 2400,
      lines: [{ kind: 'base', label: 'HDR', quantity: 3, unitCents: 800, amountCents: 2400 }],
      addOnLines: [],
    });
    // With add-ons, each adds its photos times its price to the tier's total.
    const staging = {
      addOnId: 'staging',
      name: 'Virtual staging',
      pricePerPhotoCents: 2400,
      editorRatePerPhotoCents: 1400,
      photoCount: 2,
    };
    expect(priceOrder({ photoCount: 3, jobType, tier: 'express', addOns: [staging] })).toMatchObject({
      baseCents: 2400,
      surchargeCents: 900,
      addOnsCents: 4800,
      totalCents: 8100,
    });
    // Later changes price from the surcharge the order kept, not the job type's current one.
    expect(
      priceOrder({ photoCount: 3, jobType, tier: 'express', surchargePerPhotoCents: 100, addOns: [staging] })
        .totalCents,
    ).toBe(2400 + 300 + 4800);
    const rush = priceOrder({ photoCount: 3, jobType, tier: 'rush' });
    expect(rush).toMatchObject({ baseCents: 2400, surchargeCents: 1800, totalCents: 4200 });
    expect(rush.lines[1]).toEqual({
      kind: 'surcharge',
      label: 'Rush (12 h)',
      quantity: 3,
      unitCents: 600,
      amountCents: 1800,
    });
    // A job type made before tiers has no surcharge.
    expect(
      priceOrder({ photoCount: 1, jobType: { name: 'Old', pricePerPhotoCents: 500 }, tier: 'express' }),
    ).toMatchObject({ totalCents: 500, surchargeCents: 0 });
  });

  it('charges an Express order the price the server computed, never one from the browser, and dues it in 24 h', async () => {
    const photographer = await aPhotographer();
    const created = await as(photographer).post('/api/orders', {
      jobTypeId,
      photoCount: 2,
      turnaroundTier: 'express',
      totalAmountCents: 1,
      surchargeCents: 0,
    });
    expect(created.status).toBe(201);
    const body = created.body as CreateOrderResponse;
    expect(body.order.totalAmountCents).toBe(2 * (800 + 300));
    const intent = await (
      await fetch(`${stripeUrl()}/v1/payment_intents/${body.order.stripePaymentIntentId}`, {
        headers: { authorization: `Bearer ${LOCAL_STRIPE_SECRET_KEY}` },
      })
    ).json();
    expect((intent as { amount: number }).amount).toBe(2200);

    const order = await aPaidOrder(photographer, { turnaroundTier: 'express' });
    expect(order).toMatchObject({ turnaroundTier: 'express', surchargePerPhotoCents: 300, totalAmountCents: 2200 });
    expect(Date.parse(order.dueAt!) - Date.parse(order.paidAt!)).toBe(turnaroundHours.express * HOUR_MS);
    const view = (await as(photographer).get(`/api/orders/${order.orderId}`)).body as OrderDetailView;
    expect(view).toMatchObject({ turnaroundTier: 'express', surchargePerPhotoCents: 300, lateCredits: [] });
  });

  it('dues each tier its own hours from payment; no tier is Standard (48 h)', async () => {
    const photographer = await aPhotographer();
    for (const [body, hours] of [
      [{}, 48],
      [{ turnaroundTier: 'standard' }, 48],
      [{ turnaroundTier: 'rush' }, 12],
    ] as const) {
      const order = await aPaidOrder(photographer, body);
      expect(Date.parse(order.dueAt!) - Date.parse(order.paidAt!), JSON.stringify(body)).toBe(hours * HOUR_MS);
    }
  });

  it('refuses an unknown tier with a clear 400 and writes nothing', async () => {
    const photographer = await aPhotographer();
    for (const turnaroundTier of ['overnight', '', 12, null, { tier: 'rush' }]) {
      const response = await as(photographer).post('/api/orders', { jobTypeId, photoCount: 2, turnaroundTier });
      expect(response.status, JSON.stringify(turnaroundTier)).toBe(400);
      expect(response.body.message).toBe('Please choose Standard, Express or Rush');
    }
    const mine = await db().order.query.byPhotographer({ photographerId: photographer.uid }).go();
    expect(mine.data).toHaveLength(0);
  });
});

describe('the pool by time left', () => {
  it('lists one tier soonest due first with its total, and refuses an unknown tier or a tier without sort=due', async () => {
    const [photographer, editor] = await Promise.all([aPhotographer(), anEditor()]);
    // Paid one after the other: the first is due first.
    const rushOrders = [
      await aPaidOrder(photographer, { turnaroundTier: 'rush' }),
      await aPaidOrder(photographer, { turnaroundTier: 'rush' }),
    ];
    await aPaidOrder(photographer, { turnaroundTier: 'express' });

    const listed = await as(editor).get('/api/orders/available?sort=due&tier=rush&limit=50');
    expect(listed.status).toBe(200);
    const body = listed.body as AvailableOrdersResponse;
    expect(body.orders.every((o) => o.turnaroundTier === 'rush')).toBe(true);
    const dues = body.orders.map((o) => o.dueAt!);
    expect(dues).toEqual([...dues].sort());
    const mine = body.orders.filter((o) => rushOrders.some((r) => r.orderId === o.id)).map((o) => o.id);
    expect(mine).toEqual(rushOrders.map((r) => r.orderId));
    expect(body.total).toBeGreaterThanOrEqual(2);

    for (const [query, message] of [
      ['sort=due&tier=warp', 'Please choose Standard, Express or Rush'],
      ['tier=rush', TIER_FILTER_NEEDS_DUE_SORT],
      ['sort=highest-price&tier=express', TIER_FILTER_NEEDS_DUE_SORT],
    ] as const) {
      const refused = await as(editor).get(`/api/orders/available?${query}`);
      expect(refused.status, query).toBe(400);
      expect(JSON.stringify(refused.body), query).toContain(message);
    }
  });
});

describe('late delivery credit', () => {
  it('computes 1% of the total per full 15 minutes late, capped at 50%, in whole cents', () => {
    expect(lateCreditCents(2200, 0)).toBe(0);
    expect(lateCreditCents(2200, 14)).toBe(0);
    expect(lateCreditCents(2200, 15)).toBe(22);
    expect(lateCreditCents(2200, 180)).toBe(264);
    expect(lateCreditCents(999, 45)).toBe(29);
    expect(lateCreditCents(2200, 60 * 48)).toBe(1100);
  });

  it('credits a late delivery once at Stripe, even when its event is delivered twice', async () => {
    const photographer = await aPhotographer();
    const editor = await anEditor();
    const order = await aPaidOrder(photographer, { turnaroundTier: 'express' });
    await inProgress(order.orderId, editor);
    // Three hours and a few seconds late: 12 full quarter hours, 12% of $22.00.
    await dueAgo(order.orderId, 3 * HOUR_MS + 5_000);
    await completeOrder({ orderId: order.orderId, editorId: editor.uid });

    const delivered = (await getOrder(order.orderId))!;
    expect(delivered).toMatchObject({ lateMinutes: 180, lateCreditCents: 264 });
    const [event] = await completedEvents(order.orderId);
    expect(event?.metadata).toMatchObject({ minutesLate: 180, lateCreditCents: 264, turnaroundTier: 'express' });

    const redelivered = JSON.stringify(outboxStreamRecord(event as Record<string, unknown>));
    const answers = [
      await handler(sqsEvent('late-credits', [redelivered, redelivered])),
      await handler(sqsEvent('late-credits', [redelivered])),
    ];
    expect(answers).toEqual([{ batchItemFailures: [] }, { batchItemFailures: [] }]);
    expect(await creditLateDelivery(order.orderId, 0)).toBe('credited-before');

    const refunds = await refundsAtStripe(order.stripePaymentIntentId!);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.amount).toBe(264);
    const credited = (await getOrder(order.orderId))!;
    expect(credited.lateCreditRefundId).toBe(refunds[0]!.id);
    // One billing entry (its receipt follows from its event), with the credit's words on it.
    const entries = (await orderBillingEntries(order.orderId)).filter((entry) => entry.kind === 'refund');
    expect(entries).toMatchObject([{ amountCents: 264, creditNote: 'Delivered 3 h late: $2.64 credited' }]);

    const view = (await as(photographer).get(`/api/orders/${order.orderId}`)).body as OrderDetailView;
    expect(view.lateCredits).toEqual([
      {
        round: 0,
        minutesLate: 180,
        creditCents: 264,
        refundId: refunds[0]!.id,
        text: 'Delivered 3 h late: $2.64 credited',
      },
    ]);
    // The editor's earning is left as booked: the marketplace bears the credit (decision 0111).
    expect((await db().earning.get({ orderId: order.orderId }).go()).data).toMatchObject({ amountCents: 100 });
  });

  it('credits nothing for an on-time delivery', async () => {
    const photographer = await aPhotographer();
    const editor = await anEditor();
    const order = await aPaidOrder(photographer, { turnaroundTier: 'rush' });
    await inProgress(order.orderId, editor);
    await completeOrder({ orderId: order.orderId, editorId: editor.uid });
    const delivered = (await getOrder(order.orderId))!;
    expect(delivered.lateMinutes).toBeUndefined();
    const [event] = await completedEvents(order.orderId);
    const answer = await handler(sqsEvent('late-credits', [JSON.stringify(outboxStreamRecord(event as never))]));
    expect(answer).toEqual({ batchItemFailures: [] });
    expect(await refundsAtStripe(order.stripePaymentIntentId!)).toEqual([]);
    const view = (await as(photographer).get(`/api/orders/${order.orderId}`)).body as OrderDetailView;
    expect(view.lateCredits).toEqual([]);
  });

  it("dues a revision round the tier's hours from the request and credits its late re-delivery once", async () => {
    const photographer = await aPhotographer();
    const editor = await anEditor();
    const order = await aPaidOrder(photographer, { turnaroundTier: 'rush' });
    await inProgress(order.orderId, editor);
    await completeOrder({ orderId: order.orderId, editorId: editor.uid });
    await requestRevision({ order: (await getOrder(order.orderId))!, input: { note: 'Brighter sky', photoNotes: [] } });
    const revision = (await getRevision(order.orderId, 1))!;
    expect(Date.parse(revision.dueAt!) - Date.parse(revision.requestedAt)).toBe(12 * HOUR_MS);

    // 50 minutes late: 3 full quarter hours, 3% of $28.00.
    await db()
      .orderRevision.patch({ orderId: order.orderId, round: 1 })
      .set({ dueAt: new Date(Date.now() - 50 * 60_000).toISOString() })
      .go();
    await editedFile(order.orderId, editor, 'front-v2.jpg');
    await completeOrder({ orderId: order.orderId, editorId: editor.uid });
    expect(await getRevision(order.orderId, 1)).toMatchObject({ lateMinutes: 50, lateCreditCents: 84 });

    const events = await completedEvents(order.orderId, 2);
    const redelivery = JSON.stringify(outboxStreamRecord(events.at(-1) as never));
    await handler(sqsEvent('late-credits', [redelivery, redelivery]));
    const refunds = await refundsAtStripe(order.stripePaymentIntentId!);
    expect(refunds.map((r) => r.amount)).toEqual([84]);
    const view = (await as(photographer).get(`/api/orders/${order.orderId}`)).body as OrderDetailView;
    expect(view.lateCredits).toMatchObject([{ round: 1, minutesLate: 50, creditCents: 84 }]);
    expect(view.lateCredits[0]!.text).toBe('Delivered 50 min late: $0.84 credited');
  });
});
