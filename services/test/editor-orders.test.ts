import { AVAILABLE_ORDERS_MAX_SKIPPED, type AvailableOrdersResponse } from '@marketplace/events/editor-orders';
import { ulid } from 'ulid';
import { beforeAll, describe, expect, it } from 'vitest';
import { assignOrder } from '../src/data/admin-assignment';
import { pageTooDeepMessage } from '../src/data/editor-orders';
import { setEditorRate } from '../src/data/editor-rates';
import {
  completeOrder,
  createOrder,
  getOrder,
  markOrderPaid,
  nextOrderNumber,
  type OrderRecord,
} from '../src/data/orders';
import { dollarsToCents, recordPayout } from '../src/ops/payouts';
import { OpsError } from '../src/ops/roles';
import { aPhotographer, as, aUserWithRoles, db, type TestAccount } from './support';

/**
 * The pool is shared with every other test, so these assertions look at the orders seeded here:
 * where they appear, in which relative order, and how totals differ between two editors who see
 * the same open pool but not the same assignments.
 */
const SEEDED = 200;
const jobTypeId = `job-${ulid()}`;
const RATE_CENTS = 125;

interface Seeded {
  record: OrderRecord;
  withRequirements: boolean;
  assignedToFirstEditor: boolean;
}

let photographer: TestAccount;
let assignee: TestAccount;
let bystander: TestAccount;
let seeded: Seeded[];

const seedOne = async (i: number): Promise<Seeded> => {
  const orderId = ulid();
  const photoCount = 1 + (i % 17);
  const withRequirements = i % 3 === 0;
  await createOrder({
    orderId,
    orderNumber: await nextOrderNumber(),
    photographer: { userId: photographer.uid, name: 'Paging Photographer' },
    jobType: { jobTypeId, name: 'Paging test', pricePerPhotoCents: 800 },
    input: { photoCount, ...(withRequirements ? { editingRequirements: `Straighten verticals #${i}` } : {}) },
    // Distinct, varied totals (37 is coprime with 200), far above other tests' orders.
    totalAmountCents: 5_000_000 + ((i * 37) % SEEDED) * 100,
    stripePaymentIntentId: `pi_test_${orderId}`,
  });
  const created = (await getOrder(orderId))!;
  await markOrderPaid({
    orderId,
    paymentIntentId: `pi_test_${orderId}`,
    amountCents: created.totalAmountCents,
    via: 'client',
  });
  const assignedToFirstEditor = i % 2 === 0;
  if (assignedToFirstEditor) await assignOrder({ orderId, editorId: assignee.uid, adminId: 'paging-test-admin' });
  return { record: (await getOrder(orderId))!, withRequirements, assignedToFirstEditor };
};

type Query = { filter: string; sort: string };

const availableResponse = (editor: TestAccount, query: Query & { page?: number; limit?: number; cursor?: string }) => {
  const params = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  return as(editor).get(`/api/orders/available?${params}`);
};

const available = async (editor: TestAccount, query: Query & { page?: number; limit?: number; cursor?: string }) => {
  const response = await availableResponse(editor, query);
  if (response.status !== 200) throw new Error(`available orders: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as AvailableOrdersResponse;
};

/** Every page from the first to the last, each asked for with the previous page's cursor, as Next does. */
const allPages = async (editor: TestAccount, query: Query, limit = 25) => {
  const pages = [await available(editor, { ...query, page: 1, limit })];
  for (let cursor = pages[0]!.nextCursor; cursor; cursor = pages.at(-1)!.nextCursor) {
    pages.push(await available(editor, { ...query, page: pages.length + 1, limit, cursor }));
  }
  return { total: pages[0]!.total, pageCount: pages.length, orders: pages.flatMap((p) => p.orders) };
};

const byNewest = (a: Seeded, b: Seeded) =>
  a.record.createdAt === b.record.createdAt
    ? b.record.orderId.localeCompare(a.record.orderId)
    : b.record.createdAt.localeCompare(a.record.createdAt);
const ids = (list: Seeded[]) => list.map((s) => s.record.orderId);
const seededIdsIn = (orders: { id: string }[]) => {
  const mine = new Set(ids(seeded));
  return orders.map((o) => o.id).filter((id) => mine.has(id));
};

beforeAll(async () => {
  [photographer, assignee, bystander] = await Promise.all([
    aPhotographer(),
    aUserWithRoles(['editor'], { displayName: 'Assigned Editor' }),
    aUserWithRoles(['editor'], { displayName: 'Bystander Editor' }),
  ]);
  await setEditorRate({ editorId: assignee.uid, jobTypeId, ratePerPhotoCents: RATE_CENTS });
  seeded = [];
  for (let batch = 0; batch < SEEDED; batch += 25) {
    seeded.push(...(await Promise.all(Array.from({ length: 25 }, (_, i) => seedOne(batch + i)))));
  }
}, 180_000);

// Walking the whole pool a page at a time takes tens of seconds when the machine is busy (this file
// runs beside the parallel run): a correctness test, so its budget is generous.
describe('available orders', { timeout: 120_000 }, () => {
  it('pages through every order newest first, each seeded order exactly once and in order', async () => {
    const { total, pageCount, orders } = await allPages(assignee, { filter: 'all', sort: 'newest' });

    expect(orders).toHaveLength(total);
    expect(pageCount).toBe(Math.ceil(total / 25));
    expect(new Set(orders.map((o) => o.id)).size).toBe(orders.length);
    expect(seededIdsIn(orders)).toEqual(ids([...seeded].sort(byNewest)));
  });

  it('sorts oldest first and by highest price over the whole pool, not one page', async () => {
    const oldest = await allPages(assignee, { filter: 'all', sort: 'oldest' });
    expect(seededIdsIn(oldest.orders)).toEqual(ids([...seeded].sort(byNewest).reverse()));

    const dearest = await allPages(assignee, { filter: 'all', sort: 'highest-price' });
    const expected = [...seeded].sort((a, b) => b.record.totalAmountCents - a.record.totalAmountCents);
    expect(seededIdsIn(dearest.orders)).toEqual(ids(expected));
    const amounts = dearest.orders.map((o) => o.totalAmountCents);
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
    // The seeded orders are the dearest in the pool, so they fill the first pages.
    expect(dearest.orders.slice(0, SEEDED).map((o) => o.id)).toEqual(ids(expected));
  });

  it('filters on the server by editing requirements, with totals for each filter', async () => {
    const withRequirements = await allPages(assignee, { filter: 'with-requirements', sort: 'newest' });
    const withoutRequirements = await allPages(assignee, { filter: 'no-requirements', sort: 'newest' });

    expect(withRequirements.orders.every((o) => o.editingRequirements)).toBe(true);
    expect(withoutRequirements.orders.every((o) => !o.editingRequirements)).toBe(true);
    const sorted = [...seeded].sort(byNewest);
    expect(seededIdsIn(withRequirements.orders)).toEqual(ids(sorted.filter((s) => s.withRequirements)));
    expect(seededIdsIn(withoutRequirements.orders)).toEqual(ids(sorted.filter((s) => !s.withRequirements)));
    const all = await available(assignee, { filter: 'all', sort: 'newest' });
    expect(withRequirements.total + withoutRequirements.total).toBe(all.total);
  });

  it('counts the orders assigned to an editor for them only: the difference between two editors is exactly those', async () => {
    for (const filter of ['all', 'with-requirements', 'no-requirements'] as const) {
      const assignedHere = seeded.filter(
        (s) => s.assignedToFirstEditor && (filter === 'all' || (filter === 'with-requirements') === s.withRequirements),
      ).length;
      const [mine, theirs] = await Promise.all([
        available(assignee, { filter, sort: 'newest', limit: 1 }),
        available(bystander, { filter, sort: 'newest', limit: 1 }),
      ]);
      expect(mine.total - theirs.total).toBe(assignedHere);
    }
    const bystanderView = await allPages(bystander, { filter: 'all', sort: 'oldest' });
    expect(seededIdsIn(bystanderView.orders)).toEqual(
      ids(
        [...seeded]
          .sort(byNewest)
          .reverse()
          .filter((s) => !s.assignedToFirstEditor),
      ),
    );
  });

  it('answers 20 a page by default, with earnings at this editor’s rate or null without one', async () => {
    const [mine, theirs] = await Promise.all([
      available(assignee, { filter: 'all', sort: 'highest-price' }),
      available(bystander, { filter: 'all', sort: 'highest-price' }),
    ]);
    expect(mine.orders).toHaveLength(20);
    const top = [...seeded].sort((a, b) => b.record.totalAmountCents - a.record.totalAmountCents)[0]!;
    expect(mine.orders[0]).toMatchObject({
      id: top.record.orderId,
      status: 'paid',
      potentialEarningsCents: RATE_CENTS * top.record.photoCount,
      assignedToMe: top.assignedToFirstEditor,
    });
    const openOnes = theirs.orders.filter((o) => seededIdsIn([o]).length);
    expect(openOnes.length).toBeGreaterThan(0);
    expect(openOnes.every((o) => o.potentialEarningsCents === null && !o.assignedToMe)).toBe(true);
  });

  it('drops a claimed order from the list and its total', async () => {
    const target = [...seeded].sort(byNewest).find((s) => s.assignedToFirstEditor)!;
    const response = await as(assignee).post(`/api/orders/${target.record.orderId}/claim`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: target.record.orderId, status: 'in_progress' });
    const after = await allPages(assignee, { filter: 'all', sort: 'highest-price' }, 50);
    expect(after.orders.map((o) => o.id)).not.toContain(target.record.orderId);
    const [mine, theirs] = await Promise.all([
      available(assignee, { filter: 'all', sort: 'newest', limit: 1 }),
      available(bystander, { filter: 'all', sort: 'newest', limit: 1 }),
    ]);
    expect(mine.total - theirs.total).toBe(seeded.filter((s) => s.assignedToFirstEditor).length - 1);
  });

  it('opens a page by its number within the first orders, the same page Next reaches', async () => {
    const query = { filter: 'all', sort: 'highest-price', limit: 20 };
    const first = await available(assignee, { ...query, page: 1 });
    const second = await available(assignee, { ...query, page: 2, cursor: first.nextCursor! });
    const third = await available(assignee, { ...query, page: 3, cursor: second.nextCursor! });
    const [jumpedToSecond, jumpedToThird] = await Promise.all([
      available(assignee, { ...query, page: 2 }),
      available(assignee, { ...query, page: 3 }),
    ]);
    expect(jumpedToSecond.orders.map((o) => o.id)).toEqual(second.orders.map((o) => o.id));
    expect(jumpedToThird.orders.map((o) => o.id)).toEqual(third.orders.map((o) => o.id));
    expect(jumpedToThird.nextCursor).toBe(third.nextCursor);
  });

  it('refuses a page by number beyond the first orders, and a cursor that is not one of its sort', async () => {
    const deepest = AVAILABLE_ORDERS_MAX_SKIPPED / 20 + 1;
    expect(
      (await availableResponse(assignee, { filter: 'all', sort: 'newest', limit: 20, page: deepest })).status,
    ).toBe(200);
    const tooDeep = await availableResponse(assignee, { filter: 'all', sort: 'newest', limit: 20, page: deepest + 1 });
    expect(tooDeep).toEqual({
      status: 400,
      body: { error: 'PAGE_TOO_DEEP', message: pageTooDeepMessage(deepest + 1) },
    });

    const newest = await available(assignee, { filter: 'all', sort: 'newest', limit: 1 });
    const invalid = {
      error: 'BAD_REQUEST',
      message: 'This page link is no longer valid. Please start again from the first page.',
    };
    for (const [sort, cursor] of [
      ['oldest', newest.nextCursor!],
      ['newest', 'not-a-cursor'],
      ['newest', Buffer.from(JSON.stringify({ sort: 'newest', orderId: 'x' })).toString('base64url')],
    ]) {
      const response = await availableResponse(assignee, { filter: 'all', sort: sort!, cursor: cursor! });
      expect(response, `${sort} ${cursor}`).toEqual({ status: 400, body: invalid });
    }
  });

  it('rejects a page size above the maximum and an unknown sort', async () => {
    expect((await as(assignee).get('/api/orders/available?limit=51')).status).toBe(400);
    expect((await as(assignee).get('/api/orders/available?sort=cheapest')).status).toBe(400);
  });
});

describe('recording a payout', () => {
  const anEarningEditor = async () => {
    const editor = await aUserWithRoles(['editor']);
    const order = seeded.find(
      (s) => !s.assignedToFirstEditor && s.record.status === 'paid' && s.record.photoCount > 1,
    )!;
    seeded = seeded.filter((s) => s !== order);
    await setEditorRate({ editorId: editor.uid, jobTypeId, ratePerPhotoCents: 1000 });
    expect((await as(editor).post(`/api/orders/${order.record.orderId}/claim`)).status).toBe(200);
    await db().order.update({ orderId: order.record.orderId }).add({ editorUploadCount: 1 }).go();
    await completeOrder({ orderId: order.record.orderId, editorId: editor.uid });
    return { editor, earned: order.record.photoCount * 1000 };
  };

  const paidOut = async (editorId: string) =>
    (
      await db()
        .counter.get({ scope: `editor#${editorId}`, name: 'paidOut' })
        .go()
    ).data?.value ?? 0;

  it('moves the amount from pending to paid out, once per payout id', async () => {
    const { editor, earned } = await anEarningEditor();
    expect((await as(editor).get('/api/stats/editor')).body.pendingPayouts).toBe(earned);

    const payoutId = `payout-${ulid()}`;
    const first = await recordPayout({ email: editor.email, amountCents: 500, payoutId });
    const again = await recordPayout({ email: editor.email, amountCents: 500, payoutId });

    expect(first.recorded).toBe(true);
    expect(again.recorded).toBe(false);
    expect((await as(editor).get('/api/stats/editor')).body).toMatchObject({
      totalEarnings: earned,
      pendingPayouts: earned - 500,
    });
    expect(await paidOut(editor.uid)).toBe(500);
  });

  it('refuses more than is pending and changes nothing', async () => {
    const { editor, earned } = await anEarningEditor();
    await expect(recordPayout({ email: editor.email, amountCents: earned + 1 })).rejects.toThrow(
      /more than is pending/,
    );
    expect((await as(editor).get('/api/stats/editor')).body.pendingPayouts).toBe(earned);
    expect(await paidOut(editor.uid)).toBe(0);

    await recordPayout({ email: editor.email, amountCents: earned });
    expect((await as(editor).get('/api/stats/editor')).body.pendingPayouts).toBe(0);
  });

  it('reads dollars as cents and refuses someone who is not an editor', async () => {
    expect(dollarsToCents('120')).toBe(12_000);
    expect(dollarsToCents('120.5')).toBe(12_050);
    expect(dollarsToCents('0.07')).toBe(7);
    expect(() => dollarsToCents('12.345')).toThrow(OpsError);
    expect(() => dollarsToCents('-3')).toThrow(OpsError);
    await expect(recordPayout({ email: photographer.email, amountCents: 100 })).rejects.toThrow(/No editor/);
  });
});
