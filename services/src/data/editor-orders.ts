import { editingStyleSummary } from '@marketplace/events/editing-style';
import {
  AVAILABLE_ORDERS_MAX_SKIPPED,
  type AvailableOrdersQuery,
  type AvailableOrdersResponse,
  availableOrderSorts,
  type EditorStatsView,
} from '@marketplace/events/editor-orders';
import { type TurnaroundTier, turnaroundTiers } from '@marketplace/events/turnaround';
import * as z from '@marketplace/events/zod';
import { editorEarningCents } from '../domain/orders';
import { BadRequest, NotFound } from '../http/errors';
import { models, query } from './direct-reads';
import { claimRateCents, editorRatesByJobType } from './editor-rates';
import {
  OPEN_POOL,
  openPoolPartitions,
  poolCounterKey,
  poolCounterScope,
  poolDueKeyOf,
  poolDueLane,
  poolTierCounterKey,
  type RequirementsFlag,
} from './order-pool';
import {
  claimConflict,
  claimOrder,
  editorScope,
  getOrder,
  type OrderRecord,
  readCounters,
  toSummaryView,
} from './orders';
import { decodePageCursor, encodePageCursor, invalidPageLink } from './page-cursors';

/**
 * The editor's side of orders. Available orders live in the sparse pool indexes (order-pool.ts):
 * the open pool's shards, the legacy 'open' partition and the editor's own partition (orders an
 * admin assigned to them), each split by the requirements flag that begins the sort key. A page
 * reads a few rows from each of these lanes that its counter says holds an order, and merges them
 * in the index's order; see
 * docs/decisions/0052-open-pool-in-four-shards.md for the shard count and the paging bound. By
 * time left (poolByDue), a lane is also one turnaround tier, whose key comes after the flag: the
 * tier filter reads only its own lanes (docs/decisions/0110-turnaround-tiers.md).
 */
export interface Editor {
  userId: string;
  displayName?: string;
  email: string;
}

type Sort = AvailableOrdersQuery['sort'];
const flagsFor = (filter: AvailableOrdersQuery['filter']): RequirementsFlag[] =>
  filter === 'with-requirements' ? ['yes'] : filter === 'no-requirements' ? ['no'] : ['yes', 'no'];

/** What the sorts compare: a row's place in its index. */
interface SortKey {
  createdAt: string;
  orderId: string;
  totalAmountCents: number;
  /** Every row of poolByDue has one (a pooled order is paid); '' stands for none elsewhere. */
  dueAt?: string;
}

// The index keys hold ids lower-cased; comparing them so keeps the merge in the index's own order.
const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byId = (a: SortKey, b: SortKey) => text(a.orderId.toLowerCase(), b.orderId.toLowerCase());

/** The list's order for each sort: exactly the order of the sort's index, read in its direction. */
const compareFor = (sort: Sort) => {
  // The least time left first: the due-time index read forwards.
  if (sort === 'due') return (a: SortKey, b: SortKey) => text(a.dueAt ?? '', b.dueAt ?? '') || byId(a, b);
  const ascending =
    sort === 'highest-price'
      ? (a: SortKey, b: SortKey) => a.totalAmountCents - b.totalAmountCents || byId(a, b)
      : (a: SortKey, b: SortKey) => text(a.createdAt, b.createdAt) || byId(a, b);
  return sort === 'oldest' ? ascending : (a: SortKey, b: SortKey) => ascending(b, a);
};

// ---------------------------------------------------------------- cursors

const cursorSchema = z.object({
  sort: z.enum(availableOrderSorts),
  orderId: z.string().check(z.minLength(1), z.maxLength(64)),
  createdAt: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
  totalAmountCents: z.optional(z.number().check(z.int(), z.minimum(0))),
  dueAt: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
});

/** The last row's sort key, opaque to the browser: every lane resumes after it. */
const encodeCursor = (sort: Sort, row: SortKey) =>
  encodePageCursor({
    sort,
    orderId: row.orderId,
    ...(sort === 'highest-price'
      ? { totalAmountCents: row.totalAmountCents }
      : sort === 'due'
        ? { dueAt: row.dueAt ?? '' }
        : { createdAt: row.createdAt }),
  } satisfies z.infer<typeof cursorSchema>);

/** A cursor of this sort, or a 400: a cursor of another sort would start the page in the wrong place. */
const decodeCursor = (raw: string, sort: Sort): SortKey => {
  const cursor = decodePageCursor(raw, cursorSchema);
  if (cursor.sort !== sort) throw invalidPageLink();
  const { orderId, createdAt, totalAmountCents, dueAt } = cursor;
  const key = sort === 'highest-price' ? totalAmountCents : sort === 'due' ? dueAt : createdAt;
  if (key === undefined) throw invalidPageLink();
  return { orderId, createdAt: createdAt ?? '', totalAmountCents: totalAmountCents ?? 0, dueAt: dueAt ?? '' };
};

export const pageTooDeepMessage = (page: number) =>
  `Page ${page} cannot be opened by its number: only pages within the first ${AVAILABLE_ORDERS_MAX_SKIPPED} available orders can. Use Next from an earlier page.`;

// ---------------------------------------------------------------- lanes

/** Above every date in a sort key: the upper end of an oldest-first read after a cursor. */
const AFTER_EVERY_DATE = '\uffff';

/**
 * One lane (a pool partition and flag) in the sort's order, after the cursor when there is one.
 * The sort key begins with the flag, so "after the cursor" is a BETWEEN from the cursor's key to
 * the end of the flag's keys (a `<` or `>` alone would run on into the other flag's orders); the
 * bound includes the cursor's own row, which the reader drops.
 */
const laneQuery = (
  sort: Sort,
  poolPartition: string,
  hasRequirements: RequirementsFlag,
  after?: SortKey,
  turnaroundTier: TurnaroundTier = 'standard',
) => {
  const poolByDate = (values: { poolPartition: string; hasRequirements: RequirementsFlag }) =>
    query<OrderRecord>(models.order, 'poolByDate', values);
  const poolByPrice = (values: { poolPartition: string; hasRequirements: RequirementsFlag }) =>
    query<OrderRecord>(models.order, 'poolByPrice', values);
  const poolByDue = (values: { poolPartition: string }) => query<OrderRecord>(models.order, 'poolByDue', values);
  switch (sort) {
    case 'due': {
      // The cursor's due time and id within this lane's own tier: every lane resumes at the same time.
      const lane = poolDueLane(hasRequirements, turnaroundTier);
      const query = poolByDue({ poolPartition });
      return {
        order: 'asc' as const,
        query: after
          ? query.between(
              { poolDueKey: poolDueKeyOf({ ...after, hasRequirements, turnaroundTier, dueAt: after.dueAt ?? '' }) },
              { poolDueKey: `${lane}${AFTER_EVERY_DATE}` },
            )
          : query.begins({ poolDueKey: lane }),
      };
    }
    case 'newest': {
      const query = poolByDate({ poolPartition, hasRequirements });
      return {
        order: 'desc' as const,
        query: after ? query.between({ createdAt: '' }, { createdAt: after.createdAt, orderId: after.orderId }) : query,
      };
    }
    case 'oldest': {
      const query = poolByDate({ poolPartition, hasRequirements });
      return {
        order: 'asc' as const,
        query: after
          ? query.between({ createdAt: after.createdAt, orderId: after.orderId }, { createdAt: AFTER_EVERY_DATE })
          : query,
      };
    }
    case 'highest-price': {
      const query = poolByPrice({ poolPartition, hasRequirements });
      return {
        order: 'desc' as const,
        query: after
          ? query.between({ totalAmountCents: 0 }, { totalAmountCents: after.totalAmountCents, orderId: after.orderId })
          : query,
      };
    }
  }
};

interface Lane {
  read: (limit: number, cursor: string | null) => Promise<{ data: unknown[]; cursor: string | null }>;
  rows: OrderRecord[];
  /** The last row read (the cursor's row before any): every row not read yet sorts after it. */
  position: SortKey | undefined;
  cursor: string | null;
  done: boolean;
}

const openLane = (
  sort: Sort,
  poolPartition: string,
  flag: RequirementsFlag,
  after?: SortKey,
  tier?: TurnaroundTier,
): Lane => {
  const { order, query } = laneQuery(sort, poolPartition, flag, after, tier);
  return {
    read: (limit, cursor) => query.go({ order, limit, cursor }),
    rows: [],
    position: after,
    cursor: null,
    done: false,
  };
};

/** At least `count` more rows of the lane (fewer where it ends), a DynamoDB page at a time. */
const readMore = async (lane: Lane, count: number, after?: SortKey) => {
  let added = 0;
  do {
    const page = await lane.read(count - added, lane.cursor);
    for (const row of page.data as OrderRecord[]) {
      lane.position = row;
      if (after && row.orderId === after.orderId) continue;
      lane.rows.push(row);
      added += 1;
    }
    lane.cursor = page.cursor;
    lane.done = !page.cursor;
  } while (!lane.done && added < count);
};

/**
 * How many rows to read from each lane first. Orders fall into the shards at random, so a lane
 * holds about count / lanes of the first `count` rows; two standard deviations and one more row
 * cover most pages in one round, and a lane that runs short reads as much again.
 */
const firstReadOf = (count: number, lanes: number) => {
  const expected = count / lanes;
  return Math.min(count, Math.ceil(expected + 2 * Math.sqrt(expected)) + 1);
};

/**
 * The first `count` rows of all the lanes together, in the sort's order (all there are when fewer).
 * A merged row is settled once every lane that still has rows has read past it; until `count` rows
 * are settled, the lanes whose reading stops short of the count-th row read on.
 */
const headOfLanes = async (lanes: Lane[], count: number, sort: Sort, after?: SortKey) => {
  const compare = compareFor(sort);
  const isBefore = (position: SortKey | undefined, row: SortKey) => !position || compare(position, row) < 0;
  const firstRead = firstReadOf(count, lanes.length);
  await Promise.all(lanes.map((lane) => readMore(lane, firstRead, after)));
  for (;;) {
    const merged = lanes.flatMap((lane) => lane.rows).sort(compare);
    const open = lanes.filter((lane) => !lane.done);
    const settled = merged.filter((row) => open.every((lane) => !isBefore(lane.position, row)));
    if (settled.length >= count || open.length === 0) return settled.slice(0, count);
    const horizon = merged[count - 1];
    const short = open.filter((lane) => !horizon || isBefore(lane.position, horizon));
    // As much again as the first read: a lane that ran short rarely needs much more.
    await Promise.all(short.map((lane) => readMore(lane, Math.min(firstRead, count - settled.length + 1), after)));
  }
};

type Counters = Record<string, number>;

/** The open pool's counters and this editor's: two Queries. */
const poolCounters = async (editorId: string) => {
  const [open, editors] = await Promise.all([OPEN_POOL, editorId].map((pool) => readCounters(poolCounterScope(pool))));
  return { open: open as Counters, editors: editors as Counters };
};

/**
 * What a lane (a partition, a flag and, by time left, a tier) holds, by its counter: the open
 * pool's shards and legacy partition count in the open pool's scope, the editor's own partition in
 * theirs (a counter below zero can only be drift: 0).
 */
const laneCount = (
  editorId: string,
  counters: { open: Counters; editors: Counters },
  { partition, flag, tier }: { partition: string; flag: RequirementsFlag; tier: TurnaroundTier | undefined },
) => {
  const { name } = tier ? poolTierCounterKey(partition, flag, tier) : poolCounterKey(partition, flag);
  const scope = partition === editorId ? counters.editors : counters.open;
  return Math.max(0, scope[name] ?? 0);
};

/** As delivery would book it at the editor's rate: per photo, plus each add-on's editor rate per photo it was ticked on. */
const earningsCents = (rate: number | undefined, o: OrderRecord) =>
  rate === undefined ? null : editorEarningCents({ ...o, editorRateCents: rate });

/**
 * A page of the orders offered to this editor: paid, unclaimed, open or assigned to them. After a
 * cursor each lane reads on from the cursor's key, so any page costs about one page of reads; page
 * N without a cursor reads the orders before it, at most AVAILABLE_ORDERS_MAX_SKIPPED (else a 400).
 * The total is the lanes' counters, never a count of rows.
 */
export const listAvailableOrders = async (
  editor: Pick<Editor, 'userId'>,
  { page, limit, filter, sort, tier, cursor }: AvailableOrdersQuery,
): Promise<AvailableOrdersResponse> => {
  const after = cursor ? decodeCursor(cursor, sort) : undefined;
  const skip = after ? 0 : (page - 1) * limit;
  if (skip > AVAILABLE_ORDERS_MAX_SKIPPED) throw new BadRequest(pageTooDeepMessage(page), undefined, 'PAGE_TOO_DEEP');
  const flags = flagsFor(filter);
  // By time left each tier is a lane of its own; the tier filter (sort=due only, events/) reads one.
  const tiers: readonly (TurnaroundTier | undefined)[] =
    sort === 'due' ? (tier ? [tier] : turnaroundTiers) : [undefined];
  const readHead = async () => {
    const counters = await poolCounters(editor.userId);
    // Only the lanes whose counters say they hold an order are read: a quiet pool costs its two
    // counter Queries, not a Query per lane. The total is what those lanes hold.
    const held = [...openPoolPartitions, editor.userId]
      .flatMap((partition) => flags.flatMap((flag) => tiers.map((laneTier) => ({ partition, flag, tier: laneTier }))))
      .map((lane) => ({ ...lane, count: laneCount(editor.userId, counters, lane) }))
      .filter((lane) => lane.count > 0);
    const lanes = held.map(({ partition, flag, tier: laneTier }) => openLane(sort, partition, flag, after, laneTier));
    const total = held.reduce((sum, lane) => sum + lane.count, 0);
    return { head: await headOfLanes(lanes, skip + limit + 1, sort, after), total };
  };
  const [{ head, total }, rates] = await Promise.all([readHead(), editorRatesByJobType(editor.userId)]);
  const rows = head.slice(skip, skip + limit);
  const last = rows.at(-1);
  const now = new Date();
  return {
    orders: rows.map((o) => ({
      ...toSummaryView(o, now),
      potentialEarningsCents: earningsCents(rates.get(o.jobTypeId), o),
      assignedToMe: o.pool === editor.userId,
      // From the page read itself: the style is on the order record the pool index projects.
      editingStyleSummary: o.editingStyle ? editingStyleSummary(o.editingStyle) : null,
    })),
    total,
    nextCursor: last && head.length > skip + limit ? encodeCursor(sort, last) : null,
  };
};

/**
 * Claims an order for this editor at the rate in force now, fixed on the order for its earning.
 * An order not offered to them (unpaid, or assigned to someone else) does not exist for them;
 * one already taken is a 409 from the claim's transaction.
 */
export const claimOrderForEditor = async (orderId: string, editor: Editor) => {
  const order = await getOrder(orderId);
  const offeredElsewhere = order?.status === 'paid' && order.pool !== OPEN_POOL && order.pool !== editor.userId;
  if (!order || order.status === 'pending_payment' || offeredElsewhere) throw new NotFound('Order not found');
  if (order.status !== 'paid') throw claimConflict(order.status);
  return claimOrder({
    orderId,
    editor: { userId: editor.userId, name: editor.displayName ?? editor.email, email: editor.email },
    rateCents: await claimRateCents(editor.userId, order.jobTypeId),
    current: order,
  });
};

/** Dashboard figures from the editor's counters, kept by claim, completion and payouts. */
export const editorStats = async (editorId: string): Promise<EditorStatsView> => {
  const counters = await readCounters(editorScope(editorId));
  return {
    activeOrders: counters.activeOrders ?? 0,
    completedOrders: counters.completedOrders ?? 0,
    totalEarnings: counters.totalEarnings ?? 0,
    pendingPayouts: counters.pendingPayouts ?? 0,
  };
};
