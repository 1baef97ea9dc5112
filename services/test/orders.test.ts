import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import {
  claimOrder,
  completeOrder,
  createOrder,
  getOrder,
  markOrderPaid,
  nextOrderNumber,
  registerEdited,
} from '../src/data/orders';
import { aNewAccount, anEditor, aPhotographer, as, call, db, type TestAccount, waitFor } from './support';

/** An order awaiting payment, made through the data layer (no card provider involved). */
const anOrder = async (
  photographer: TestAccount,
  { photoCount = 2, name }: { photoCount?: number; name?: string } = {},
) => {
  const orderId = ulid();
  return createOrder({
    orderId,
    orderNumber: await nextOrderNumber(),
    photographer: { userId: photographer.uid, name: 'Test Photographer' },
    jobType: { jobTypeId: 'hdr', name: 'HDR', pricePerPhotoCents: 800 },
    input: { photoCount, ...(name ? { name } : {}) },
    totalAmountCents: photoCount * 800,
    stripePaymentIntentId: `pi_test_${orderId}`,
  });
};

const aPaidOrder = async (photographer: TestAccount, options: { photoCount?: number } = {}) => {
  const order = await anOrder(photographer, options);
  await markOrderPaid({
    orderId: order.orderId,
    paymentIntentId: order.stripePaymentIntentId!,
    amountCents: order.totalAmountCents,
    via: 'client',
  });
  return order;
};

const aCompletedOrder = async (photographer: TestAccount) => {
  const order = await aPaidOrder(photographer);
  const editor = await anEditor({ displayName: 'Eve Editor' });
  const claimed = await claimOrder({
    orderId: order.orderId,
    editor: { userId: editor.uid, name: 'Eve Editor', email: editor.email },
    rateCents: 250,
  });
  // An order is completed only with at least one edited file delivered.
  await registerEdited({
    order: claimed,
    editorId: editor.uid,
    key: `orders/${order.orderId}/edited/front.jpg`,
    filename: 'front.jpg',
    size: 1000,
    lastModified: new Date().toISOString(),
  });
  await completeOrder({ orderId: order.orderId, editorId: editor.uid, editorNotes: 'Brightened every room.' });
  return { order, editor };
};

const eventsOf = async (orderId: string) => (await db().orderEvent.query.byOrder({ orderId }).go()).data;

describe('creating an order', () => {
  it('prices the order on the server and ignores any price or total the client sends', async () => {
    const photographer = await aPhotographer({ displayName: 'Pat Price' });
    const response = await as(photographer).post('/api/orders', {
      jobTypeId: 'hdr',
      photoCount: 3,
      name: 'Maple Street',
      editingRequirements: 'Bright and airy',
      totalAmountCents: 1,
      pricePerPhotoCents: 1,
    });
    expect(response.status).toBe(201);
    expect(response.body.order).toMatchObject({
      totalAmountCents: 2400,
      photoCount: 3,
      name: 'Maple Street',
      status: 'pending_payment',
    });
    expect(response.body.order.stripePaymentIntentId).toMatch(/^pi_/);
    expect(response.body.stripeClientSecret).toContain(`${response.body.order.stripePaymentIntentId}_secret_`);
    const stored = await getOrder(response.body.order.id);
    expect(stored).toMatchObject({ totalAmountCents: 2400, pricePerPhotoCents: 800, photographerId: photographer.uid });
  });

  it('records order_created in the activity log through the outbox', async () => {
    const photographer = await aPhotographer();
    const order = await anOrder(photographer);
    const events = await waitFor(
      () => eventsOf(order.orderId),
      (found) => found.length > 0,
    );
    expect(events.map((e) => e.eventType)).toEqual(['order_created']);
  });

  it('refuses a bad photo count or an unknown service with a clear message and writes nothing', async () => {
    const photographer = await aPhotographer();
    const cases: [unknown, string][] = [
      [{ jobTypeId: 'hdr', photoCount: 0 }, 'Minimum 1 photo'],
      [{ jobTypeId: 'hdr', photoCount: 101 }, 'Maximum 100 photos'],
      [{ jobTypeId: 'hdr' }, 'Photo count is required'],
      [{ photoCount: 2 }, 'Please select a service type'],
      [{ jobTypeId: 'no-such-service', photoCount: 2 }, 'Please select a service type that is offered'],
    ];
    for (const [body, message] of cases) {
      const response = await as(photographer).post('/api/orders', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.message).toBe(message);
    }
    const mine = await db().order.query.byPhotographer({ photographerId: photographer.uid }).go();
    expect(mine.data).toHaveLength(0);
  });

  it('is for photographers: an editor gets 403 and nobody signed in gets 401', async () => {
    const editor = await anEditor();
    expect((await as(editor).post('/api/orders', { jobTypeId: 'hdr', photoCount: 1 })).status).toBe(403);
    expect((await call('/api/orders', { method: 'POST', body: { jobTypeId: 'hdr', photoCount: 1 } })).status).toBe(401);
  });
});

describe("a photographer's orders", () => {
  it('lists only their own orders, newest first, with the total', async () => {
    const photographer = await aPhotographer();
    const other = await aPhotographer();
    const first = await anOrder(photographer, { name: 'First' });
    const second = await anOrder(photographer, { name: 'Second' });
    await anOrder(other);
    const response = await as(photographer).get('/api/orders/my');
    expect(response.status).toBe(200);
    expect(response.body.orders.map((o: { id: string }) => o.id)).toEqual([second.orderId, first.orderId]);
    expect(response.body.total).toBe(2);
  });

  it('pages through the list with a cursor', async () => {
    const photographer = await aPhotographer();
    for (let i = 0; i < 3; i += 1) await anOrder(photographer);
    const page1 = await as(photographer).get('/api/orders/my?limit=2');
    expect(page1.body.orders).toHaveLength(2);
    expect(page1.body.nextCursor).toBeTruthy();
    const page2 = await as(photographer).get(
      `/api/orders/my?limit=2&cursor=${encodeURIComponent(page1.body.nextCursor)}`,
    );
    expect(page2.body.orders).toHaveLength(1);
  });

  it('shows an order to its photographer and answers 404 to anyone else', async () => {
    const photographer = await aPhotographer();
    const order = await anOrder(photographer, { name: 'Private' });
    const mine = await as(photographer).get(`/api/orders/${order.orderId}`);
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ id: order.orderId, name: 'Private', photographerUploadCount: 0, editor: null });
    expect((await as(await aPhotographer()).get(`/api/orders/${order.orderId}`)).status).toBe(404);
    // An unpaid order is offered to no editor.
    expect((await as(await anEditor()).get(`/api/orders/${order.orderId}`)).status).toBe(404);
    expect((await call(`/api/orders/${order.orderId}`)).status).toBe(401);
    expect((await as(photographer).get('/api/orders/NOSUCHORDER0000000000')).status).toBe(404);
  });

  it('lists the images of an order to its photographer only', async () => {
    const photographer = await aPhotographer();
    const order = await anOrder(photographer);
    const images = await as(photographer).get(`/api/orders/${order.orderId}/images`);
    expect(images).toMatchObject({ status: 200, body: { images: [] } });
    expect((await as(await aPhotographer()).get(`/api/orders/${order.orderId}/images`)).status).toBe(404);
  });

  it('marks a paid order with a due time 48 hours after payment', async () => {
    const photographer = await aPhotographer();
    const order = await aPaidOrder(photographer);
    const detail = await as(photographer).get(`/api/orders/${order.orderId}`);
    expect(detail.body.status).toBe('paid');
    expect(new Date(detail.body.dueAt).getTime() - new Date(detail.body.paidAt).getTime()).toBe(48 * 3600 * 1000);
    expect(detail.body.isLate).toBe(false);
  });
});

describe('photographer stats', () => {
  it('come from counters kept by the writes', async () => {
    const photographer = await aPhotographer();
    await anOrder(photographer, { photoCount: 2 });
    await aPaidOrder(photographer, { photoCount: 3 });
    const stats = await as(photographer).get('/api/stats/photographer');
    expect(stats.body).toEqual({ totalOrders: 2, totalPhotos: 5, totalSpent: 2400, activeOrders: 1 });
    expect((await as(await anEditor()).get('/api/stats/photographer')).status).toBe(403);
  });

  it('count a payment once however often it is confirmed', async () => {
    const photographer = await aPhotographer();
    const order = await anOrder(photographer, { photoCount: 1 });
    const confirm = () =>
      markOrderPaid({
        orderId: order.orderId,
        paymentIntentId: order.stripePaymentIntentId!,
        amountCents: 800,
        via: 'webhook',
      });
    const results = await Promise.all(Array.from({ length: 8 }, confirm));
    expect(results.filter((r) => r === 'paid')).toHaveLength(1);
    const stats = await as(photographer).get('/api/stats/photographer');
    expect(stats.body).toMatchObject({ totalSpent: 800, activeOrders: 1 });
  });
});

describe('rating the editor', () => {
  it('takes one rating from 1 to 10 on a completed order and shows it on the order', async () => {
    const photographer = await aPhotographer();
    const { order } = await aCompletedOrder(photographer);
    for (const rating of [0, 11, 9.5, '9']) {
      expect(
        (await as(photographer).post(`/api/orders/${order.orderId}/rate`, { rating })).status,
        String(rating),
      ).toBe(400);
    }
    const rated = await as(photographer).post(`/api/orders/${order.orderId}/rate`, { rating: 9 });
    expect(rated.status).toBe(200);
    expect(rated.body.photographerRating).toBe(9);
    const again = await as(photographer).post(`/api/orders/${order.orderId}/rate`, { rating: 3 });
    expect(again).toMatchObject({ status: 409, body: { message: 'This order has already been rated' } });
    expect((await getOrder(order.orderId))?.photographerRating).toBe(9);
  });

  it('lets exactly one of two simultaneous ratings through', async () => {
    const photographer = await aPhotographer();
    const { order } = await aCompletedOrder(photographer);
    const results = await Promise.all(
      [7, 8].map((rating) => as(photographer).post(`/api/orders/${order.orderId}/rate`, { rating })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const events = await waitFor(
      () => eventsOf(order.orderId),
      (found) => found.some((e) => e.eventType === 'order_rated'),
    );
    await new Promise((r) => setTimeout(r, 500));
    expect((await eventsOf(order.orderId)).filter((e) => e.eventType === 'order_rated')).toHaveLength(1);
    expect(events.length).toBeGreaterThan(0);
  });

  it('refuses an order that is not completed, and anyone but its photographer', async () => {
    const photographer = await aPhotographer();
    const paid = await aPaidOrder(photographer);
    expect((await as(photographer).post(`/api/orders/${paid.orderId}/rate`, { rating: 5 })).status).toBe(409);
    const { order } = await aCompletedOrder(photographer);
    expect((await as(await aPhotographer()).post(`/api/orders/${order.orderId}/rate`, { rating: 5 })).status).toBe(404);
    expect((await as(await anEditor()).post(`/api/orders/${order.orderId}/rate`, { rating: 5 })).status).toBe(403);
    expect((await call(`/api/orders/${order.orderId}/rate`, { method: 'POST', body: { rating: 5 } })).status).toBe(401);
  });
});

describe('the outbox', () => {
  it('still delivers an event whose first publish to the queue failed', async () => {
    // The local SQS stand-in refuses the next sends, as a throttled or failing queue would.
    const sqs = new SQSClient({ region: 'us-east-1', endpoint: process.env.SQS_ENDPOINT });
    const failing = await fetch(process.env.SQS_ENDPOINT!, {
      method: 'POST',
      headers: { 'x-amz-target': 'Local.FailNextSends', 'content-type': 'application/x-amz-json-1.0' },
      body: JSON.stringify({ Count: 3 }),
    });
    expect(failing.status).toBe(200);
    const photographer = await aPhotographer();
    const order = await anOrder(photographer);
    const events = await waitFor(
      () => eventsOf(order.orderId),
      (found) => found.length > 0,
      20_000,
    );
    expect(events.map((e) => e.eventType)).toEqual(['order_created']);
    sqs.destroy();
  });

  it('ignores a queue message that is not an outbox record', async () => {
    const sqs = new SQSClient({ region: 'us-east-1', endpoint: process.env.SQS_ENDPOINT });
    const queueUrl = JSON.parse(process.env.QUEUE_URLS!)['order-events'];
    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify({ hello: 'world' }) }));
    // A good event sent after it still lands: the bad one did not block the queue.
    const photographer = await aPhotographer();
    const order = await anOrder(photographer);
    const events = await waitFor(
      () => eventsOf(order.orderId),
      (found) => found.length > 0,
    );
    expect(events).toHaveLength(1);
    sqs.destroy();
  });
});

describe('signing in for the first time', () => {
  it('still works for a brand-new photographer asking for their orders', async () => {
    const account = await aNewAccount();
    const response = await as(account).get('/api/orders/my');
    expect(response).toMatchObject({ status: 200, body: { orders: [], total: 0 } });
  });
});
