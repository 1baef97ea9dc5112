import type { CreateOrderResponse } from '@marketplace/events/orders';
import Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_STRIPE_PUBLISHABLE_KEY } from '../local/stack';
import { type HourTotals, hourOf, hourStart, readHours } from '../src/data/insights';
import { hashInvitationToken } from '../src/data/invitations';
import { editorScope, getOrder, readCounters } from '../src/data/orders';
import { revisionMessages } from '../src/data/revisions';
import { checkCounters } from '../src/ops/check-counters';
import { recountInsights } from '../src/ops/insights';
import {
  aCompletedOrder,
  anOrderInProgress,
  anOrderPaidByCard,
  aPaidOrder,
  editorCounters,
  expectAssignmentCountersExact,
  expectOneWinner,
  searchWordAssignments,
  settledEventTypes,
  warmUpRoutes,
} from './race-builders';
import { stripe } from './stripe-sdk';
import {
  accountsMadeHere,
  aNewAccount,
  anEditor,
  aPhotographer,
  as,
  aUserWithRoles,
  call,
  db,
  type TestAccount,
  waitFor,
} from './support';

/**
 * Every race the marketplace has, each fired truly at once through the local gateway: one winner,
 * the others our JSON 409 with a sentence a person can act on, one event in the order's activity
 * log, and every counter the race touches right afterwards. Where a duplicate is not a conflict
 * but the same request again (a webhook Stripe redelivers, a cancel the admin clicked twice) the
 * duplicates succeed and the test asserts that nothing happened twice instead.
 */
const anAdmin = () => aUserWithRoles(['admin'], { displayName: 'Ada Admin' });

const claim = (editor: TestAccount, orderId: string) => as(editor).post(`/api/orders/${orderId}/claim`);
const assign = (admin: TestAccount, orderId: string, editorId: string) =>
  as(admin).patch(`/api/orders/admin/${orderId}/assign`, { editorId });
const cancel = (admin: TestAccount, orderId: string) => as(admin).post(`/api/orders/admin/${orderId}/cancel`);
const adminEditorStats = async (admin: TestAccount, editor: TestAccount) =>
  (await as(admin).get(`/api/admin/editors/${editor.uid}/stats`)).body;
const refundsOf = async (paymentIntentId: string) =>
  (await (await stripe()).refunds.list({ payment_intent: paymentIntentId })).data;

const PAID = ['order_created', 'order_paid'];
/** The races' events fall in the UTC hours from this file's start on (the Insights rollups' hours). */
const racesBegan = Date.now();
const HOUR_MS = 3_600_000;

beforeAll(async () => {
  await warmUpRoutes(await aUserWithRoles(['photographer', 'editor', 'admin']));
}, 120_000);
const ALREADY_CLAIMED = 'This order has already been claimed';

describe('races on an order', () => {
  it('50 editors claim one order at once: one wins, 49 get 409, one order_claimed, one active order', async () => {
    const [photographer, admin, editors] = await Promise.all([
      aPhotographer(),
      anAdmin(),
      Promise.all(Array.from({ length: 50 }, () => anEditor())),
    ]);
    const order = await aPaidOrder(photographer);

    const answers = await Promise.all(editors.map((editor) => claim(editor, order.orderId)));

    const winner = editors[expectOneWinner(answers, { message: ALREADY_CLAIMED })]!;
    const stored = (await getOrder(order.orderId))!;
    expect(stored).toMatchObject({ status: 'in_progress', editorId: winner.uid, assignment: 'assigned' });
    expect(stored.pool).toBeUndefined();
    expect(await settledEventTypes(photographer, order.orderId, [...PAID, 'order_claimed'])).toEqual([
      ...PAID,
      'order_claimed',
    ]);
    expect((await as(winner).get('/api/stats/editor')).body).toMatchObject({ activeOrders: 1, completedOrders: 0 });
    const losersActive = await Promise.all(
      editors.filter((e) => e !== winner).map(async (e) => (await editorCounters(e)).activeOrders ?? 0),
    );
    expect(losersActive).toEqual(Array(49).fill(0));
    expect(await adminEditorStats(admin, winner)).toMatchObject({ activeOrders: 1, completedOrders: 0 });
    expect((await as(photographer).get('/api/stats/photographer')).body).toMatchObject({
      activeOrders: 1,
      totalSpent: order.totalAmountCents,
    });
    expect(new Set(await searchWordAssignments(stored))).toEqual(new Set(['assigned']));
    await expectAssignmentCountersExact();
  }, 60_000);

  it("Stripe's webhook x10 and the browser's payment-success x10 at once pay the order once", async () => {
    const photographer = await aPhotographer();
    const created = await as(photographer).post('/api/orders', { jobTypeId: 'hdr', photoCount: 2 });
    const { order } = created.body as CreateOrderResponse;
    // Confirmed as Stripe.js does it: the fake's own signed webhook is on its way during the race too.
    const confirmed = await fetch(
      `${process.env.STRIPE_API_URL}/v1/payment_intents/${order.stripePaymentIntentId}/confirm`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${LOCAL_STRIPE_PUBLISHABLE_KEY}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ payment_method: 'pm_card_visa', client_secret: created.body.stripeClientSecret }),
      },
    );
    const intent = await confirmed.json();
    const webhook = () => {
      // Each delivery its own event id, as separate Stripe events about one payment would have.
      const payload = JSON.stringify({
        id: `evt_race_${Math.random().toString(36).slice(2)}`,
        object: 'event',
        type: 'payment_intent.succeeded',
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        data: { object: intent },
      });
      const signature = Stripe.webhooks.generateTestHeaderString({
        payload,
        secret: process.env.STRIPE_WEBHOOK_SECRET!,
      });
      return fetch(`${process.env.API_URL}/api/webhooks/stripe`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body: payload,
      }).then(async (r) => ({ status: r.status, body: await r.json() }));
    };
    const paymentSuccess = () =>
      as(photographer).post(`/api/orders/${order.id}/payment-success`, {
        paymentIntentId: order.stripePaymentIntentId,
      });

    const answers = await Promise.all([
      ...Array.from({ length: 10 }, webhook),
      ...Array.from({ length: 10 }, paymentSuccess),
    ]);

    // Not 409s: a webhook answered anything but 2xx is redelivered by Stripe for days, and the
    // browser reporting a payment that did go through must show the paid order, not an error.
    // The race is in markOrderPaid's conditional write; its one winner shows in the effects.
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(answers.slice(10).map((a) => a.body.status)).toEqual(Array(10).fill('paid'));
    expect(await settledEventTypes(photographer, order.id, PAID)).toEqual(PAID);
    expect((await as(photographer).get('/api/stats/photographer')).body).toMatchObject({
      activeOrders: 1,
      totalSpent: 1600,
    });
    expect((await db().payment.get({ paymentIntentId: order.stripePaymentIntentId }).go()).data?.status).toBe(
      'succeeded',
    );
    expect(await getOrder(order.id)).toMatchObject({ status: 'paid', pool: 'open', assignment: 'unassigned' });
  }, 60_000);

  it('an admin assignment against a claim, on six orders at once: one owner per order', async () => {
    const [admin, photographer, ann, ben] = await Promise.all([
      anAdmin(),
      aPhotographer(),
      anEditor({ displayName: 'Ann' }),
      anEditor({ displayName: 'Ben' }),
    ]);
    const orders = await Promise.all(Array.from({ length: 6 }, () => aPaidOrder(photographer)));

    const rounds = await Promise.all(
      orders.map(async (order) => {
        const [assigned, claimed] = await Promise.all([
          assign(admin, order.orderId, ben.uid),
          claim(ann, order.orderId),
        ]);
        return { order, assigned, claimed };
      }),
    );

    for (const { order, assigned, claimed } of rounds) {
      const stored = (await getOrder(order.orderId))!;
      if (claimed.status === 200) {
        expect(assigned).toEqual({
          status: 409,
          body: { error: 'CONFLICT', message: 'This order is already in progress' },
        });
        expect(stored).toMatchObject({ status: 'in_progress', editorId: ann.uid });
        expect(stored.pool).toBeUndefined();
      } else {
        expect(assigned.status).toBe(200);
        // A claim that read the order after the assignment finds it offered to someone else, and
        // an order not offered to an editor does not exist for her (404, as in her list); one that
        // read it before loses the write: 409.
        if (claimed.status === 404) expect(claimed.body).toEqual({ error: 'NOT_FOUND', message: 'Order not found' });
        else expect(claimed).toEqual({ status: 409, body: { error: 'CONFLICT', message: ALREADY_CLAIMED } });
        expect(stored).toMatchObject({ status: 'paid', pool: ben.uid, editorId: ben.uid });
      }
      expect(stored.assignment).toBe('assigned');
      expect(new Set(await searchWordAssignments(stored))).toEqual(new Set(['assigned']));
    }
    const logs = await Promise.all(
      rounds.map(async ({ order, claimed }) => {
        const winning = claimed.status === 200 ? 'order_claimed' : 'order_assigned';
        return { winning, types: await settledEventTypes(photographer, order.orderId, [...PAID, winning]) };
      }),
    );
    for (const { winning, types } of logs) expect(types).toEqual([...PAID, winning]);
    const claimedByAnn = rounds.filter(({ claimed }) => claimed.status === 200).length;
    expect((await as(ann).get('/api/stats/editor')).body.activeOrders).toBe(claimedByAnn);
    expect((await editorCounters(ben)).activeOrders ?? 0).toBe(0);
    await expectAssignmentCountersExact();
  }, 60_000);

  it('bulk assignment against claims: each order goes to the bulk editor or its claimer, never both', async () => {
    const [admin, photographer, bea, claimers] = await Promise.all([
      anAdmin(),
      aPhotographer(),
      anEditor({ displayName: 'Bea Bulk' }),
      Promise.all(Array.from({ length: 10 }, () => anEditor())),
    ]);
    const orders = await Promise.all(claimers.map(() => aPaidOrder(photographer)));
    const orderIds = orders.map((o) => o.orderId);

    const [bulk, ...claims] = await Promise.all([
      as(admin).post('/api/orders/admin/bulk-assign', { orderIds, editorId: bea.uid }),
      ...claimers.map((editor, i) => claim(editor, orderIds[i]!)),
    ]);

    expect(bulk.status).toBe(200);
    const assigned = new Set<string>(bulk.body.assigned);
    const claimedIds = orderIds.filter((_, i) => claims[i]!.status === 200);
    expect(bulk.body.notAssigned).toEqual(
      claimedIds.map((orderId) => ({
        orderId,
        orderNumber: orders.find((o) => o.orderId === orderId)!.orderNumber,
        reason: 'already in progress',
      })),
    );
    for (const [i, orderId] of orderIds.entries()) {
      const stored = (await getOrder(orderId))!;
      const claimer = claimers[i]!;
      if (claims[i]!.status === 200) {
        expect(assigned.has(orderId)).toBe(false);
        expect(stored).toMatchObject({ status: 'in_progress', editorId: claimer.uid });
      } else {
        expect(assigned.has(orderId)).toBe(true);
        expect([404, 409]).toContain(claims[i]!.status);
        expect(claims[i]!.body.message).toBe(claims[i]!.status === 404 ? 'Order not found' : ALREADY_CLAIMED);
        expect(stored).toMatchObject({ status: 'paid', pool: bea.uid, editorId: bea.uid });
      }
      expect((await editorCounters(claimer)).activeOrders ?? 0).toBe(claims[i]!.status === 200 ? 1 : 0);
      expect(new Set(await searchWordAssignments(stored))).toEqual(new Set(['assigned']));
    }
    const winningEvents = await Promise.all(
      orderIds.map(async (orderId, i) => {
        const winning = claims[i]!.status === 200 ? 'order_claimed' : 'order_assigned';
        return { winning, types: await settledEventTypes(photographer, orderId, [...PAID, winning]) };
      }),
    );
    for (const { winning, types } of winningEvents) expect(types).toEqual([...PAID, winning]);
    const offeredToBea = (await as(bea).get('/api/orders/available?limit=50')).body.orders as { id: string }[];
    expect(
      offeredToBea
        .map((o) => o.id)
        .filter((id) => orderIds.includes(id))
        .sort(),
    ).toEqual([...assigned].sort());
    await expectAssignmentCountersExact();
  }, 60_000);

  it('the editor completes twice at once: one completion, one earning', async () => {
    const [admin, photographer, editor] = await Promise.all([anAdmin(), aPhotographer(), anEditor()]);
    const order = await anOrderInProgress(photographer, editor, { photoCount: 3, rateCents: 50 });

    const answers = await Promise.all([1, 2].map(() => as(editor).post(`/api/orders/${order.orderId}/complete`, {})));

    expectOneWinner(answers, { message: 'This order has already been completed' });
    const expected = [...PAID, 'order_claimed', 'edited_image_uploaded', 'order_completed'];
    expect(await settledEventTypes(photographer, order.orderId, expected)).toEqual(expected);
    expect((await as(editor).get('/api/stats/editor')).body).toEqual({
      activeOrders: 0,
      completedOrders: 1,
      totalEarnings: 150,
      pendingPayouts: 150,
    });
    expect(await adminEditorStats(admin, editor)).toMatchObject({ activeOrders: 0, completedOrders: 1 });
    expect((await as(photographer).get('/api/stats/photographer')).body.activeOrders).toBe(0);
  }, 60_000);

  it('the photographer rates twice at once: the first rating counts, the second gets 409', async () => {
    const [admin, photographer, editor] = await Promise.all([anAdmin(), aPhotographer(), anEditor()]);
    const order = await aCompletedOrder(photographer, editor);

    const answers = await Promise.all(
      [4, 9].map((rating) => as(photographer).post(`/api/orders/${order.orderId}/rate`, { rating })),
    );

    const winner = expectOneWinner(answers, { message: 'This order has already been rated' });
    const rating = winner === 0 ? 4 : 9;
    expect((await getOrder(order.orderId))?.photographerRating).toBe(rating);
    const expected = [...PAID, 'order_claimed', 'edited_image_uploaded', 'order_completed', 'order_rated'];
    expect(await settledEventTypes(photographer, order.orderId, expected)).toEqual(expected);
    expect(await adminEditorStats(admin, editor)).toMatchObject({ ratingCount: 1, averageRating: rating });
    expect(await readCounters(editorScope(editor.uid))).toMatchObject({ ratingCount: 1, ratingSum: rating });
  }, 60_000);

  it('the photographer asks for a revision twice at once: one round opens, the other gets 409', async () => {
    const [photographer, editor] = await Promise.all([aPhotographer(), anEditor()]);
    const order = await aCompletedOrder(photographer, editor);

    const answers = await Promise.all(
      ['Brighter sky', 'Straighter walls'].map((note) =>
        as(photographer).post(`/api/orders/${order.orderId}/revisions`, { note }),
      ),
    );

    expectOneWinner(answers, { winnerStatus: 201, message: revisionMessages.inProgress });
    expect((await db().orderRevision.query.byOrder({ orderId: order.orderId }).go()).data).toHaveLength(1);
    const expected = [...PAID, 'order_claimed', 'edited_image_uploaded', 'order_completed', 'revision_requested'];
    expect(await settledEventTypes(photographer, order.orderId, expected)).toEqual(expected);
    expect((await as(editor).get('/api/stats/editor')).body).toMatchObject({ activeOrders: 1, completedOrders: 1 });
    expect((await as(photographer).get('/api/stats/photographer')).body.activeOrders).toBe(1);
  }, 60_000);
});

describe('races on money', () => {
  it('cancel-and-refund x5 at once: cancelled once, refunded once at Stripe', async () => {
    const [admin, photographer] = await Promise.all([anAdmin(), aPhotographer()]);
    const order = await anOrderPaidByCard(photographer);
    const paymentIntentId = order.stripePaymentIntentId!;

    const answers = await Promise.all(Array.from({ length: 5 }, () => cancel(admin, order.orderId)));

    // Every cancel answers the cancelled order: the admin's second click (or a retry after a lost
    // answer) asks for the state that now holds, and a cancel again is how a failed refund is
    // retried. The race is in the cancel's conditional write and Stripe's idempotency key.
    expect(answers.map((a) => a.status)).toEqual(Array(5).fill(200));
    for (const answer of answers) {
      expect(answer.body).toMatchObject({ refundedAmountCents: 1600, order: { status: 'cancelled' } });
    }
    const refunds = await refundsOf(paymentIntentId);
    expect(refunds.map((r) => r.amount)).toEqual([1600]);
    expect(await getOrder(order.orderId)).toMatchObject({ refundId: refunds[0]!.id, refundedAmountCents: 1600 });
    expect((await db().payment.get({ paymentIntentId }).go()).data).toMatchObject({
      status: 'refunded',
      refundId: refunds[0]!.id,
    });
    // The refund is its own event, once: its receipt is made from it.
    expect(
      await settledEventTypes(photographer, order.orderId, [...PAID, 'order_cancelled', 'order_refunded']),
    ).toEqual([...PAID, 'order_cancelled', 'order_refunded']);
    expect((await as(photographer).get('/api/stats/photographer')).body).toMatchObject({
      totalSpent: 0,
      activeOrders: 0,
    });
  }, 60_000);

  it('a cancel against two claims, on three orders at once: cancelled and refunded, or claimed and kept', async () => {
    const [admin, photographer, editors] = await Promise.all([
      anAdmin(),
      aPhotographer(),
      Promise.all([1, 2].map(() => anEditor())),
    ]);
    const orders = await Promise.all([1, 2, 3].map(() => anOrderPaidByCard(photographer)));

    const rounds = await Promise.all(
      orders.map(async (order) => {
        const [cancelled, ...claims] = await Promise.all([
          cancel(admin, order.orderId),
          ...editors.map((editor) => claim(editor, order.orderId)),
        ]);
        return { order, cancelled: cancelled!, claims };
      }),
    );

    for (const { order, cancelled, claims } of rounds) {
      const stored = (await getOrder(order.orderId))!;
      const refunds = await refundsOf(order.stripePaymentIntentId!);
      if (cancelled.status === 200) {
        for (const lost of claims) {
          expect(lost).toEqual({ status: 409, body: { error: 'CONFLICT', message: 'This order has been cancelled' } });
        }
        expect(stored.status).toBe('cancelled');
        expect(refunds.map((r) => r.amount)).toEqual([1600]);
      } else {
        expect(cancelled).toEqual({
          status: 409,
          body: { error: 'CONFLICT', message: 'This order is in progress and cannot be cancelled' },
        });
        const winner = editors[expectOneWinner(claims, { message: ALREADY_CLAIMED })]!;
        expect(stored).toMatchObject({ status: 'in_progress', editorId: winner.uid });
        expect(refunds).toHaveLength(0);
      }
    }
    const claimed = rounds.filter(({ cancelled }) => cancelled.status !== 200).length;
    const logs = await Promise.all(
      rounds.map(async ({ order, cancelled }) => {
        const winning = cancelled.status === 200 ? ['order_cancelled', 'order_refunded'] : ['order_claimed'];
        return { winning, types: await settledEventTypes(photographer, order.orderId, [...PAID, ...winning]) };
      }),
    );
    for (const { winning, types } of logs) expect(types).toEqual([...PAID, ...winning]);
    expect((await as(photographer).get('/api/stats/photographer')).body).toMatchObject({
      totalSpent: 1600 * claimed,
      activeOrders: claimed,
    });
    const active = await Promise.all(editors.map(async (e) => (await editorCounters(e)).activeOrders ?? 0));
    expect(active.reduce((a, b) => a + b, 0)).toBe(claimed);
  }, 60_000);

  it('two admins pay an editor everything pending at once: one payout, never overpaid', async () => {
    const [admin, photographer, editor] = await Promise.all([anAdmin(), aPhotographer(), anEditor()]);
    await aCompletedOrder(photographer, editor, 4);
    const pending = (await as(editor).get('/api/stats/editor')).body.pendingPayouts as number;
    expect(pending).toBe(200);

    const answers = await Promise.all(
      [1, 2].map(() => as(admin).post(`/api/admin/editors/${editor.uid}/payouts`, { amountCents: pending })),
    );

    expectOneWinner(answers, { winnerStatus: 201, message: 'Cannot pay more than the pending $0.00' });
    const payouts = (await as(admin).get(`/api/admin/editors/${editor.uid}/payouts`)).body;
    expect(payouts).toMatchObject({ pendingPayoutCents: 0, paidOutCents: 200 });
    expect(payouts.payouts).toHaveLength(1);
    expect((await as(editor).get('/api/stats/editor')).body).toMatchObject({ pendingPayouts: 0, totalEarnings: 200 });
  }, 60_000);
});

describe('races on an invitation', () => {
  it('two completions with one token at once: one editor made, the other gets 409', async () => {
    const admin = await anAdmin();
    const jobTypes = (await as(admin).get('/api/orders/job-types')).body as { id: string; name: string }[];
    const hdr = jobTypes.find((j) => j.name === 'HDR')!;
    const email = `race-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`;
    const invited = await as(admin).post('/api/admin/invite-editor', {
      email,
      displayName: 'Ivy Invited',
      jobTypeRates: [{ jobTypeId: hdr.id, ratePerPhotoCents: 400 }],
    });
    expect(invited.status).toBe(201);
    const { emails } = (await (await fetch(`${process.env.SES_ENDPOINT}/store`)).json()) as {
      emails: { destination: { to: string[] }; body: { text: string } }[];
    };
    const mail = emails.find((e) => e.destination.to.includes(email))!;
    const token = new URL(mail.body.text.match(/https?:\/\/\S+\/invitation\?\S+/)![0]).searchParams.get('token')!;
    const account = await aNewAccount({ email });
    const complete = () =>
      call('/api/auth/complete-signup', {
        method: 'POST',
        body: { email, token, firebaseUid: account.uid, idToken: account.token },
      });

    const answers = await Promise.all([complete(), complete()]);

    expectOneWinner(answers, { message: 'This invitation has already been used' });
    expect((await db().user.get({ userId: account.uid }).go()).data).toMatchObject({
      roles: ['editor'],
      status: 'verified',
    });
    expect((await db().user.get({ userId: invited.body.user.id }).go()).data).toBeNull();
    const rates = (await db().editorRate.query.byEditor({ editorId: account.uid }).go()).data;
    expect(rates.map((r) => [r.jobTypeId, r.ratePerPhotoCents])).toEqual([[hdr.id, 400]]);
    expect((await db().user.query.byEmail({ email }).go()).data).toHaveLength(1);
    expect(
      (
        await db()
          .invitation.get({ tokenHash: hashInvitationToken(token) })
          .go()
      ).data?.status,
    ).toBe('accepted');
  }, 60_000);
});

describe('after every race', () => {
  it('every counter of the accounts these races made equals a count of their items', async () => {
    // Other files write beside this one: their accounts' counters are theirs to check.
    const ofThisFile = (scope: string) => accountsMadeHere.has(scope.slice(scope.indexOf('#') + 1));
    expect(await checkCounters({ inScope: ofThisFile })).toEqual([]);
    await expectAssignmentCountersExact();
  }, 120_000);

  it("the Insights rollups of the races' hours equal a recount of those hours from the event log", async () => {
    // A rollup sums every order's events of its hour, so it cannot be cut down to these races'
    // orders: whole hours are compared, while other files keep adding events to them and each
    // rollup follows its event by the queues' delay. Hence a sandwich, not one reading: the
    // rollups read before the recount hold no figure above it (nothing counted twice, nothing the
    // log lacks), and a reading after it reaches every figure of it (every logged event rolled
    // up). With nothing else running the three are equal. The pool's depth is a reading of its
    // counters, not a sum of events: it is left out.
    const first = hourOf(racesBegan);
    const to = new Date(hourStart(hourOf(Date.now())) + HOUR_MS);
    const figures = (hours: Iterable<readonly [string, HourTotals]>) => {
      const flat = new Map<string, number>();
      for (const [hour, t] of hours) {
        const put = (name: string, value: number) => value && flat.set(`${hour} ${name}`, value);
        for (const [name, value] of Object.entries(t)) if (typeof value === 'number') put(name, value);
        for (const [bucket, count] of Object.entries(t.turnaround)) put(`turnaround ${bucket}`, count);
        for (const [id, jobType] of Object.entries(t.jobTypes)) put(`jobType ${id} orders`, jobType.orders);
        for (const [id, editor] of Object.entries(t.editors)) {
          for (const [name, value] of Object.entries(editor))
            if (typeof value === 'number') put(`editor ${id} ${name}`, value);
        }
      }
      return flat;
    };
    const rolledUp = async () =>
      figures((await readHours(first, hourOf(to.getTime() - HOUR_MS))).map((rollup) => [rollup.hour, rollup] as const));
    const above = (a: Map<string, number>, b: Map<string, number>) =>
      [...a]
        .filter(([key, value]) => value > (b.get(key) ?? 0))
        .map(([key, value]) => `${key}: ${value} > ${b.get(key) ?? 0}`);

    const before = await rolledUp();
    const recount = figures((await recountInsights({ from: new Date(hourStart(first)), to })).hours);
    const after = await waitFor(rolledUp, (rollups) => above(recount, rollups).length === 0, 120_000);

    // The races paid, completed and rated orders in these hours.
    expect([...recount.keys()].some((key) => key.endsWith(' ordersPaid'))).toBe(true);
    expect(above(before, recount), 'rolled up beyond the event log').toEqual([]);
    expect(above(recount, after), 'in the event log, never rolled up').toEqual([]);
  }, 240_000);
});
