import { orderSearchWords } from '@marketplace/events/admin';
import type { CreateOrderResponse } from '@marketplace/events/orders';
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { assignmentCounterName, ORDERS_SCOPE, searchInitial } from '../src/data/order-assignment';
import {
  claimOrder,
  completeOrder,
  createOrder,
  getOrder,
  markOrderPaid,
  nextOrderNumber,
  type OrderRecord,
  readCounters,
} from '../src/data/orders';
import { stripe } from './stripe-sdk';
import { aPhotographer, as, aUserWithRoles, call, db, type TestAccount, waitFor } from './support';

/** An order through the data layer, paid unless told otherwise, open to every editor. */
const anOrder = async (
  photographer: TestAccount,
  { photoCount = 3, paid = true }: { photoCount?: number; paid?: boolean } = {},
) => {
  const orderId = ulid();
  const order = await createOrder({
    orderId,
    orderNumber: await nextOrderNumber(),
    photographer: { userId: photographer.uid, name: 'Petra Photo' },
    jobType: { jobTypeId: 'hdr', name: 'HDR', pricePerPhotoCents: 800 },
    input: { photoCount },
    totalAmountCents: photoCount * 800,
    stripePaymentIntentId: `pi_test_${orderId}`,
  });
  if (paid) {
    await markOrderPaid({
      orderId,
      paymentIntentId: `pi_test_${orderId}`,
      amountCents: order.totalAmountCents,
      via: 'client',
    });
  }
  return (await getOrder(orderId))!;
};

/** An order paid by card at the Stripe fake, as the photographer's browser pays it. */
const anOrderPaidByCard = async (photographer: TestAccount) => {
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

const anAdmin = () => aUserWithRoles(['admin'], { displayName: 'Ada Admin' });
const anEditor = (displayName: string) => aUserWithRoles(['editor'], { displayName });

const assign = (admin: TestAccount, orderId: string, editorId: string) =>
  as(admin).patch(`/api/orders/admin/${orderId}/assign`, { editorId });
const unassign = (admin: TestAccount, orderId: string) =>
  call(`/api/orders/admin/${orderId}/unassign`, { method: 'DELETE', token: admin.token });
const cancel = (admin: TestAccount, orderId: string) => as(admin).post(`/api/orders/admin/${orderId}/cancel`);
const claim = (editor: TestAccount, orderId: string) => as(editor).post(`/api/orders/${orderId}/claim`);

const available = async (editor: TestAccount) =>
  (await as(editor).get('/api/orders/available?limit=50')).body.orders as { id: string; assignedToMe: boolean }[];

const editorOf = (editor: TestAccount) => ({ userId: editor.uid, name: 'Some Editor', email: editor.email });

/** The assignment each of the order's search words carries. */
const searchWordAssignments = async (order: OrderRecord) =>
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

const eventsOf = async (orderId: string, eventType: string) =>
  (await db().orderEvent.query.byOrder({ orderId }).go()).data.filter((e) => e.eventType === eventType);

describe('who may assign, unassign and cancel', () => {
  it('refuses anonymous callers with 401 and photographers and editors with 403, changing nothing', async () => {
    const [photographer, editor] = await Promise.all([aPhotographer(), anEditor('Eve')]);
    const order = await anOrder(photographer);
    const routes = [
      { method: 'PATCH', path: `/api/orders/admin/${order.orderId}/assign`, body: { editorId: editor.uid } },
      { method: 'DELETE', path: `/api/orders/admin/${order.orderId}/unassign` },
      {
        method: 'POST',
        path: '/api/orders/admin/bulk-assign',
        body: { orderIds: [order.orderId], editorId: editor.uid },
      },
      { method: 'POST', path: `/api/orders/admin/${order.orderId}/cancel` },
    ];
    for (const { method, path, body } of routes) {
      expect((await call(path, { method, body })).status, `${method} ${path} anonymous`).toBe(401);
      expect((await call(path, { method, body, token: photographer.token })).status, `${method} ${path}`).toBe(403);
      expect((await call(path, { method, body, token: editor.token })).status, `${method} ${path}`).toBe(403);
    }
    expect(await getOrder(order.orderId)).toMatchObject({ status: 'paid', pool: 'open', assignment: 'unassigned' });
  });
});

describe('assigning an order', () => {
  it('offers a paid order to the assigned editor only, who can then claim it', async () => {
    const [admin, photographer, ann, ben] = await Promise.all([
      anAdmin(),
      aPhotographer(),
      anEditor('Ann'),
      anEditor('Ben'),
    ]);
    const order = await anOrder(photographer);

    const response = await assign(admin, order.orderId, ben.uid);

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: order.orderId,
      status: 'paid',
      assignment: 'assigned',
      editorId: ben.uid,
      editor: { editor_name: 'Ben' },
      canAssign: true,
      canUnassign: true,
      canCancel: true,
    });
    expect((await available(ben)).find((o) => o.id === order.orderId)).toMatchObject({ assignedToMe: true });
    expect((await available(ann)).map((o) => o.id)).not.toContain(order.orderId);
    expect(await searchWordAssignments((await getOrder(order.orderId))!)).toEqual(
      orderSearchWords(order).map(() => 'assigned'),
    );
    expect([404, 409]).toContain((await claim(ann, order.orderId)).status);
    const claimed = await claim(ben, order.orderId);
    expect(claimed.status).toBe(200);
    expect(await getOrder(order.orderId)).toMatchObject({ status: 'in_progress', editorId: ben.uid });
    const assigned = await waitFor(
      () => eventsOf(order.orderId, 'order_assigned'),
      (events) => events.length > 0,
    );
    expect(assigned[0]).toMatchObject({ actorId: admin.uid, metadata: { editorId: ben.uid } });
  });

  it('lets an admin move a paid order from one editor to another', async () => {
    const [admin, photographer, ann, ben] = await Promise.all([
      anAdmin(),
      aPhotographer(),
      anEditor('Ann'),
      anEditor('Ben'),
    ]);
    const order = await anOrder(photographer);
    expect((await assign(admin, order.orderId, ann.uid)).status).toBe(200);

    const moved = await assign(admin, order.orderId, ben.uid);

    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ editorId: ben.uid, assignment: 'assigned' });
    expect((await available(ann)).map((o) => o.id)).not.toContain(order.orderId);
    expect((await available(ben)).map((o) => o.id)).toContain(order.orderId);
  });

  it('refuses orders in progress, awaiting payment or completed, and anyone but a verified editor', async () => {
    const [admin, photographer, editor, invited] = await Promise.all([
      anAdmin(),
      aPhotographer(),
      anEditor('Eve'),
      anEditor('Ivy Invited'),
    ]);
    await db().user.patch({ userId: invited.uid }).set({ status: 'invited' }).go();
    const [inProgress, pending, completed, paid] = await Promise.all([
      anOrder(photographer),
      anOrder(photographer, { paid: false }),
      anOrder(photographer),
      anOrder(photographer),
    ]);
    await claimOrder({ orderId: inProgress.orderId, editor: editorOf(editor), rateCents: 100 });
    await claimOrder({ orderId: completed.orderId, editor: editorOf(editor), rateCents: 100 });
    await db().order.update({ orderId: completed.orderId }).add({ editorUploadCount: 1 }).go();
    await completeOrder({ orderId: completed.orderId, editorId: editor.uid });

    const refusals = [
      [inProgress.orderId, editor.uid, 409, 'This order is already in progress'],
      [pending.orderId, editor.uid, 409, 'Only a paid order can be assigned: this one awaits payment'],
      [completed.orderId, editor.uid, 409, 'Only a paid order can be assigned: this one is already completed'],
      [paid.orderId, photographer.uid, 400, 'Only a verified editor can be assigned orders'],
      [paid.orderId, invited.uid, 400, 'Only a verified editor can be assigned orders'],
      [paid.orderId, 'no-such-user', 400, 'Only a verified editor can be assigned orders'],
      [ulid(), editor.uid, 404, 'Order not found'],
    ] as const;
    for (const [orderId, editorId, status, message] of refusals) {
      const response = await assign(admin, orderId, editorId);
      expect(response.status, message).toBe(status);
      expect(response.body.message).toBe(message);
    }
    expect(await getOrder(inProgress.orderId)).toMatchObject({ status: 'in_progress', editorId: editor.uid });
    expect(await getOrder(pending.orderId)).toMatchObject({ status: 'pending_payment', assignment: 'unassigned' });
    expect(await getOrder(paid.orderId)).toMatchObject({ pool: 'open', assignment: 'unassigned' });
  });

  it('an assignment racing a claim leaves one owner', async () => {
    const [admin, photographer, ann, ben] = await Promise.all([
      anAdmin(),
      aPhotographer(),
      anEditor('Ann'),
      anEditor('Ben'),
    ]);
    const rounds = 12;
    const outcomes = { assigned: 0, claimed: 0 };
    for (let round = 0; round < rounds; round++) {
      const order = await anOrder(photographer);
      const [assigned, claimed] = await Promise.all([assign(admin, order.orderId, ben.uid), claim(ann, order.orderId)]);

      const stored = (await getOrder(order.orderId))!;
      expect(
        [assigned.status, claimed.status].filter((s) => s === 200),
        `round ${round}`,
      ).toHaveLength(1);
      if (claimed.status === 200) {
        outcomes.claimed++;
        expect(assigned.status).toBe(409);
        expect(stored).toMatchObject({ status: 'in_progress', editorId: ann.uid, assignment: 'assigned' });
        expect(stored.pool).toBeUndefined();
      } else {
        outcomes.assigned++;
        expect([404, 409]).toContain(claimed.status);
        expect(stored).toMatchObject({ status: 'paid', pool: ben.uid, editorId: ben.uid, assignment: 'assigned' });
      }
      expect(await searchWordAssignments(stored)).toEqual(orderSearchWords(stored).map(() => 'assigned'));
    }
    expect(outcomes.assigned + outcomes.claimed).toBe(rounds);

    // Orders only become assigned through counted writes, so the counter must equal the orders in
    // the assigned partition; read both until no other test moves one in between.
    const assignedCount = async () => {
      const before = (await readCounters(ORDERS_SCOPE))[assignmentCounterName('assigned')];
      const { data } = await db().order.query.byAssignment({ assignment: 'assigned' }).go({ pages: 'all' });
      const after = (await readCounters(ORDERS_SCOPE))[assignmentCounterName('assigned')];
      return { counter: before === after ? before : Number.NaN, orders: data.length };
    };
    const counted = await waitFor(assignedCount, ({ counter, orders }) => counter === orders, 10_000);
    expect(counted.counter).toBe(counted.orders);
  }, 120_000);
});

describe('unassigning an order', () => {
  it('puts an assigned order back in the open pool, and refuses one in progress', async () => {
    const [admin, photographer, ann, ben] = await Promise.all([
      anAdmin(),
      aPhotographer(),
      anEditor('Ann'),
      anEditor('Ben'),
    ]);
    const [order, started] = await Promise.all([anOrder(photographer), anOrder(photographer)]);
    expect((await assign(admin, order.orderId, ben.uid)).status).toBe(200);
    expect((await assign(admin, started.orderId, ben.uid)).status).toBe(200);
    expect((await claim(ben, started.orderId)).status).toBe(200);

    const response = await unassign(admin, order.orderId);

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ assignment: 'unassigned', editorId: null, editor: null, canUnassign: false });
    const stored = (await getOrder(order.orderId))!;
    expect(stored).toMatchObject({ status: 'paid', pool: 'open', assignment: 'unassigned' });
    expect(stored.editorId).toBeUndefined();
    expect(await searchWordAssignments(stored)).toEqual(orderSearchWords(stored).map(() => 'unassigned'));
    expect((await available(ann)).find((o) => o.id === order.orderId)).toMatchObject({ assignedToMe: false });
    expect((await available(ben)).find((o) => o.id === order.orderId)).toMatchObject({ assignedToMe: false });
    await waitFor(
      () => eventsOf(order.orderId, 'order_unassigned'),
      (events) => events.length > 0,
    );
    expect(await eventsOf(order.orderId, 'order_unassigned')).toHaveLength(1);

    const again = await unassign(admin, order.orderId);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This order is not assigned');
    const inProgress = await unassign(admin, started.orderId);
    expect(inProgress.status).toBe(409);
    expect(inProgress.body.message).toBe('This order is in progress and cannot be unassigned');
    expect(await getOrder(started.orderId)).toMatchObject({ status: 'in_progress', editorId: ben.uid });
  });
});

describe('bulk assignment', () => {
  it('bulk assign of 100 orders, some in_progress, assigns the others and reports the rest', async () => {
    const [admin, photographer, editor, other] = await Promise.all([
      anAdmin(),
      aPhotographer(),
      anEditor('Bea Bulk'),
      anEditor('Otto'),
    ]);
    const orders: OrderRecord[] = [];
    for (let batch = 0; batch < 10; batch++) {
      orders.push(
        ...(await Promise.all(
          Array.from({ length: 10 }, (_, i) => anOrder(photographer, { paid: !(batch === 9 && i === 9) })),
        )),
      );
    }
    const [startedA, startedB, pending] = [orders[10]!, orders[42]!, orders[99]!];
    for (const started of [startedA, startedB]) {
      await claimOrder({ orderId: started.orderId, editor: editorOf(other), rateCents: 100 });
    }

    const response = await as(admin).post('/api/orders/admin/bulk-assign', {
      orderIds: orders.map((o) => o.orderId),
      editorId: editor.uid,
    });

    expect(response.status).toBe(200);
    expect(response.body.message).toBe(
      `Assigned 97 of 100 orders. Not assigned: #${startedA.orderNumber} (already in progress), ` +
        `#${startedB.orderNumber} (already in progress), #${pending.orderNumber} (awaits payment).`,
    );
    expect(response.body.notAssigned).toEqual([
      { orderId: startedA.orderId, orderNumber: startedA.orderNumber, reason: 'already in progress' },
      { orderId: startedB.orderId, orderNumber: startedB.orderNumber, reason: 'already in progress' },
      { orderId: pending.orderId, orderNumber: pending.orderNumber, reason: 'awaits payment' },
    ]);
    const refused = new Set([startedA.orderId, startedB.orderId, pending.orderId]);
    const expected = orders.filter((o) => !refused.has(o.orderId)).map((o) => o.orderId);
    expect(response.body.assigned).toEqual(expected);
    const stored = await Promise.all(expected.map((orderId) => getOrder(orderId)));
    expect(stored.every((o) => o?.pool === editor.uid && o.assignment === 'assigned')).toBe(true);
    expect(await getOrder(startedA.orderId)).toMatchObject({ status: 'in_progress', editorId: other.uid });
  }, 120_000);

  it('says how many were assigned when all were, and refuses an editor who is not verified', async () => {
    const [admin, photographer, editor] = await Promise.all([anAdmin(), aPhotographer(), anEditor('Bea')]);
    const orders = await Promise.all([anOrder(photographer), anOrder(photographer), anOrder(photographer)]);
    const orderIds = orders.map((o) => o.orderId);

    const refused = await as(admin).post('/api/orders/admin/bulk-assign', { orderIds, editorId: photographer.uid });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Only a verified editor can be assigned orders');
    expect((await getOrder(orderIds[0]!))?.assignment).toBe('unassigned');

    const response = await as(admin).post('/api/orders/admin/bulk-assign', { orderIds, editorId: editor.uid });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: 'Assigned 3 orders.', assigned: orderIds, notAssigned: [] });
  });
});

describe('cancelling an order', () => {
  it('a cancelled paid order is refunded once however often it is cancelled', async () => {
    const [admin, photographer, editor] = await Promise.all([anAdmin(), aPhotographer(), anEditor('Eve')]);
    const order = await anOrderPaidByCard(photographer);
    const paymentIntentId = order.stripePaymentIntentId!;
    expect((await as(photographer).get('/api/stats/photographer')).body).toMatchObject({
      totalSpent: order.totalAmountCents,
      activeOrders: 1,
    });

    const responses = await Promise.all(Array.from({ length: 10 }, () => cancel(admin, order.orderId)));

    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200));
    for (const response of responses) {
      expect(response.body).toMatchObject({
        refundedAmountCents: order.totalAmountCents,
        order: { id: order.orderId, status: 'cancelled', canCancel: false, canAssign: false },
      });
    }
    const refunds = await (await stripe()).refunds.list({ payment_intent: paymentIntentId });
    expect(refunds.data.map((r) => r.amount)).toEqual([order.totalAmountCents]);
    const stored = (await getOrder(order.orderId))!;
    expect(stored).toMatchObject({
      status: 'cancelled',
      cancelledBy: admin.uid,
      refundedAmountCents: order.totalAmountCents,
      refundId: refunds.data[0]!.id,
    });
    expect(stored.pool).toBeUndefined();
    expect((await db().payment.get({ paymentIntentId }).go()).data).toMatchObject({
      status: 'refunded',
      refundId: refunds.data[0]!.id,
    });
    expect((await as(photographer).get(`/api/orders/${order.orderId}`)).body.status).toBe('cancelled');
    expect((await as(photographer).get('/api/stats/photographer')).body).toMatchObject({
      totalSpent: 0,
      activeOrders: 0,
    });
    expect((await available(editor)).map((o) => o.id)).not.toContain(order.orderId);

    const again = await cancel(admin, order.orderId);
    expect(again.status).toBe(200);
    expect(again.body.refundedAmountCents).toBe(order.totalAmountCents);
    expect((await (await stripe()).refunds.list({ payment_intent: paymentIntentId })).data).toHaveLength(1);
    await waitFor(
      () => eventsOf(order.orderId, 'order_cancelled'),
      (events) => events.length > 0,
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await eventsOf(order.orderId, 'order_cancelled')).toHaveLength(1);
  }, 60_000);

  it('refunds nothing for an order awaiting payment and refuses one in progress', async () => {
    const [admin, photographer, editor] = await Promise.all([anAdmin(), aPhotographer(), anEditor('Eve')]);
    const created = await as(photographer).post('/api/orders', { jobTypeId: 'hdr', photoCount: 2 });
    const pendingId = (created.body as CreateOrderResponse).order.id;
    const started = await anOrder(photographer);
    await claimOrder({ orderId: started.orderId, editor: editorOf(editor), rateCents: 100 });

    const cancelled = await cancel(admin, pendingId);
    const refused = await cancel(admin, started.orderId);

    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ refundedAmountCents: 0, order: { status: 'cancelled' } });
    const intent = (created.body as CreateOrderResponse).order.stripePaymentIntentId;
    expect((await (await stripe()).refunds.list({ payment_intent: intent })).data).toHaveLength(0);
    // The photographer's card form can no longer charge the cancelled order.
    await expect((await stripe()).paymentIntents.confirm(intent, { payment_method: 'pm_card_visa' })).rejects.toThrow(
      /status of canceled/,
    );
    expect(await getOrder(pendingId)).toMatchObject({ status: 'cancelled', refundedAmountCents: 0 });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('This order is in progress and cannot be cancelled');
    expect(await getOrder(started.orderId)).toMatchObject({ status: 'in_progress', editorId: editor.uid });
    expect((await cancel(admin, ulid())).status).toBe(404);
  });

  it('refunds an order whose card payment went through before the order was marked paid', async () => {
    const [admin, photographer] = await Promise.all([anAdmin(), aPhotographer()]);
    const created = await as(photographer).post('/api/orders', { jobTypeId: 'hdr', photoCount: 2 });
    const { order } = created.body as CreateOrderResponse;
    await (await stripe()).paymentIntents.confirm(order.stripePaymentIntentId, { payment_method: 'pm_card_visa' });

    const response = await cancel(admin, order.id);

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ refundedAmountCents: 1600, order: { status: 'cancelled' } });
    const refunds = await (await stripe()).refunds.list({ payment_intent: order.stripePaymentIntentId });
    expect(refunds.data.map((r) => r.amount)).toEqual([1600]);
    expect((await as(photographer).get('/api/stats/photographer')).body).toMatchObject({
      totalSpent: 0,
      activeOrders: 0,
    });
  });
});
