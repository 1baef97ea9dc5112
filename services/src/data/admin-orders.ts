import {
  type AdminOrderListResponse,
  type AdminOrderSort,
  type AdminOrdersQuery,
  type AssignmentFilter,
  SEARCH_WORDS_READ_MAX,
  searchWordsOf,
} from '@marketplace/events/admin';
import * as z from '@marketplace/events/zod';
import { toAdminOrderView } from './admin-order-view';
import { batchGetAll } from './batch-get';
import { getRecords, models, query } from './direct-reads';
import { MAX_SKIPPED_ROWS, pageTooFar } from './list-pages';
import { type Assignment, assignmentCounterName, ORDERS_SCOPE, searchInitial } from './order-assignment';
import { type OrderRecord, readCounters } from './orders';
import { decodePageCursor, encodePageCursor, invalidPageLink } from './page-cursors';
import { firstRows } from './query-pages';

/**
 * The admin's order list. Without a search each assignment partition is read from the index of
 * the sort (gsi5-7) and 'all' merges the two; with a search the matching search-word items are
 * read (a bounded number), filtered and sorted in memory, and only the page's orders are fetched.
 * Totals come from the 'orders' counters or the match count, never from counting rows
 * (docs/decisions/0048-admin-order-list.md).
 */

/** What every sort compares: present on an order record and on each of its search words. */
export interface AdminSortKey {
  createdAt: string;
  orderId: string;
  photoCount: number;
  photographerSortName?: string;
}

const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const dateThenId = (a: AdminSortKey, b: AdminSortKey) => text(a.createdAt, b.createdAt) || text(a.orderId, b.orderId);

/** The list's total order for each sort: exactly the order of the sort's index, read in its direction. */
export const compareAdminOrders = (sort: AdminOrderSort) => {
  switch (sort) {
    case 'newest':
      return (a: AdminSortKey, b: AdminSortKey) => dateThenId(b, a);
    case 'oldest':
      return dateThenId;
    case 'most-photos':
      return (a: AdminSortKey, b: AdminSortKey) => b.photoCount - a.photoCount || dateThenId(b, a);
    case 'photographer':
      return (a: AdminSortKey, b: AdminSortKey) =>
        text(a.photographerSortName ?? '', b.photographerSortName ?? '') || dateThenId(a, b);
  }
};

const partitionsOf = (filter: AssignmentFilter): Assignment[] =>
  filter === 'all' ? ['unassigned', 'assigned'] : [filter];

// ---------------------------------------------------------------- cursors

const cursorSchema = z.object({
  sortBy: z.enum(['newest', 'oldest', 'most-photos', 'photographer']),
  createdAt: z.string().check(z.minLength(1), z.maxLength(64)),
  orderId: z.string().check(z.minLength(1), z.maxLength(64)),
  photoCount: z.optional(z.number().check(z.int(), z.minimum(0))),
  photographerSortName: z.optional(z.string().check(z.maxLength(500))),
});
type Cursor = z.infer<typeof cursorSchema>;

/** The last row's sort key, opaque to the browser. */
const encodeCursor = (sortBy: AdminOrderSort, row: AdminSortKey) =>
  encodePageCursor({
    sortBy,
    createdAt: row.createdAt,
    orderId: row.orderId,
    ...(sortBy === 'most-photos' ? { photoCount: row.photoCount } : {}),
    ...(sortBy === 'photographer' ? { photographerSortName: row.photographerSortName ?? '' } : {}),
  } satisfies Cursor);

/** A cursor of this sort, or a 400: a cursor of another sort would start the page in the wrong place. */
const decodeCursor = (raw: string, sortBy: AdminOrderSort): Cursor => {
  const cursor = decodePageCursor(raw, cursorSchema);
  if (cursor.sortBy !== sortBy) throw invalidPageLink();
  if (sortBy === 'most-photos' && cursor.photoCount === undefined) throw invalidPageLink();
  if (sortBy === 'photographer' && cursor.photographerSortName === undefined) throw invalidPageLink();
  return cursor;
};

const cursorKey = (c: Cursor): AdminSortKey => ({
  createdAt: c.createdAt,
  orderId: c.orderId,
  photoCount: c.photoCount ?? 0,
  ...(c.photographerSortName === undefined ? {} : { photographerSortName: c.photographerSortName }),
});

// ---------------------------------------------------------------- index reads

/**
 * One assignment partition in the sort's order, after the cursor when there is one: the index's
 * sort key is exactly the sort's key, so "after the cursor" is a `>` (ascending) or `<`
 * (descending) key condition on the whole composite.
 */
const partitionQuery = (sort: AdminOrderSort, assignment: Assignment, after?: Cursor) => {
  const order = {
    byAssignment: (values: { assignment: Assignment }) => query<OrderRecord>(models.order, 'byAssignment', values),
    byAssignmentPhotos: (values: { assignment: Assignment }) =>
      query<OrderRecord>(models.order, 'byAssignmentPhotos', values),
    byAssignmentPhotographer: (values: { assignment: Assignment }) =>
      query<OrderRecord>(models.order, 'byAssignmentPhotographer', values),
  };
  switch (sort) {
    case 'newest': {
      const query = order.byAssignment({ assignment });
      return {
        order: 'desc' as const,
        query: after ? query.lt({ createdAt: after.createdAt, orderId: after.orderId }) : query,
      };
    }
    case 'oldest': {
      const query = order.byAssignment({ assignment });
      return {
        order: 'asc' as const,
        query: after ? query.gt({ createdAt: after.createdAt, orderId: after.orderId }) : query,
      };
    }
    case 'most-photos': {
      const query = order.byAssignmentPhotos({ assignment });
      const key = after && { photoCount: after.photoCount ?? 0, createdAt: after.createdAt, orderId: after.orderId };
      return { order: 'desc' as const, query: key ? query.lt(key) : query };
    }
    case 'photographer': {
      const query = order.byAssignmentPhotographer({ assignment });
      const key = after && {
        photographerSortName: after.photographerSortName ?? '',
        createdAt: after.createdAt,
        orderId: after.orderId,
      };
      return { order: 'asc' as const, query: key ? query.gt(key) : query };
    }
  }
};

/** Only what the sorts compare: the slow path reads these for the rows it skips, not whole orders. */
const sortKeyAttributes = ['orderId', 'createdAt', 'photoCount', 'photographerSortName'] as const;

/** The first `count` rows of one partition (after the cursor), a DynamoDB page at a time. */
const headOfPartition = async <Row>(
  sort: AdminOrderSort,
  assignment: Assignment,
  count: number,
  { after, keysOnly = false }: { after?: Cursor; keysOnly?: boolean },
) => {
  const { order, query } = partitionQuery(sort, assignment, after);
  return firstRows<Row>(count, (limit, cursor) =>
    query.go({ order, limit, cursor, ...(keysOnly ? { attributes: [...sortKeyAttributes] } : {}) }),
  );
};

const assignmentTotal = async (filter: AssignmentFilter) => {
  const counters = await readCounters(ORDERS_SCOPE);
  return partitionsOf(filter).reduce((sum, a) => sum + Math.max(0, counters[assignmentCounterName(a)] ?? 0), 0);
};

/** The merged first `count` rows of the filter's partitions, in list order. */
const headOfFilter = async <Row extends AdminSortKey>(
  { assignmentFilter, sortBy }: AdminOrdersQuery,
  count: number,
  options: { after?: Cursor; keysOnly?: boolean },
) => {
  const heads = await Promise.all(
    partitionsOf(assignmentFilter).map((a) => headOfPartition<Row>(sortBy, a, count, options)),
  );
  return heads.length === 1 ? heads[0]! : heads.flat().sort(compareAdminOrders(sortBy));
};

/**
 * The first page, or the page after a cursor: one Query of a page (plus one row, to know whether
 * another follows) per partition. A page jumped to without a cursor (the slow path) reads the sort
 * keys of the rows before it in each partition, then fetches its own orders by id; only pages
 * within the first MAX_SKIPPED_ROWS rows can be jumped to, the others are reached with Next.
 */
const listFromIndexes = async (query: AdminOrdersQuery, after?: Cursor) => {
  const { page, limit, assignmentFilter } = query;
  const skip = after ? 0 : (page - 1) * limit;
  if (skip > MAX_SKIPPED_ROWS) throw pageTooFar();
  if (skip === 0) {
    const [merged, total] = await Promise.all([
      headOfFilter<OrderRecord>(query, limit + 1, { after }),
      assignmentTotal(assignmentFilter),
    ]);
    const rows = merged.slice(0, limit);
    return { rows, lastKey: rows.at(-1), hasMore: merged.length > limit, total };
  }
  const [merged, total] = await Promise.all([
    headOfFilter<AdminSortKey>(query, skip + limit + 1, { keysOnly: true }),
    assignmentTotal(assignmentFilter),
  ]);
  const keys = merged.slice(skip, skip + limit);
  return {
    rows: await ordersByIds(keys.map((k) => k.orderId)),
    lastKey: keys.at(-1),
    hasMore: merged.length > skip + limit,
    total,
  };
};

/** The orders of these ids, in this order (a BatchGet). */
const ordersByIds = async (orderIds: string[]) => {
  if (!orderIds.length) return [];
  const found = await batchGetAll<{ orderId: string }, OrderRecord>(
    (keys) => getRecords(models.order, keys),
    orderIds.map((orderId) => ({ orderId })),
  );
  const byId = new Map(found.map((o) => [o.orderId, o]));
  return orderIds.flatMap((id) => byId.get(id) ?? []);
};

// ---------------------------------------------------------------- search

interface SearchWordItem extends AdminSortKey {
  words: string;
  assignment: Assignment;
  photographerSortName: string;
}

/**
 * The orders matching all the term's words (each begins one of the order's words), in list order.
 * The term's longest word is read from the search index, at most SEARCH_WORDS_READ_MAX items of
 * it (the closest words first: the index sorts by word); a term that begins more words than that
 * lists the orders of those only, and says so (`moreMatches`).
 */
const searchMatches = async (terms: string[], filter: AssignmentFilter, sort: AdminOrderSort) => {
  const longest = terms.reduce((a, b) => (b.length > a.length ? b : a));
  const data = await firstRows<SearchWordItem>(SEARCH_WORDS_READ_MAX + 1, (limit, cursor) =>
    query<SearchWordItem>(models.orderSearchWord, 'byWord', { initial: searchInitial(longest) })
      .begins({ word: longest })
      .go({ limit, cursor }),
  );
  const moreMatches = data.length > SEARCH_WORDS_READ_MAX;
  const byOrder = new Map<string, SearchWordItem>();
  for (const item of data.slice(0, SEARCH_WORDS_READ_MAX)) byOrder.set(item.orderId, item);
  const wanted = new Set(partitionsOf(filter));
  const matches = [...byOrder.values()]
    .filter((item) => wanted.has(item.assignment))
    .filter((item) => {
      const words = item.words.split(' ');
      return terms.every((term) => words.some((word) => word.startsWith(term)));
    })
    .sort(compareAdminOrders(sort));
  return { matches, moreMatches };
};

const listFromSearch = async (terms: string[], query: AdminOrdersQuery, after?: Cursor) => {
  const { page, limit, assignmentFilter, sortBy } = query;
  const { matches, moreMatches } = await searchMatches(terms, assignmentFilter, sortBy);
  const compare = compareAdminOrders(sortBy);
  const start = after ? matches.findIndex((m) => compare(m, cursorKey(after)) > 0) : (page - 1) * limit;
  const from = start < 0 ? matches.length : start;
  const pageItems = matches.slice(from, from + limit);
  return {
    rows: await ordersByIds(pageItems.map((m) => m.orderId)),
    lastKey: pageItems.at(-1),
    hasMore: matches.length > from + limit,
    total: matches.length,
    moreMatches,
  };
};

// ---------------------------------------------------------------- the list

export const listAdminOrders = async (query: AdminOrdersQuery): Promise<AdminOrderListResponse> => {
  const after = query.cursor ? decodeCursor(query.cursor, query.sortBy) : undefined;
  const terms = query.searchTerm ? [...new Set(searchWordsOf(query.searchTerm))] : [];
  const { rows, lastKey, hasMore, total, moreMatches } = terms.length
    ? await listFromSearch(terms, query, after)
    : { ...(await listFromIndexes(query, after)), moreMatches: false };
  const now = new Date();
  return {
    orders: rows.map((o) => toAdminOrderView(o, now)),
    total,
    totalPages: Math.ceil(total / query.limit),
    page: query.page,
    nextCursor: hasMore && lastKey ? encodeCursor(query.sortBy, lastKey) : null,
    moreMatches,
  };
};
