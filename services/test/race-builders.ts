import { randomBytes, randomUUID } from 'node:crypto';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { orderSearchWords } from '@marketplace/events/admin';
import { type CreateOrderResponse, editedPrefix } from '@marketplace/events/orders';
import { ulid } from 'ulid';
import { expect } from 'vitest';
import { assignmentCounterName, ORDERS_SCOPE, searchInitial } from '../src/data/order-assignment';
import {
  claimOrder,
  completeOrder,
  createOrder,
  editorScope,
  getOrder,
  markOrderPaid,
  nextOrderNumber,
  type OrderRecord,
  readCounters,
  registerEdited,
} from '../src/data/orders';
import { stripe } from './stripe-sdk';
import { as, call, db, type TestAccount, waitFor } from './support';

/** Orders in each state the races start from, and the checks every race ends with. */
const storage = () => new S3Client({ region: 'us-east-1', endpoint: process.env.S3_ENDPOINT, forcePathStyle: true });

export const PRICE_PER_PHOTO_CENTS = 800;

/** A paid order through the data layer, open to every editor. */
export const aPaidOrder = async (photographer: TestAccount, { photoCount = 2 }: { photoCount?: number } = {}) => {
  const orderId = ulid();
  const paymentIntentId = `pi_test_${orderId}`;
  const order = await createOrder({
    orderId,
    orderNumber: await nextOrderNumber(),
    photographer: { userId: photographer.uid, name: 'Rita Racer' },
    jobType: { jobTypeId: 'hdr', name: 'HDR', pricePerPhotoCents: PRICE_PER_PHOTO_CENTS },
    input: { photoCount },
    totalAmountCents: photoCount * PRICE_PER_PHOTO_CENTS,
    stripePaymentIntentId: paymentIntentId,
  });
  await markOrderPaid({ orderId, paymentIntentId, amountCents: order.totalAmountCents, via: 'webhook' });
  return (await getOrder(orderId))!;
};

/** A paid order claimed by `editor` at `rateCents`, with one edited file in storage and registered. */
export const anOrderInProgress = async (
  photographer: TestAccount,
  editor: TestAccount,
  { photoCount = 3, rateCents = 50 }: { photoCount?: number; rateCents?: number } = {},
) => {
  const { orderId } = await aPaidOrder(photographer, { photoCount });
  await claimOrder({ orderId, editor: { userId: editor.uid, name: 'Eli Editor', email: editor.email }, rateCents });
  const key = `${editedPrefix(orderId)}${randomUUID()}-room.jpg`;
  const bytes = randomBytes(600);
  await storage().send(new PutObjectCommand({ Bucket: process.env.PHOTOS_BUCKET!, Key: key, Body: bytes }));
  await registerEdited({
    order: (await getOrder(orderId))!,
    editorId: editor.uid,
    key,
    filename: 'room.jpg',
    size: bytes.length,
    lastModified: new Date().toISOString(),
  });
  return (await getOrder(orderId))!;
};

/** An order its editor has delivered. */
export const aCompletedOrder = async (photographer: TestAccount, editor: TestAccount, photoCount = 3) => {
  const { orderId } = await anOrderInProgress(photographer, editor, { photoCount });
  await completeOrder({ orderId, editorId: editor.uid });
  return (await getOrder(orderId))!;
};

/** An order created through the API and paid at the Stripe fake, as the photographer's browser does it. */
export const anOrderPaidByCard = async (photographer: TestAccount) => {
  const created = await as(photographer).post('/api/orders', { jobTypeId: 'hdr', photoCount: 2 });
  if (created.status !== 201) throw new Error(`order not created: ${created.status}`);
  const { order } = created.body as CreateOrderResponse;
  await (await stripe()).paymentIntents.confirm(order.stripePaymentIntentId, { payment_method: 'pm_card_visa' });
  const paid = await as(photographer).post(`/api/orders/${order.id}/payment-success`, {
    paymentIntentId: order.stripePaymentIntentId,
  });
  if (paid.status !== 200) throw new Error(`order not paid: ${paid.status}`);
  return (await getOrder(order.id))!;
};

interface Answer {
  status: number;
  body: { error?: string; message?: string } | null;
}

/**
 * The shape every race must end in: `winners` answers of `winnerStatus`, and every other one our
 * JSON 409 with this human sentence (never a 500, never a second winner).
 */
export const expectOneWinner = (
  answers: Answer[],
  { winnerStatus = 200, winners = 1, message }: { winnerStatus?: number; winners?: number; message: string },
) => {
  const statuses = answers.map((a) => a.status);
  expect(
    statuses.filter((s) => s === winnerStatus),
    `statuses ${statuses.join(',')}`,
  ).toHaveLength(winners);
  for (const loser of answers.filter((a) => a.status !== winnerStatus)) {
    expect(loser).toEqual({ status: 409, body: { error: 'CONFLICT', message } });
  }
  return answers.findIndex((a) => a.status === winnerStatus);
};

/**
 * The order's activity log as its photographer reads it, once the outbox has delivered every
 * expected event and a little longer, so a duplicate still on its way would be counted too.
 */
export const settledEventTypes = async (photographer: TestAccount, orderId: string, expected: readonly string[]) => {
  const read = async () => {
    const response = await as(photographer).get(`/api/orders/${orderId}/events`);
    return (response.body.events as { eventType: string }[]).map((e) => e.eventType);
  };
  await waitFor(read, (types) => expected.every((type) => types.includes(type)));
  await new Promise((resolve) => setTimeout(resolve, 1000));
  return read();
};

export const editorCounters = (editor: TestAccount) => readCounters(editorScope(editor.uid));

/** The assignment each of the order's search words carries (the admin list's search). */
export const searchWordAssignments = async (order: OrderRecord) =>
  Promise.all(
    orderSearchWords(order).map(
      async (word) =>
        (
          await db()
            .orderSearchWord.get({ initial: searchInitial(word), word, orderId: order.orderId })
            .go()
        ).data?.assignment,
    ),
  );

/**
 * The admin list's totals are counters moved in the same transaction as each order, so each must
 * equal the orders its partition holds. Other test files move orders meanwhile: read the counter
 * on both sides of the count until nothing moved in between.
 */
export const expectAssignmentCountersExact = async () => {
  for (const assignment of ['assigned', 'unassigned'] as const) {
    const measure = async () => {
      const before = (await readCounters(ORDERS_SCOPE))[assignmentCounterName(assignment)] ?? 0;
      const { data } = await db()
        .order.query.byAssignment({ assignment })
        .go({ pages: 'all', attributes: ['orderId'] });
      const after = (await readCounters(ORDERS_SCOPE))[assignmentCounterName(assignment)] ?? 0;
      return { counter: before === after ? before : Number.NaN, orders: data.length };
    };
    const measured = await waitFor(measure, ({ counter, orders }) => counter === orders, 10_000);
    expect(measured.counter, `${assignment} counter`).toBe(measured.orders);
  }
};

/**
 * One harmless request to each route the races use, before they start. The local gateway loads a
 * route's module on its first request and counts that load against the request's timeout; on a
 * busy machine fifty first requests at once would time out on the load alone. In Lambda the
 * load is the init phase and does not count against the invocation's timeout, so it is taken out
 * of the race here too.
 */
export const warmUpRoutes = async (account: TestAccount) => {
  const nobody = ulid();
  const requests: [string, string, unknown?][] = [
    ['POST', `/api/orders/${nobody}/claim`],
    ['POST', `/api/orders/${nobody}/complete`, {}],
    ['POST', `/api/orders/${nobody}/rate`, { rating: 5 }],
    ['POST', `/api/orders/${nobody}/revisions`, { note: 'warm-up' }],
    ['POST', `/api/orders/${nobody}/payment-success`, { paymentIntentId: 'pi_warm_up' }],
    ['POST', '/api/webhooks/stripe', {}],
    ['PATCH', `/api/orders/admin/${nobody}/assign`, { editorId: nobody }],
    ['POST', '/api/orders/admin/bulk-assign', { orderIds: [nobody], editorId: nobody }],
    ['POST', `/api/orders/admin/${nobody}/cancel`],
    ['POST', `/api/admin/editors/${nobody}/payouts`, { amountCents: 1 }],
    ['GET', `/api/admin/editors/${nobody}/payouts`],
    ['GET', `/api/admin/editors/${nobody}/stats`],
    [
      'POST',
      '/api/auth/complete-signup',
      { email: 'warm-up@example.test', token: 'x'.repeat(43), firebaseUid: nobody },
    ],
    ['POST', '/api/admin/invite-editor', {}],
    ['GET', `/api/orders/${nobody}/events`],
    ['GET', '/api/orders/available'],
    ['GET', '/api/orders/job-types'],
    ['POST', '/api/orders', {}],
    ['GET', '/api/stats/editor'],
    ['GET', '/api/stats/photographer'],
  ];
  for (const [method, path, body] of requests) await call(path, { method, token: account.token, body });
};
