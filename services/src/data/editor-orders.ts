import type {
  AvailableOrdersQuery,
  AvailableOrdersResponse,
  EditorAssignmentView,
  EditorStatsView,
} from '@marketplace/events/editor-orders';
import { NotFound } from '../http/errors';
import { claimRateCents, editorRatesByJobType } from './editor-rates';
import { marketplace } from './entities';
import {
  claimConflict,
  claimOrder,
  editorScope,
  getOrder,
  listAllImages,
  type OrderRecord,
  readCounters,
  toSummaryView,
} from './orders';
import { countOf, firstRows } from './query-pages';
import { getRevision, toRevisionView } from './revisions';

/**
 * The editor's side of orders. Available orders live in the sparse pool indexes: partition `pool`
 * ('open', or the id of the editor an admin assigned the order to), sort key beginning with the
 * requirements flag. One page of one filter and sort merges at most four Queries (open and mine,
 * with and without requirements); see access-patterns.ts for the paging bound.
 */
export interface Editor {
  userId: string;
  displayName?: string;
  email: string;
}

const entities = () => marketplace().entities;

type Flag = OrderRecord['hasRequirements'];
const flagsFor = (filter: AvailableOrdersQuery['filter']): Flag[] =>
  filter === 'with-requirements' ? ['yes'] : filter === 'no-requirements' ? ['no'] : ['yes', 'no'];

/** The same order as the index's sort key (fixed-width date or zero-padded price, then id). */
const compareFor = (sort: AvailableOrdersQuery['sort']) => {
  const byId = (a: OrderRecord, b: OrderRecord) => (a.orderId < b.orderId ? -1 : a.orderId > b.orderId ? 1 : 0);
  const ascending =
    sort === 'highest-price'
      ? (a: OrderRecord, b: OrderRecord) => a.totalAmountCents - b.totalAmountCents || byId(a, b)
      : (a: OrderRecord, b: OrderRecord) =>
          a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : byId(a, b);
  return sort === 'oldest' ? ascending : (a: OrderRecord, b: OrderRecord) => ascending(b, a);
};

const poolQuery = (sort: AvailableOrdersQuery['sort'], pool: string, hasRequirements: Flag) =>
  sort === 'highest-price'
    ? entities().order.query.poolByPrice({ pool, hasRequirements })
    : entities().order.query.poolByDate({ pool, hasRequirements });

/** The first `count` orders of one pool partition in the requested order, a DynamoDB page at a time. */
const firstOfPartition = (sort: AvailableOrdersQuery['sort'], pool: string, flag: Flag, count: number) =>
  firstRows<OrderRecord>(count, (limit, cursor) =>
    poolQuery(sort, pool, flag).go({ order: sort === 'oldest' ? 'asc' : 'desc', limit, cursor }),
  );

/** How many orders one pool partition holds: a COUNT Query (keys are read, no items are sent). */
const countOfPartition = (pool: string, flag: Flag) => countOf(poolQuery('newest', pool, flag).params());

const earningsCents = (rate: number | undefined, photoCount: number) => (rate === undefined ? null : rate * photoCount);

/**
 * Page N of the orders offered to this editor: paid, unclaimed, open or assigned to them. Each
 * partition gives its first N x limit orders in the requested order; the merge keeps the page.
 */
export const listAvailableOrders = async (
  editor: Pick<Editor, 'userId'>,
  { page, limit, filter, sort }: AvailableOrdersQuery,
): Promise<AvailableOrdersResponse> => {
  const partitions = ['open', editor.userId].flatMap((pool) => flagsFor(filter).map((flag) => ({ pool, flag })));
  const needed = page * limit;
  const [heads, counts, rates] = await Promise.all([
    Promise.all(partitions.map(({ pool, flag }) => firstOfPartition(sort, pool, flag, needed))),
    Promise.all(partitions.map(({ pool, flag }) => countOfPartition(pool, flag))),
    editorRatesByJobType(editor.userId),
  ]);
  const now = new Date();
  const orders = heads
    .flat()
    .sort(compareFor(sort))
    .slice((page - 1) * limit, needed)
    .map((o) => ({
      ...toSummaryView(o, now),
      potentialEarningsCents: earningsCents(rates.get(o.jobTypeId), o.photoCount),
      assignedToMe: o.pool === editor.userId,
    }));
  return { orders, total: counts.reduce((sum, n) => sum + n, 0) };
};

const assignmentsIn = async (editorId: string, status: 'in_progress' | 'revision_requested') => {
  const { data } = await entities().order.query.byEditor({ editorId, status }).go({ order: 'desc', pages: 'all' });
  return data as OrderRecord[];
};

/** The open round of an order sent back for a revision, with its noted files named. */
const openRevision = async (o: OrderRecord) => {
  if (o.status !== 'revision_requested') return null;
  const revision = await getRevision(o.orderId, o.revisionCount ?? 0);
  if (!revision) return null;
  const images = revision.photoNotes.length > 0 ? await listAllImages(o.orderId, 'edited') : [];
  return toRevisionView(revision, images);
};

/**
 * This editor's orders to work on, newest first (the byEditor index, status prefix): those in
 * progress and those the photographer sent back for a revision, with the open round's notes.
 */
export const listMyAssignments = async (editorId: string): Promise<{ orders: EditorAssignmentView[] }> => {
  const [working, sentBack] = await Promise.all([
    assignmentsIn(editorId, 'in_progress'),
    assignmentsIn(editorId, 'revision_requested'),
  ]);
  const orders = [...working, ...sentBack].sort((a, b) =>
    a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.orderId < b.orderId ? 1 : -1,
  );
  const revisions = await Promise.all(orders.map(openRevision));
  const now = new Date();
  return {
    orders: orders.map((o, i) => ({
      ...toSummaryView(o, now),
      potentialEarningsCents: earningsCents(o.editorRateCents, o.photoCount),
      photographerUploadCount: o.photographerUploadCount,
      editorUploadCount: o.editorUploadCount,
      revision: revisions[i] ?? null,
    })),
  };
};

/**
 * Claims an order for this editor at the rate in force now, fixed on the order for its earning.
 * An order not offered to them (unpaid, or assigned to someone else) does not exist for them;
 * one already taken is a 409 from the claim's transaction.
 */
export const claimOrderForEditor = async (orderId: string, editor: Editor) => {
  const order = await getOrder(orderId);
  const offeredElsewhere = order?.status === 'paid' && order.pool !== 'open' && order.pool !== editor.userId;
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
