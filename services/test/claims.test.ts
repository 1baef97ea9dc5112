import { FALLBACK_EDITOR_RATE_CENTS } from '@marketplace/events/editor-orders';
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { assignOrder } from '../src/data/admin-assignment';
import { setEditorRate } from '../src/data/editor-rates';
import { upsertJobType } from '../src/data/job-types';
import { completeOrder, createOrder, getOrder, markOrderPaid, nextOrderNumber } from '../src/data/orders';
import { aPhotographer, as, aUserWithRoles, call, db, type TestAccount, waitFor } from './support';

/** A paid order through the data layer, open to every editor. */
const aPaidOrder = async (
  photographer: TestAccount,
  { photoCount = 4, jobTypeId = 'hdr' }: { photoCount?: number; jobTypeId?: string } = {},
) => {
  const orderId = ulid();
  const order = await createOrder({
    orderId,
    orderNumber: await nextOrderNumber(),
    photographer: { userId: photographer.uid, name: 'Claire Camera' },
    jobType: { jobTypeId, name: 'HDR', pricePerPhotoCents: 800 },
    input: { photoCount },
    totalAmountCents: photoCount * 800,
    stripePaymentIntentId: `pi_test_${orderId}`,
  });
  await markOrderPaid({
    orderId,
    paymentIntentId: `pi_test_${orderId}`,
    amountCents: order.totalAmountCents,
    via: 'client',
  });
  return (await getOrder(orderId))!;
};

/** An admin's assignment: the order is offered to this editor only. */
const assignTo = (orderId: string, editor: TestAccount) =>
  assignOrder({ orderId, editorId: editor.uid, adminId: 'claims-test-admin' });

const anEditor = (displayName = 'Eddie Editor') => aUserWithRoles(['editor'], { displayName });

/** Marks an edited file as delivered, as the editor's upload would. */
const deliverOneEdit = (orderId: string) => db().order.update({ orderId }).add({ editorUploadCount: 1 }).go();

describe('claiming an order', () => {
  it('lets exactly one of 50 simultaneous editors win and records one order_claimed event', async () => {
    const photographer = await aPhotographer();
    const [order, editors] = await Promise.all([
      aPaidOrder(photographer),
      Promise.all(Array.from({ length: 50 }, (_, i) => anEditor(`Racer ${i}`))),
    ]);

    const responses = await Promise.all(editors.map((editor) => as(editor).post(`/api/orders/${order.orderId}/claim`)));

    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    const loser = responses.find((r) => r.status === 409)!;
    expect(loser.body.message).toBe('This order has already been claimed');
    const winnerIndex = responses.findIndex((r) => r.status === 200);
    expect(responses[winnerIndex]!.body).toMatchObject({ id: order.orderId, status: 'in_progress' });
    const stored = await getOrder(order.orderId);
    expect(stored).toMatchObject({ editorId: editors[winnerIndex]!.uid, status: 'in_progress' });
    expect(stored?.pool).toBeUndefined();
    const claimed = await waitFor(
      async () => (await db().orderEvent.query.byOrder({ orderId: order.orderId }).go()).data,
      (events) => events.some((e) => e.eventType === 'order_claimed'),
    );
    await new Promise((r) => setTimeout(r, 1000));
    const events = (await db().orderEvent.query.byOrder({ orderId: order.orderId }).go()).data;
    expect(claimed.length).toBeGreaterThan(0);
    expect(events.filter((e) => e.eventType === 'order_claimed')).toHaveLength(1);
  }, 120_000);

  it('fixes the editor’s own rate on the order, else the job type’s default, else the fallback', async () => {
    const photographer = await aPhotographer();
    const jobTypeId = `job-${ulid()}`;
    await upsertJobType({
      jobTypeId,
      name: 'Rate test',
      pricePerPhotoCents: 800,
      defaultEditorPriceCents: 333,
      isActive: true,
    });
    const [withRate, withoutRate, editor, another] = await Promise.all([
      aPaidOrder(photographer, { jobTypeId }),
      aPaidOrder(photographer, { jobTypeId }),
      anEditor(),
      anEditor(),
    ]);
    const unknownJob = await aPaidOrder(photographer, { jobTypeId: `gone-${ulid()}` });
    await setEditorRate({ editorId: editor.uid, jobTypeId, ratePerPhotoCents: 420 });

    expect((await as(editor).post(`/api/orders/${withRate.orderId}/claim`)).status).toBe(200);
    expect((await as(another).post(`/api/orders/${withoutRate.orderId}/claim`)).status).toBe(200);
    expect((await as(another).post(`/api/orders/${unknownJob.orderId}/claim`)).status).toBe(200);

    expect((await getOrder(withRate.orderId))?.editorRateCents).toBe(420);
    expect((await getOrder(withoutRate.orderId))?.editorRateCents).toBe(333);
    expect((await getOrder(unknownJob.orderId))?.editorRateCents).toBe(FALLBACK_EDITOR_RATE_CENTS);
  });

  it('lets only the editor an order is assigned to claim it', async () => {
    const photographer = await aPhotographer();
    const [order, editorA, editorB] = await Promise.all([aPaidOrder(photographer), anEditor('Ann'), anEditor('Ben')]);
    await assignTo(order.orderId, editorA);

    const availableToB = await as(editorB).get('/api/orders/available?limit=50');
    const availableToA = await as(editorA).get('/api/orders/available?limit=50');
    expect(availableToB.body.orders.map((o: { id: string }) => o.id)).not.toContain(order.orderId);
    expect(availableToA.body.orders.find((o: { id: string }) => o.id === order.orderId)).toMatchObject({
      assignedToMe: true,
    });

    expect((await as(editorB).post(`/api/orders/${order.orderId}/claim`)).status).toBe(404);
    const claimedByA = await as(editorA).post(`/api/orders/${order.orderId}/claim`);
    expect(claimedByA.status).toBe(200);
    expect(claimedByA.body.editor).toMatchObject({ displayName: 'Ann' });
    expect((await as(editorB).post(`/api/orders/${order.orderId}/claim`)).status).toBe(409);
  });

  it('refuses an unpaid order as unknown', async () => {
    const photographer = await aPhotographer();
    const orderId = ulid();
    await createOrder({
      orderId,
      orderNumber: await nextOrderNumber(),
      photographer: { userId: photographer.uid, name: 'Claire Camera' },
      jobType: { jobTypeId: 'hdr', name: 'HDR', pricePerPhotoCents: 800 },
      input: { photoCount: 1 },
      totalAmountCents: 800,
      stripePaymentIntentId: `pi_test_${orderId}`,
    });
    const editor = await anEditor();
    expect((await as(editor).post(`/api/orders/${orderId}/claim`)).status).toBe(404);
    expect((await getOrder(orderId))?.status).toBe('pending_payment');
  });

  it('is for editors only: a photographer gets 403 and an anonymous caller 401', async () => {
    const photographer = await aPhotographer();
    const order = await aPaidOrder(photographer);
    expect((await as(photographer).post(`/api/orders/${order.orderId}/claim`)).status).toBe(403);
    expect((await call(`/api/orders/${order.orderId}/claim`, { method: 'POST' })).status).toBe(401);
    for (const path of ['/api/orders/available', '/api/orders/my-assignments', '/api/stats/editor']) {
      expect((await as(photographer).get(path)).status).toBe(403);
      expect((await call(path)).status).toBe(401);
    }
    expect((await getOrder(order.orderId))?.status).toBe('paid');
  });
});

describe('an editor’s assignments and stats', () => {
  it('lists only this editor’s orders in progress, with the earning at the claimed rate', async () => {
    const photographer = await aPhotographer();
    const [editor, other] = await Promise.all([anEditor(), anEditor()]);
    const [mine, done, theirs, offeredToMe] = await Promise.all([
      aPaidOrder(photographer, { photoCount: 3 }),
      aPaidOrder(photographer),
      aPaidOrder(photographer),
      aPaidOrder(photographer),
    ]);
    await setEditorRate({ editorId: editor.uid, jobTypeId: 'hdr', ratePerPhotoCents: 200 });
    for (const order of [mine, done]) {
      expect((await as(editor).post(`/api/orders/${order.orderId}/claim`)).status).toBe(200);
    }
    expect((await as(other).post(`/api/orders/${theirs.orderId}/claim`)).status).toBe(200);
    await assignTo(offeredToMe.orderId, editor);
    await deliverOneEdit(done.orderId);
    await completeOrder({ orderId: done.orderId, editorId: editor.uid });

    const response = await as(editor).get('/api/orders/my-assignments');

    expect(response.status).toBe(200);
    expect(response.body.orders.map((o: { id: string }) => o.id)).toEqual([mine.orderId]);
    expect(response.body.orders[0]).toMatchObject({
      status: 'in_progress',
      potentialEarningsCents: 600,
      photographerUploadCount: 0,
      editorUploadCount: 0,
    });
  });

  it('moves the stats with each claim and completion', async () => {
    const photographer = await aPhotographer();
    const editor = await anEditor();
    const [first, second] = await Promise.all([
      aPaidOrder(photographer, { photoCount: 5 }),
      aPaidOrder(photographer, { photoCount: 2 }),
    ]);
    await setEditorRate({ editorId: editor.uid, jobTypeId: 'hdr', ratePerPhotoCents: 150 });
    expect((await as(editor).get('/api/stats/editor')).body).toEqual({
      activeOrders: 0,
      completedOrders: 0,
      totalEarnings: 0,
      pendingPayouts: 0,
    });

    await as(editor).post(`/api/orders/${first.orderId}/claim`);
    await as(editor).post(`/api/orders/${second.orderId}/claim`);
    expect((await as(editor).get('/api/stats/editor')).body).toMatchObject({ activeOrders: 2, completedOrders: 0 });

    await deliverOneEdit(first.orderId);
    await completeOrder({ orderId: first.orderId, editorId: editor.uid });
    expect((await as(editor).get('/api/stats/editor')).body).toEqual({
      activeOrders: 1,
      completedOrders: 1,
      totalEarnings: 750,
      pendingPayouts: 750,
    });
  });
});
