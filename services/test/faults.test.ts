import { type CreateOrderResponse, editedPrefix } from '@marketplace/events/orders';
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { LOCAL_STRIPE_PUBLISHABLE_KEY, LOCAL_STRIPE_SECRET_KEY } from '../local/stack';
import { getDownload } from '../src/data/downloads';
import { claimOrder, completeOrder, getOrder, markOrderPaid, registerEdited } from '../src/data/orders';
import { workers } from '../src/workers';
import { orderEventFromStreamRecord } from '../src/workers/outbox-message';
import {
  aDataLayerOrder,
  anEditor,
  aPhotographer,
  as,
  aUserWithRoles,
  db,
  sqsControl,
  type TestAccount,
  waitFor,
} from './support';

/**
 * Faults injected into the local stand-ins, each observed end to end: a poison message, a failed
 * publish from the outbox, and a card provider answering 500. (The zip worker killed mid-build
 * is in faults-zip.test.ts.) The switches are local controls on each stand-in's own port.
 */
const queueUrl = (queue: string) => JSON.parse(process.env.QUEUE_URLS!)[queue] as string;

interface DeadLetterAlarm {
  queue: string;
  deadLetterQueue: string;
  messageId: string;
  receiveCount: number;
  maxReceiveCount: number;
  body: string;
}

const queueStatus = async () =>
  (await sqsControl('Status')) as {
    FailingSends: number;
    InjectedSendFailures: number;
    DeadLetterAlarms: DeadLetterAlarm[];
  };

const stripeUrl = () => process.env.STRIPE_API_URL!;

interface StripeFault {
  method?: string;
  path: string;
  match?: Record<string, string>;
  status?: number;
  times?: number;
  when?: 'before' | 'after';
}

interface SeenRequest {
  method: string;
  path: string;
  idempotencyKey?: string;
  status: number;
  replayed: boolean;
  injected: boolean;
}

const stripeFault = async (fault: StripeFault) => {
  const response = await fetch(`${stripeUrl()}/__faults`, { method: 'POST', body: JSON.stringify(fault) });
  if (!response.ok) throw new Error(`fault not set: ${response.status} ${await response.text()}`);
};

const stripeRequests = async (filter: (request: SeenRequest) => boolean) => {
  const { requests } = (await (await fetch(`${stripeUrl()}/__faults`)).json()) as { requests: SeenRequest[] };
  return requests.filter(filter);
};

/** Stripe's own list of an intent's refunds, read with the secret key. */
const refundsAtStripe = async (paymentIntentId: string) => {
  const response = await fetch(`${stripeUrl()}/v1/refunds?payment_intent=${paymentIntentId}`, {
    headers: { authorization: `Bearer ${LOCAL_STRIPE_SECRET_KEY}` },
  });
  return ((await response.json()) as { data: { id: string; amount: number }[] }).data;
};

const eventsOf = async (orderId: string) => (await db().orderEvent.query.byOrder({ orderId }).go()).data;
const ordersOf = async (photographer: TestAccount) =>
  (await db().order.query.byPhotographer({ photographerId: photographer.uid }).go()).data;

/** An answer a browser can show: our JSON error, with nothing of the SDK or a stack in it. */
const expectCleanError = (body: unknown) => {
  const text = JSON.stringify(body);
  expect(text).not.toMatch(/Stripe[A-Z]\w*Error|\bat .*\.(ts|js):\d+|node_modules|stack/);
};

describe('a poison message', () => {
  it('goes to the dead-letter queue after its maximum receives and raises the alarm', async () => {
    // An order delivered with an edited file that is not in S3: every zip build of it fails.
    const [photographer, editor] = await Promise.all([aPhotographer(), anEditor()]);
    const order = await aDataLayerOrder(photographer);
    await markOrderPaid({
      orderId: order.orderId,
      paymentIntentId: order.stripePaymentIntentId!,
      amountCents: 1600,
      via: 'webhook',
    });
    const claimed = await claimOrder({
      orderId: order.orderId,
      editor: { userId: editor.uid, name: 'Eve Editor', email: editor.email },
      rateCents: 250,
    });
    // An archive: the thumbnail worker draws a placeholder for it without reading the missing object.
    await registerEdited({
      order: claimed,
      editorId: editor.uid,
      key: `${editedPrefix(order.orderId)}delivery.zip`,
      filename: 'delivery.zip',
      size: 1000,
      lastModified: new Date().toISOString(),
    });
    await completeOrder({ orderId: order.orderId, editorId: editor.uid });
    const { maxReceiveCount } = workers.find((w) => w.queue === 'zip-builds')!;

    // The outbox's order_completed record reaches the zip queue and fails each receive. Its
    // 16-minute visibility timeout is made to pass at once, again and again, until SQS gives up.
    const alarms = await waitFor(
      async () => {
        await sqsControl('ExpireVisibility', { QueueUrl: queueUrl('zip-builds'), BodyContains: order.orderId });
        return (await queueStatus()).DeadLetterAlarms.filter((alarm) => alarm.body.includes(order.orderId));
      },
      (found) => found.length > 0,
      45_000,
    );
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({
      queue: 'zip-builds',
      deadLetterQueue: 'zip-builds-dlq',
      receiveCount: maxReceiveCount,
      maxReceiveCount,
    });
    expect(orderEventFromStreamRecord(alarms[0]!.body)).toMatchObject({
      orderId: order.orderId,
      eventType: 'order_completed',
    });
    // Each receive tried and failed; no zip was ever marked ready.
    expect(await getDownload(order.orderId, 'edited')).toMatchObject({ status: 'failed' });

    // Once dead-lettered it is received no more, and raises no second alarm.
    await sqsControl('ExpireVisibility', { QueueUrl: queueUrl('zip-builds'), BodyContains: order.orderId });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const later = (await queueStatus()).DeadLetterAlarms.filter((alarm) => alarm.body.includes(order.orderId));
    expect(later).toHaveLength(1);
  }, 60_000);
});

describe('the outbox', () => {
  it('delivers an event whose first publish failed, and logs it exactly once', async () => {
    const photographer = await aPhotographer();
    const order = await aDataLayerOrder(photographer);
    await waitFor(
      () => eventsOf(order.orderId),
      (events) => events.length > 0,
    );
    const before = await queueStatus();
    // order_paid goes to two queues: the event log's (accepted) and the zip queue's, refused three
    // times: the SQS client's own two retries fail too, so the stream poller's pass fails, and it
    // reads the record again and sends it to both queues again (the event log's gets it twice).
    await sqsControl('FailNextSends', {
      Count: 3,
      QueueUrl: queueUrl('zip-builds'),
      BodyContains: order.orderId,
    });
    await markOrderPaid({
      orderId: order.orderId,
      paymentIntentId: order.stripePaymentIntentId!,
      amountCents: 1600,
      via: 'webhook',
    });

    // The zip queue got it in the end: the originals zip of the paid order is built.
    const originals = await waitFor(
      () => getDownload(order.orderId, 'originals'),
      (download) => download?.status === 'ready',
      30_000,
    );
    expect(originals?.status).toBe('ready');
    const after = await queueStatus();
    expect(after.FailingSends).toBe(0);
    expect(after.InjectedSendFailures - before.InjectedSendFailures).toBe(3);

    // Two sends of the same record to the event log's queue, one event in the log.
    const sent = (await sqsControl('Sent', {
      QueueUrl: queueUrl('order-events'),
      BodyContains: order.orderId,
    })) as { Messages: { body: string }[] };
    const paidSends = sent.Messages.filter((m) => orderEventFromStreamRecord(m.body)?.eventType === 'order_paid');
    expect(paidSends).toHaveLength(2);
    const events = await waitFor(
      () => eventsOf(order.orderId),
      (found) => found.some((e) => e.eventType === 'order_paid'),
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const settled = await eventsOf(order.orderId);
    expect(settled.map((e) => e.eventType).sort()).toEqual(['order_created', 'order_paid']);
    expect(events.length).toBeGreaterThan(0);
  }, 60_000);

  it('loses nothing when the queue refuses its sends longer than the client retries', async () => {
    const photographer = await aPhotographer();
    const orderId = ulid();
    const before = await queueStatus();
    // Five refusals: the first pass's three tries fail, the next pass's third try gets through.
    await sqsControl('FailNextSends', { Count: 5, BodyContains: orderId });
    const order = await aDataLayerOrder(photographer, { orderId });
    const events = await waitFor(
      () => eventsOf(order.orderId),
      (found) => found.length > 0,
      20_000,
    );
    const after = await queueStatus();
    expect(after.FailingSends).toBe(0);
    expect(after.InjectedSendFailures - before.InjectedSendFailures).toBe(5);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await eventsOf(order.orderId)).map((e) => e.eventType)).toEqual(['order_created']);
    expect(events).toHaveLength(1);
  }, 30_000);
});

describe('the card provider answering 500', () => {
  // Each order's amount is its own, so a fault matched on it touches no other test's order.
  const orderFor = (photoCount: number) => ({ jobTypeId: 'hdr', photoCount });

  it('is retried by our Stripe client with the same idempotency key: one intent, one order', async () => {
    const photographer = await aPhotographer();
    // The intent is created, but its answer is lost on the way back.
    await stripeFault({ method: 'POST', path: '/v1/payment_intents', match: { amount: '58400' }, when: 'after' });

    const response = await as(photographer).post('/api/orders', orderFor(73));

    expect(response.status).toBe(201);
    const { order } = response.body as CreateOrderResponse;
    const key = `order-${order.id}-payment-intent`;
    const attempts = await stripeRequests((r) => r.idempotencyKey === key);
    expect(attempts.map((r) => ({ status: r.status, injected: r.injected, replayed: r.replayed }))).toEqual([
      { status: 500, injected: true, replayed: false },
      { status: 200, injected: false, replayed: true },
    ]);
    const stored = await ordersOf(photographer);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ stripePaymentIntentId: order.stripePaymentIntentId, status: 'pending_payment' });
  });

  it('on order creation, outlasting the Stripe client retries: a clear error, no order, and the next try succeeds', async () => {
    const photographer = await aPhotographer();
    await stripeFault({ method: 'POST', path: '/v1/payment_intents', match: { amount: '63200' }, times: 3 });

    const failed = await as(photographer).post('/api/orders', orderFor(79));

    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({ error: 'PAYMENT_PROVIDER_UNAVAILABLE' });
    expect(failed.body.message).toMatch(/try again/i);
    expectCleanError(failed.body);
    expect(await ordersOf(photographer)).toHaveLength(0);
    // Three tries (the first and the Stripe client's two retries), all refused before anything ran.
    const refused = await stripeRequests((r) => r.path === '/v1/payment_intents' && r.injected && r.status === 500);
    expect(refused.length).toBeGreaterThanOrEqual(3);

    const retried = await as(photographer).post('/api/orders', orderFor(79));
    expect(retried.status).toBe(201);
    expect(await ordersOf(photographer)).toHaveLength(1);
  });

  it('on payment confirmation, outlasting the Stripe client retries: the order stays unpaid until a retry pays it once', async () => {
    const photographer = await aPhotographer();
    const created = (await as(photographer).post('/api/orders', orderFor(2))).body as CreateOrderResponse;
    const intentId = created.order.stripePaymentIntentId;
    // Stripe's webhooks for this payment do not arrive: the browser's report is the only way in.
    await stripeFault({ path: 'webhooks', match: { id: intentId }, times: 5 });
    const confirmed = await fetch(`${stripeUrl()}/v1/payment_intents/${intentId}/confirm`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${LOCAL_STRIPE_PUBLISHABLE_KEY}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ payment_method: 'pm_card_visa', client_secret: created.stripeClientSecret! }),
    });
    expect(confirmed.status).toBe(200);
    await stripeFault({ method: 'GET', path: `/v1/payment_intents/${intentId}`, times: 3 });

    const report = () =>
      as(photographer).post(`/api/orders/${created.order.id}/payment-success`, { paymentIntentId: intentId });
    const failed = await report();

    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({ error: 'PAYMENT_PROVIDER_UNAVAILABLE' });
    expectCleanError(failed.body);
    expect((await getOrder(created.order.id))?.status).toBe('pending_payment');
    expect((await db().payment.get({ paymentIntentId: intentId }).go()).data).toMatchObject({
      status: 'requires_payment',
    });

    // Stripe fails once more on the retry: the Stripe client's own retry gets through.
    await stripeFault({ method: 'GET', path: `/v1/payment_intents/${intentId}`, times: 1 });
    const retried = await report();
    expect(retried.status).toBe(200);
    expect(retried.body.status).toBe('paid');
    const reads = await stripeRequests((r) => r.method === 'GET' && r.path === `/v1/payment_intents/${intentId}`);
    expect(reads.map((r) => r.status)).toEqual([500, 500, 500, 500, 200]);

    expect((await db().payment.get({ paymentIntentId: intentId }).go()).data).toMatchObject({ status: 'succeeded' });
    const events = await waitFor(
      () => eventsOf(created.order.id),
      (found) => found.some((e) => e.eventType === 'order_paid'),
    );
    expect(events.filter((e) => e.eventType === 'order_paid')).toHaveLength(1);
    const stats = await as(photographer).get('/api/stats/photographer');
    expect(stats.body).toMatchObject({ totalSpent: created.order.totalAmountCents });
  });

  it('on a refund: a clear error and no refund, then one refund whose answer was lost once', async () => {
    const [photographer, admin] = await Promise.all([aPhotographer(), aUserWithRoles(['admin'])]);
    const created = (await as(photographer).post('/api/orders', orderFor(2))).body as CreateOrderResponse;
    const intentId = created.order.stripePaymentIntentId;
    await fetch(`${stripeUrl()}/v1/payment_intents/${intentId}/confirm`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${LOCAL_STRIPE_PUBLISHABLE_KEY}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ payment_method: 'pm_card_visa', client_secret: created.stripeClientSecret! }),
    });
    await waitFor(
      () => getOrder(created.order.id),
      (order) => order?.status === 'paid',
    );
    await stripeFault({ method: 'POST', path: '/v1/refunds', match: { payment_intent: intentId }, times: 3 });

    const cancel = () => as(admin).post(`/api/orders/admin/${created.order.id}/cancel`);
    const failed = await cancel();

    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({ error: 'REFUND_FAILED' });
    expectCleanError(failed.body);
    const cancelledUnrefunded = await getOrder(created.order.id);
    expect(cancelledUnrefunded).toMatchObject({ status: 'cancelled' });
    expect(cancelledUnrefunded?.refundId).toBeUndefined();
    expect(await refundsAtStripe(intentId)).toHaveLength(0);

    // The refund goes through at Stripe but its answer is lost: the Stripe client's retry gets the replay.
    await stripeFault({
      method: 'POST',
      path: '/v1/refunds',
      match: { payment_intent: intentId },
      when: 'after',
    });
    const retried = await cancel();
    expect(retried.status).toBe(200);
    expect(retried.body.refundedAmountCents).toBe(created.order.totalAmountCents);
    const refunds = await refundsAtStripe(intentId);
    expect(refunds).toHaveLength(1);
    const order = await getOrder(created.order.id);
    expect(order).toMatchObject({ refundId: refunds[0]!.id, refundedAmountCents: created.order.totalAmountCents });
    expect((await db().payment.get({ paymentIntentId: intentId }).go()).data).toMatchObject({ status: 'refunded' });
    const attempts = await stripeRequests((r) => r.idempotencyKey === `refund-${created.order.id}`);
    expect(attempts.map((r) => r.status)).toEqual([500, 500, 500, 500, 200]);
    expect(attempts.at(-1)?.replayed).toBe(true);
  });
});
