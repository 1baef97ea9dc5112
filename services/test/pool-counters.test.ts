import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import {
  type AvailableOrdersQuery,
  type AvailableOrdersResponse,
  availableOrderFilters,
  availableOrderSorts,
  availableOrdersQuery,
} from '@marketplace/events/editor-orders';
import { type TurnaroundTier, turnaroundHours, turnaroundTiers } from '@marketplace/events/turnaround';
import { ulid } from 'ulid';
import { beforeAll, describe, expect, it, vi } from 'vitest';

/**
 * The available orders' totals and pages, over a table of this file's own: other files add and
 * claim open orders in the shared table all the time, and these checks need every order in the
 * pool to be one they made. The data modules are fresh copies bound to that table.
 */
const withOwnTable = async (label: string) => {
  const sharedTable = process.env.TABLE_NAME;
  process.env.TABLE_NAME = `${label}-${ulid().toLowerCase()}`;
  vi.resetModules();
  const config = await import('../src/config');
  config.resetConfig();
  const { dynamo, tableName } = await import('../src/data/client');
  const table = tableName();
  process.env.TABLE_NAME = sharedTable;
  const { ensureTable } = await import('../local/table-setup');
  await ensureTable(dynamo(), table, { stream: false });
  const entities = (await import('../src/data/entities')).marketplace().entities;
  return {
    dynamo,
    table,
    entities,
    orders: await import('../src/data/orders'),
    editorOrders: await import('../src/data/editor-orders'),
    admin: await import('../src/data/admin-assignment'),
    revisions: await import('../src/data/revisions'),
    pool: await import('../src/data/order-pool'),
    stripe: await import('../src/adapters/stripe'),
    stripeSdk: await import('./stripe-sdk'),
    poolCounters: (await import('../src/ops/counters/pool')).poolCounters,
    checkCounters: (await import('../src/ops/check-counters')).checkCounters,
  };
};
type OwnTable = Awaited<ReturnType<typeof withOwnTable>>;

const anEditorIn = async (t: OwnTable, name: string) => {
  const userId = `editor-${ulid()}`;
  await t.entities.user
    .create({
      userId,
      email: `${userId.toLowerCase()}@example.test`,
      displayName: name,
      roles: ['editor'],
      isEditor: 'editor',
    })
    .go();
  return { userId, email: `${userId.toLowerCase()}@example.test`, name };
};
type Editor = Awaited<ReturnType<typeof anEditorIn>>;

const query = (q: Partial<Record<keyof AvailableOrdersQuery, string | number>>) => availableOrdersQuery.parse(q);

/** Every page, each asked for with the previous page's cursor, as Next does. */
const walk = async (t: OwnTable, editor: Editor, q: Partial<Record<keyof AvailableOrdersQuery, string | number>>) => {
  const pages: AvailableOrdersResponse[] = [await t.editorOrders.listAvailableOrders(editor, query(q))];
  for (let cursor = pages[0]!.nextCursor; cursor; cursor = pages.at(-1)!.nextCursor) {
    pages.push(await t.editorOrders.listAvailableOrders(editor, query({ ...q, page: pages.length + 1, cursor })));
  }
  return { total: pages[0]!.total, pages, orders: pages.flatMap((p) => p.orders) };
};

/**
 * An order as written before the open pool was sharded: in the index partition of `pool` 'open'
 * (the key the `pool` composite made), with no `poolPartition`. Written to the item directly, as
 * ElectroDB would drop the index keys with the attribute.
 */
const removePoolPartition = (t: OwnTable, orderId: string) =>
  t.dynamo().send(
    new UpdateItemCommand({
      TableName: t.table,
      Key: marshall(t.entities.order.get({ orderId }).params().Key),
      UpdateExpression: 'SET gsi2pk = :legacy, gsi3pk = :legacy, gsi8pk = :legacy REMOVE poolPartition',
      ExpressionAttributeValues: marshall({ ':legacy': '$marketplace#pool_open' }),
    }),
  );

/** A paid order moved back to before the shards, counted in the legacy partition's counter. */
const makeLegacy = async (t: OwnTable, orderId: string) => {
  const order = (await t.orders.getOrder(orderId))!;
  await removePoolPartition(t, orderId);
  const flag = order.hasRequirements;
  const tier = order.turnaroundTier ?? 'standard';
  await t.entities.counter.update(t.pool.poolCounterKey(order.poolPartition!, flag)).add({ value: -1 }).go();
  await t.entities.counter.update(t.pool.poolCounterKey(t.pool.LEGACY_OPEN_PARTITION, flag)).add({ value: 1 }).go();
  await t.entities.counter
    .update(t.pool.poolTierCounterKey(order.poolPartition!, flag, tier))
    .add({ value: -1 })
    .go();
  await t.entities.counter
    .update(t.pool.poolTierCounterKey(t.pool.LEGACY_OPEN_PARTITION, flag, tier))
    .add({ value: 1 })
    .go();
};

describe('the available orders’ totals', () => {
  let t: OwnTable;
  let ann: Editor;
  let ben: Editor;
  const photographerId = `photographer-${ulid()}`;
  /** Where each order of this test is offered: 'open', an editor's id, or nowhere (null). */
  const offered = new Map<string, { flag: 'yes' | 'no'; tier: TurnaroundTier; to: string | null }>();

  beforeAll(async () => {
    t = await withOwnTable('pool-totals');
    [ann, ben] = await Promise.all([anEditorIn(t, 'Ann Assigned'), anEditorIn(t, 'Ben Bulk')]);
  }, 60_000);

  /** An order awaiting payment, with an intent at the Stripe fake when it is to be refunded. */
  const anOrder = async ({
    requirements = false,
    card = false,
    tier = 'standard',
  }: {
    requirements?: boolean;
    card?: boolean;
    tier?: TurnaroundTier;
  } = {}) => {
    const orderId = ulid();
    const orderNumber = await t.orders.nextOrderNumber();
    const totalAmountCents = 2400;
    const intent = card
      ? (await t.stripe.createOrderPaymentIntent({ orderId, orderNumber, amountCents: totalAmountCents })).id
      : `pi_test_${orderId}`;
    await t.orders.createOrder({
      orderId,
      orderNumber,
      photographer: { userId: photographerId, name: 'Tally Photographer' },
      jobType: { jobTypeId: 'hdr', name: 'HDR', pricePerPhotoCents: 800 },
      turnaround: { tier, surchargePerPhotoCents: 0 },
      input: { photoCount: 3, ...(requirements ? { editingRequirements: 'Keep the sky blue' } : {}) },
      totalAmountCents,
      stripePaymentIntentId: intent,
    });
    offered.set(orderId, { flag: requirements ? 'yes' : 'no', tier, to: null });
    return { orderId, intent, card, totalAmountCents };
  };

  const pay = async (order: Awaited<ReturnType<typeof anOrder>>) => {
    if (order.card) {
      await (await t.stripeSdk.stripe()).paymentIntents.confirm(order.intent, { payment_method: 'pm_card_visa' });
    }
    await t.orders.markOrderPaid({
      orderId: order.orderId,
      paymentIntentId: order.intent,
      amountCents: order.totalAmountCents,
      via: 'client',
    });
    offered.get(order.orderId)!.to = 'open';
  };

  const moved = (orderId: string, to: string | null) => {
    offered.get(orderId)!.to = to;
  };

  /** Each editor's total for each filter, and the orders their pages list, are what the moves left. */
  const expectTotalsAsMoved = async (step: string) => {
    for (const editor of [ann, ben]) {
      const mine = [...offered].filter(([, o]) => o.to === 'open' || o.to === editor.userId);
      for (const filter of availableOrderFilters) {
        const expected = mine.filter(
          ([, o]) => filter === 'all' || o.flag === (filter === 'with-requirements' ? 'yes' : 'no'),
        );
        const { total, orders } = await walk(t, editor, { filter, limit: 2 });
        const label = `${step}: ${editor.name}, ${filter}`;
        expect(total, label).toBe(expected.length);
        expect(orders.map((o) => o.id).sort(), label).toEqual(expected.map(([id]) => id).sort());
        for (const order of orders) {
          expect(order.assignedToMe, label).toBe(offered.get(order.id)!.to === editor.userId);
        }
        // By time left, all tiers and each tier alone: the tier counters total what the lanes hold.
        for (const tier of [undefined, ...turnaroundTiers]) {
          const inTier = expected.filter(([, o]) => !tier || o.tier === tier);
          const byDue = await walk(t, editor, { filter, sort: 'due', limit: 2, ...(tier ? { tier } : {}) });
          const dueLabel = `${label}, by time left, ${tier ?? 'every tier'}`;
          expect(byDue.total, dueLabel).toBe(inTier.length);
          expect(byDue.orders.map((o) => o.id).sort(), dueLabel).toEqual(inTier.map(([id]) => id).sort());
          for (const order of byDue.orders) expect(order.turnaroundTier, dueLabel).toBe(offered.get(order.id)!.tier);
        }
      }
    }
  };

  it('moves with every change that puts an order in a pool or takes it out', async () => {
    const [plain, detailed, byCard, unpaid, legacy, legacyClaimed] = await Promise.all([
      anOrder({ tier: 'express' }),
      anOrder({ requirements: true, tier: 'rush' }),
      anOrder({ card: true, tier: 'express' }),
      anOrder({ card: true }),
      anOrder({ tier: 'rush' }),
      anOrder({ requirements: true }),
    ]);
    await expectTotalsAsMoved('created, none paid');

    for (const order of [plain, detailed, byCard, legacy, legacyClaimed]) await pay(order);
    await makeLegacy(t, legacy.orderId);
    await makeLegacy(t, legacyClaimed.orderId);
    await expectTotalsAsMoved('paid, two of them before the shards');

    await t.admin.assignOrder({ orderId: plain.orderId, editorId: ann.userId, adminId: 'admin' });
    moved(plain.orderId, ann.userId);
    await expectTotalsAsMoved('assigned to Ann');

    const bulk = await t.admin.bulkAssignOrders({
      orderIds: [detailed.orderId, byCard.orderId, legacy.orderId],
      editorId: ben.userId,
      adminId: 'admin',
    });
    expect(bulk.notAssigned).toEqual([]);
    for (const { orderId } of [detailed, byCard, legacy]) moved(orderId, ben.userId);
    await expectTotalsAsMoved('bulk assigned to Ben');

    await t.admin.unassignOrder({ orderId: byCard.orderId, adminId: 'admin' });
    await t.admin.unassignOrder({ orderId: legacy.orderId, adminId: 'admin' });
    for (const { orderId } of [byCard, legacy]) moved(orderId, 'open');
    // Given back to everyone, the order written before the shards goes to its shard.
    expect(await t.orders.getOrder(legacy.orderId)).toMatchObject({
      pool: 'open',
      poolPartition: t.pool.openPoolShard(legacy.orderId),
    });
    await expectTotalsAsMoved('unassigned');

    await t.orders.claimOrder({
      orderId: plain.orderId,
      editor: { userId: ann.userId, name: ann.name, email: ann.email },
      rateCents: 100,
    });
    await t.orders.claimOrder({
      orderId: legacy.orderId,
      editor: { userId: ben.userId, name: ben.name, email: ben.email },
      rateCents: 100,
    });
    await t.orders.claimOrder({
      orderId: legacyClaimed.orderId,
      editor: { userId: ben.userId, name: ben.name, email: ben.email },
      rateCents: 100,
    });
    for (const { orderId } of [plain, legacy, legacyClaimed]) moved(orderId, null);
    await expectTotalsAsMoved('claimed');

    const cancelled = await t.admin.cancelOrder({ orderId: byCard.orderId, adminId: 'admin' });
    expect(cancelled.refundedAmountCents).toBe(byCard.totalAmountCents);
    moved(byCard.orderId, null);
    await t.admin.cancelOrder({ orderId: unpaid.orderId, adminId: 'admin' });
    await expectTotalsAsMoved('cancelled and refunded, and cancelled unpaid');

    // A revision sends the order back to its editor, not to a pool.
    await t.entities.order.update({ orderId: plain.orderId }).add({ editorUploadCount: 1 }).go();
    await t.orders.completeOrder({ orderId: plain.orderId, editorId: ann.userId });
    await t.revisions.requestRevision({
      order: (await t.orders.getOrder(plain.orderId))!,
      input: { note: 'Brighter, please', photoNotes: [] },
    });
    expect((await t.orders.getOrder(plain.orderId))?.status).toBe('revision_requested');
    await expectTotalsAsMoved('revision requested');

    // Every counter the moves left equals a count of the pool indexes, and the check finds nothing to mend.
    const recounted = await t.poolCounters.recount();
    const stored = await Promise.all(
      recounted.map(async ({ scope, name }) => (await t.entities.counter.get({ scope, name }).go()).data?.value),
    );
    expect(stored).toEqual(recounted.map((c) => c.value));
    expect(recounted).toEqual([
      { scope: t.pool.poolCounterScope(ben.userId), name: 'yes', value: 1 },
      { scope: t.pool.poolCounterScope(ben.userId), name: 'tier#rush#yes', value: 1 },
    ]);
    expect(await t.checkCounters({ families: [t.poolCounters] })).toEqual([]);
  }, 120_000);
});

describe('the available orders’ pages over the shards', () => {
  const ORDER_COUNT = 480;
  const LIMIT = 40;
  let t: OwnTable;
  let ann: Editor;
  let ben: Editor;
  interface Seed {
    orderId: string;
    createdAt: string;
    totalAmountCents: number;
    hasRequirements: 'yes' | 'no';
    assignedToAnn: boolean;
    turnaroundTier: TurnaroundTier;
    dueAt: string;
  }
  let seeds: Seed[];

  const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const referenceOrder: Record<AvailableOrdersQuery['sort'], (a: Seed, b: Seed) => number> = {
    newest: (a, b) => text(b.createdAt, a.createdAt) || text(b.orderId, a.orderId),
    oldest: (a, b) => text(a.createdAt, b.createdAt) || text(a.orderId, b.orderId),
    'highest-price': (a, b) => b.totalAmountCents - a.totalAmountCents || text(b.orderId, a.orderId),
    due: (a, b) => text(a.dueAt, b.dueAt) || text(a.orderId, b.orderId),
  };
  const reference = (
    editor: Editor,
    filter: AvailableOrdersQuery['filter'],
    sort: AvailableOrdersQuery['sort'],
    tier?: TurnaroundTier,
  ) =>
    seeds
      .filter((s) => !s.assignedToAnn || editor === ann)
      .filter((s) => filter === 'all' || s.hasRequirements === (filter === 'with-requirements' ? 'yes' : 'no'))
      .filter((s) => !tier || s.turnaroundTier === tier)
      .sort(referenceOrder[sort])
      .map((s) => s.orderId);

  /**
   * Every filter x sort for Ann (open and her own partition), each filter by time left in one tier,
   * and Ben's view of all orders newest first and of the Rush ones by time left.
   */
  const everyList = async () => {
    const views: {
      editor: Editor;
      filter: AvailableOrdersQuery['filter'];
      sort: AvailableOrdersQuery['sort'];
      tier?: TurnaroundTier;
    }[] = [
      ...availableOrderFilters.flatMap((filter) => availableOrderSorts.map((sort) => ({ editor: ann, filter, sort }))),
      ...availableOrderFilters.flatMap((filter) =>
        turnaroundTiers.map((tier) => ({ editor: ann, filter, sort: 'due' as const, tier })),
      ),
      { editor: ben, filter: 'all' as const, sort: 'newest' as const },
      { editor: ben, filter: 'all' as const, sort: 'due' as const, tier: 'rush' as const },
    ];
    return Promise.all(
      views.map(async (view) => {
        const { total, pages, orders } = await walk(t, view.editor, {
          filter: view.filter,
          sort: view.sort,
          limit: LIMIT,
          ...(view.tier ? { tier: view.tier } : {}),
        });
        return { view, total, ids: orders.map((o) => o.id), pageSizes: pages.map((p) => p.orders.length) };
      }),
    );
  };

  beforeAll(async () => {
    t = await withOwnTable('pool-pages');
    [ann, ben] = await Promise.all([anEditorIn(t, 'Ann Assigned'), anEditorIn(t, 'Ben Bystander')]);
    // Three orders share each second and prices repeat every 37 orders, so the id breaks many ties.
    const tierOfSeed = (i: number) => turnaroundTiers[Math.floor(i / 3) % turnaroundTiers.length]!;
    const start = Date.parse('2026-03-01T08:00:00.000Z');
    seeds = Array.from({ length: ORDER_COUNT }, (_, i) => ({
      orderId: ulid(start + i * 1000),
      createdAt: new Date(start + Math.floor(i / 3) * 1000).toISOString(),
      totalAmountCents: 800 * (1 + ((i * 7) % 37)),
      hasRequirements: i % 3 === 0 ? ('yes' as const) : ('no' as const),
      assignedToAnn: i % 8 === 5,
      // The three orders of a second share a tier and so a due time: the id breaks those ties too.
      turnaroundTier: tierOfSeed(i),
      dueAt: new Date(start + Math.floor(i / 3) * 1000 + turnaroundHours[tierOfSeed(i)] * 3_600_000).toISOString(),
    }));
    // Every open order starts in the one legacy partition, as before the shards.
    const records = seeds.map((s, i) => ({
      orderId: s.orderId,
      orderNumber: 10_000 + i,
      photographerId: 'photographer-pages',
      photographerName: 'Page Turner',
      photographerSortName: 'page$turner',
      jobTypeId: 'hdr',
      jobTypeName: 'HDR',
      pricePerPhotoCents: 800,
      photoCount: s.totalAmountCents / 800,
      totalAmountCents: s.totalAmountCents,
      hasRequirements: s.hasRequirements,
      ...(s.hasRequirements === 'yes' ? { editingRequirements: 'Straighten the verticals' } : {}),
      status: 'paid' as const,
      paidAt: s.createdAt,
      turnaroundTier: s.turnaroundTier,
      dueAt: s.dueAt,
      poolDueKey: t.pool.poolDueKeyOf(s),
      createdAt: s.createdAt,
      photographerUploadCount: 0,
      editorUploadCount: 0,
      ...(s.assignedToAnn
        ? { pool: ann.userId, poolPartition: ann.userId, assignment: 'assigned' as const, editorId: ann.userId }
        : { pool: 'open', poolPartition: t.pool.LEGACY_OPEN_PARTITION, assignment: 'unassigned' as const }),
    }));
    const { unprocessed } = await t.entities.order.put(records).go({ concurrency: 16 });
    expect(unprocessed).toEqual([]);
    const legacyIds = seeds.filter((s) => !s.assignedToAnn).map((s) => s.orderId);
    for (let i = 0; i < legacyIds.length; i += 25) {
      await Promise.all(legacyIds.slice(i, i + 25).map((orderId) => removePoolPartition(t, orderId)));
    }
    expect(await t.checkCounters({ families: [t.poolCounters], repair: true })).not.toEqual([]);
  }, 300_000);

  it('pages every filter and sort through cursors in exactly the reference order, with no gaps or repeats', async () => {
    const inOnePartition = await everyList();
    for (const { view, total, ids, pageSizes } of inOnePartition) {
      const label = `${view.editor.name}, ${view.filter}, ${view.sort}${view.tier ? `, ${view.tier}` : ''}`;
      const expected = reference(view.editor, view.filter, view.sort, view.tier);
      expect(ids, label).toEqual(expected);
      expect(total, label).toBe(expected.length);
      expect(
        pageSizes.slice(0, -1).every((size) => size === LIMIT),
        label,
      ).toBe(true);
    }

    // Most orders move to their shards (as a pool write puts them there); every tenth stays behind.
    const moving = seeds.filter((s, i) => !s.assignedToAnn && i % 10 !== 0);
    for (let i = 0; i < moving.length; i += 25) {
      await Promise.all(
        moving.slice(i, i + 25).map(async (s) => {
          const order = (await t.orders.getOrder(s.orderId))!;
          await t.entities.order
            .patch({ orderId: s.orderId })
            .set({ poolPartition: t.pool.openPoolShard(s.orderId) })
            .composite(t.orders.poolIndexComposite(order))
            .go();
        }),
      );
    }
    await t.checkCounters({ families: [t.poolCounters], repair: true });
    const shardCounts = await Promise.all(
      t.pool.openPoolPartitions.map(
        async (partition) =>
          (await t.entities.order.query.poolByDate({ poolPartition: partition }).go({ pages: 'all' })).data.length,
      ),
    );
    expect(shardCounts.every((count) => count > 0)).toBe(true);
    expect(shardCounts.reduce((a, b) => a + b, 0)).toBe(seeds.filter((s) => !s.assignedToAnn).length);

    // The shards merged give what the one partition gave.
    expect(await everyList()).toEqual(inOnePartition);
  }, 300_000);

  it('opens a page by its number up to the bound, the same page as through cursors, and refuses one beyond it', async () => {
    const { AVAILABLE_ORDERS_MAX_SKIPPED } = await import('@marketplace/events/editor-orders');
    const limit = 20;
    const deepest = AVAILABLE_ORDERS_MAX_SKIPPED / limit + 1;
    const expected = reference(ann, 'all', 'highest-price');
    const [second, deepestPage] = await Promise.all(
      [2, deepest].map((page) =>
        t.editorOrders.listAvailableOrders(ann, query({ sort: 'highest-price', limit, page })),
      ),
    );
    expect(second!.orders.map((o) => o.id)).toEqual(expected.slice(limit, 2 * limit));
    expect(deepestPage!.orders.map((o) => o.id)).toEqual(expected.slice((deepest - 1) * limit, deepest * limit));
    const next = await t.editorOrders.listAvailableOrders(
      ann,
      query({ sort: 'highest-price', limit, page: deepest + 1, cursor: deepestPage!.nextCursor! }),
    );
    expect(next.orders.map((o) => o.id)).toEqual(expected.slice(deepest * limit, (deepest + 1) * limit));

    await expect(
      t.editorOrders.listAvailableOrders(ann, query({ sort: 'highest-price', limit, page: deepest + 1 })),
    ).rejects.toMatchObject({
      statusCode: 400,
      code: 'PAGE_TOO_DEEP',
      message: t.editorOrders.pageTooDeepMessage(deepest + 1),
    });
  });
});
