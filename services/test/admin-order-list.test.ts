import {
  type AdminOrderListResponse,
  type AdminOrderSort,
  type AdminOrdersQuery,
  type AssignmentFilter,
  adminOrderSorts,
  adminOrdersQuery,
  assignmentFilters,
  orderSearchWords,
  photographerSortName,
  SEARCH_WORDS_READ_MAX,
  searchWordsOf,
} from '@marketplace/events/admin';
import { ulid } from 'ulid';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { getOrder, markOrderPaid } from '../src/data/orders';
import { aPhotographer, as, aUserWithRoles, call, type TestAccount } from './support';

const list = async (account: TestAccount, query: Record<string, string | number>) => {
  const params = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  return as(account).get(`/api/orders/admin/all?${params}`);
};

const tag = () => ulid().slice(-8).toLowerCase();

describe('the admin order list route', () => {
  let admin: TestAccount;
  let photographer: TestAccount;
  let editor: TestAccount;
  const photographerName = `Quilla Marchetti${tag()}`;
  const orderName = `Lighthouse Cove${tag()}`;
  let orderId: string;

  beforeAll(async () => {
    [admin, photographer, editor] = await Promise.all([
      aUserWithRoles(['admin']),
      aPhotographer({ displayName: photographerName }),
      aUserWithRoles(['editor'], { displayName: 'Edna Listwell' }),
    ]);
    const created = await as(photographer).post('/api/orders', { jobTypeId: 'hdr', photoCount: 7, name: orderName });
    expect(created.status).toBe(201);
    orderId = created.body.order.id;
  });

  it('is for admins only', async () => {
    expect((await call('/api/orders/admin/all')).status).toBe(401);
    expect((await list(photographer, {})).status).toBe(403);
    expect((await list(editor, {})).status).toBe(403);
    const response = await list(admin, {});
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ page: 1 });
    expect(response.body.orders.length).toBeLessThanOrEqual(25);
  });

  it("finds a new order by its photographer's name and by its own name, with what an admin may do", async () => {
    for (const searchTerm of [photographerName.toUpperCase(), orderName.split(' ')[1]!, 'quilla lighthouse']) {
      const response = await list(admin, { searchTerm, assignmentFilter: 'all', limit: 100 });
      expect(response.status).toBe(200);
      const found = (response.body as AdminOrderListResponse).orders.find((o) => o.id === orderId);
      expect(found, searchTerm).toMatchObject({
        name: orderName,
        status: 'pending_payment',
        photoCount: 7,
        photographerId: photographer.uid,
        photographer: { display_name: photographerName },
        editor: null,
        assignment: 'unassigned',
        canAssign: false,
        canCancel: true,
      });
    }
    const unique = await list(admin, { searchTerm: orderName, assignmentFilter: 'unassigned' });
    expect(unique.body).toMatchObject({ total: 1, totalPages: 1, nextCursor: null });
    const notThere = await list(admin, { searchTerm: orderName, assignmentFilter: 'assigned' });
    expect(notThere.body).toMatchObject({ orders: [], total: 0, totalPages: 0 });
  });

  it('moves an order from unassigned to assigned when an editor claims it, naming the editor', async () => {
    const order = (await getOrder(orderId))!;
    await markOrderPaid({
      orderId,
      paymentIntentId: order.stripePaymentIntentId!,
      amountCents: order.totalAmountCents,
      via: 'client',
    });
    const paid = await list(admin, { searchTerm: orderName, assignmentFilter: 'unassigned' });
    expect(paid.body.orders).toMatchObject([{ id: orderId, status: 'paid', canAssign: true, canUnassign: false }]);

    expect((await as(editor).post(`/api/orders/${orderId}/claim`)).status).toBe(200);

    const unassigned = await list(admin, { searchTerm: orderName, assignmentFilter: 'unassigned' });
    expect(unassigned.body).toMatchObject({ orders: [], total: 0 });
    const assigned = await list(admin, { searchTerm: orderName, assignmentFilter: 'assigned', sortBy: 'photographer' });
    expect(assigned.body).toMatchObject({ total: 1, totalPages: 1 });
    expect(assigned.body.orders).toMatchObject([
      {
        id: orderId,
        status: 'in_progress',
        assignment: 'assigned',
        editorId: editor.uid,
        editor: { display_name: 'Edna Listwell' },
        canAssign: false,
        canCancel: false,
      },
    ]);
    // Without a search the order is on the assigned partition's newest page (created moments ago).
    const newest = await list(admin, { assignmentFilter: 'assigned', sortBy: 'newest', limit: 100 });
    expect(newest.body.orders.map((o: { id: string }) => o.id)).toContain(orderId);
    expect(newest.body.total).toBeGreaterThanOrEqual(1);
  });

  it('answers 400 to an unknown sort, a malformed cursor or a cursor of another sort', async () => {
    expect((await list(admin, { sortBy: 'cheapest' })).status).toBe(400);
    expect((await list(admin, { assignmentFilter: 'mine' })).status).toBe(400);
    expect((await list(admin, { cursor: 'not-a-cursor' })).status).toBe(400);
    const forged = Buffer.from(JSON.stringify({ sortBy: 'newest', orderId: 'x' })).toString('base64url');
    expect((await list(admin, { cursor: forged })).status).toBe(400);
    // Two orders at least, so the first page of one has a next page.
    await as(photographer).post('/api/orders', { jobTypeId: 'hdr', photoCount: 1 });
    const first = await list(admin, { assignmentFilter: 'all', sortBy: 'newest', limit: 1 });
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const wrongSort = await list(admin, { assignmentFilter: 'all', sortBy: 'oldest', cursor: first.body.nextCursor });
    expect(wrongSort.status).toBe(400);
    expect(
      (await list(admin, { assignmentFilter: 'all', sortBy: 'newest', cursor: first.body.nextCursor })).status,
    ).toBe(200);
  });
});

// ---------------------------------------------------------------- the reference test

/**
 * Enough orders for every page shape (dozens of pages of 25 in each partition over all sorts, ties
 * on date, photo count and name, common and rare terms). Speed at 10,000 orders is measured by
 * bench/admin-order-list.ts, not here: correctness does not need the bigger table, and 2,500
 * orders made this the slowest file of the suite.
 */
const ORDER_COUNT = 1_000;
/** Distinct creation seconds: three orders a second on average, so dates tie. */
const CREATION_SECONDS = Math.round(ORDER_COUNT * 0.3);

/** A small deterministic generator, so a failure can be reproduced. */
const randomFrom = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};

const firstNames = ['Ann', 'Anna', 'Annabel', 'Bob', 'Bobby', 'Carla', 'Dmitri', 'Eve', 'Zoë', 'Lee'];
const lastNames = ['Lee', 'Leeds', 'Ng', 'Novak', 'Ortiz', 'Park', 'Quinn', 'Reyes', 'Smith', 'Smithson'];
/** ~200 names: ties, prefixes of each other ("Ann", "Ann Lee", "Anna"), odd spacing and punctuation. */
const photographerNames = [
  'Ann',
  'Anna',
  'Ann Lee',
  'Ann  Lee',
  'Ann-Lee',
  "O'Brien",
  'ann lee',
  ...firstNames.flatMap((first) => lastNames.map((last) => `${first} ${last}`)),
  ...firstNames.flatMap((first) => lastNames.map((last) => `${last}, ${first}`)),
].slice(0, 200);
const streets = ['Maple Street', 'Oak Avenue', 'Harbor View', 'Lee Road', 'Annex Loft', 'Pine'];

interface Seed {
  orderId: string;
  orderNumber: number;
  name?: string;
  photographerName: string;
  photographerSortName: string;
  photoCount: number;
  createdAt: string;
  assignment: 'assigned' | 'unassigned';
  status: 'pending_payment' | 'paid' | 'in_progress' | 'completed';
}

const seedOrders = (): Seed[] => {
  const random = randomFrom(20_261_122);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  return Array.from({ length: ORDER_COUNT }, (_, i) => {
    const photographerName = pick(photographerNames);
    const assigned = random() < 0.4;
    const named = random() < 0.5;
    return {
      orderId: ulid(),
      orderNumber: 500_000 + i,
      ...(named ? { name: `${pick(streets)} ${Math.floor(random() * 40)}` } : {}),
      photographerName,
      photographerSortName: photographerSortName(photographerName),
      // 1-100 photos, many ties; dates tie too.
      photoCount: 1 + Math.floor(random() * 100),
      createdAt: new Date(start + Math.floor(random() * CREATION_SECONDS) * 1000).toISOString(),
      assignment: assigned ? 'assigned' : 'unassigned',
      status: assigned ? pick(['in_progress', 'completed'] as const) : pick(['pending_payment', 'paid'] as const),
    };
  });
};

const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** The tie order the issue fixes, written out on its own (not the module's comparator). */
const referenceOrder: Record<AdminOrderSort, (a: Seed, b: Seed) => number> = {
  newest: (a, b) => text(b.createdAt, a.createdAt) || text(b.orderId, a.orderId),
  oldest: (a, b) => text(a.createdAt, b.createdAt) || text(a.orderId, b.orderId),
  'most-photos': (a, b) => b.photoCount - a.photoCount || text(b.createdAt, a.createdAt) || text(b.orderId, a.orderId),
  photographer: (a, b) =>
    text(a.photographerSortName, b.photographerSortName) ||
    text(a.createdAt, b.createdAt) ||
    text(a.orderId, b.orderId),
};

const reference = (orders: Seed[], filter: AssignmentFilter, sort: AdminOrderSort, term?: string) => {
  const terms = term ? searchWordsOf(term) : [];
  return orders
    .filter((o) => filter === 'all' || o.assignment === filter)
    .filter((o) => {
      const words = orderSearchWords(o);
      return terms.every((t) => words.some((w) => w.startsWith(t)));
    })
    .sort(referenceOrder[sort])
    .map((o) => o.orderId);
};

/** No search, a common word, a rare one (an order number), and two words that must both match. */
const terms = [undefined, 'ann', String(500_000 + 734), 'lee map'];

describe(`the admin order list over ${ORDER_COUNT.toLocaleString('en')} orders`, () => {
  let listAdminOrders: (query: AdminOrdersQuery) => Promise<AdminOrderListResponse>;
  let marketplace: typeof import('../src/data/entities').marketplace;
  let orders: Seed[];

  // Other test files write orders into the shared table as this runs: this test gets a table of its own,
  // through fresh copies of the data modules bound to it (the route tests above keep the shared one).
  beforeAll(async () => {
    const sharedTable = process.env.TABLE_NAME;
    process.env.TABLE_NAME = `admin-list-${ulid().toLowerCase()}`;
    vi.resetModules();
    const config = await import('../src/config');
    config.resetConfig();
    const { dynamo, tableName } = await import('../src/data/client');
    const own = tableName();
    process.env.TABLE_NAME = sharedTable;
    const { ensureTable } = await import('../local/table-setup');
    await ensureTable(dynamo(), own, { stream: false });
    ({ marketplace } = await import('../src/data/entities'));
    const { searchWordRecords, ORDERS_SCOPE, assignmentCounterName } = await import('../src/data/order-assignment');
    ({ listAdminOrders } = await import('../src/data/admin-orders'));

    orders = seedOrders();
    const e = marketplace().entities;
    const records = orders.map((o) => ({
      ...o,
      photographerId: `photographer-${o.photographerSortName}`,
      jobTypeId: 'hdr',
      jobTypeName: 'HDR',
      pricePerPhotoCents: 800,
      totalAmountCents: o.photoCount * 800,
      hasRequirements: 'no' as const,
      photographerUploadCount: 0,
      editorUploadCount: 0,
    }));
    // Only the search items a tested term can reach (each term word's prefix) are written: the list
    // reads no others, and a tenth of the writes keeps the seeding quick on a busy machine.
    const searched = terms.flatMap((term) => (term ? searchWordsOf(term) : []));
    const reachable = records.flatMap(searchWordRecords).filter((r) => searched.some((t) => r.word.startsWith(t)));
    const putAll = async <T>(
      entity: { put: (items: T[]) => { go: (o: object) => Promise<{ unprocessed: unknown[] }> } },
      items: T[],
    ) => {
      const { unprocessed } = await entity.put(items).go({ concurrency: 32 });
      if (unprocessed.length) throw new Error(`${unprocessed.length} items were not written`);
    };
    await Promise.all([
      putAll(e.order as never, records),
      putAll(e.orderSearchWord as never, reachable),
      ...(['assigned', 'unassigned'] as const).map((a) =>
        e.counter
          .put({
            scope: ORDERS_SCOPE,
            name: assignmentCounterName(a),
            value: orders.filter((o) => o.assignment === a).length,
          })
          .go(),
      ),
    ]);
  }, 400_000);

  const query = (q: Partial<Record<keyof AdminOrdersQuery, string | number>>) => adminOrdersQuery.parse(q);
  const ids = (response: AdminOrderListResponse) => response.orders.map((o) => o.id);

  it('returns exactly what an in-memory reference computes for every filter x sort, with and without a search term', async () => {
    const limit = 25;
    const check = async (term: string | undefined, assignmentFilter: AssignmentFilter, sortBy: AdminOrderSort) => {
      const label = `${assignmentFilter} ${sortBy} ${term ?? '(no search)'}`;
      const expected = reference(orders, assignmentFilter, sortBy, term);
      const totalPages = Math.ceil(expected.length / limit);
      const base = { assignmentFilter, sortBy, limit, ...(term ? { searchTerm: term } : {}) };

      const first = await listAdminOrders(query(base));
      expect(ids(first), label).toEqual(expected.slice(0, limit));
      expect({ total: first.total, totalPages: first.totalPages }, label).toEqual({
        total: expected.length,
        totalPages,
      });
      if (totalPages <= 1) {
        expect(first.nextCursor, label).toBeNull();
        return;
      }
      const second = await listAdminOrders(query({ ...base, page: 2, cursor: first.nextCursor! }));
      expect(ids(second), `${label} page 2`).toEqual(expected.slice(limit, 2 * limit));
      // A page jumped to without a cursor reads every key before it: each index and partition is
      // checked that way once (all filters newest first, every sort over both partitions), and
      // every combination with a search term, which sorts in memory.
      if (!term && assignmentFilter !== 'all' && sortBy !== 'newest') return;
      const middle = Math.ceil(totalPages / 2);
      const [jumped, last] = await Promise.all([
        listAdminOrders(query({ ...base, page: middle })),
        listAdminOrders(query({ ...base, page: totalPages })),
      ]);
      expect(ids(jumped), `${label} page ${middle}`).toEqual(expected.slice((middle - 1) * limit, middle * limit));
      expect(ids(last), `${label} last page`).toEqual(expected.slice((totalPages - 1) * limit));
      expect(last.nextCursor, label).toBeNull();
      expect(last.totalPages, label).toBe(totalPages);
    };
    // The twelve combinations of a term run side by side: DynamoDB Local, not the checks, sets the pace.
    for (const term of terms) {
      await Promise.all(
        assignmentFilters.flatMap((assignmentFilter) =>
          adminOrderSorts.map((sortBy) => check(term, assignmentFilter, sortBy)),
        ),
      );
    }
  }, 400_000);

  it('bounds a search whose term begins more words than one search reads, and says so', async () => {
    // 'capworda' and 'capwordb' on the first 600 orders, 'capwordc' on the other 400: 1,600 items,
    // of which a search for 'capword' reads the first 1,000 (by word, then order id): a and b.
    const e = marketplace().entities;
    const words = orders.flatMap((o, i) =>
      (i < 600 ? ['capworda', 'capwordb'] : ['capwordc']).map((word) => ({ o, word })),
    );
    const { unprocessed } = await e.orderSearchWord
      .put(
        words.map(({ o, word }) => ({
          initial: 'c',
          word,
          orderId: o.orderId,
          words: word,
          assignment: o.assignment,
          createdAt: o.createdAt,
          photoCount: o.photoCount,
          photographerSortName: o.photographerSortName,
        })),
      )
      .go({ concurrency: 32 });
    expect(unprocessed).toHaveLength(0);
    expect(SEARCH_WORDS_READ_MAX).toBe(1_000);
    const firstSix = orders.slice(0, 600);

    const broad = await listAdminOrders(query({ assignmentFilter: 'all', sortBy: 'oldest', searchTerm: 'capword' }));
    const narrow = await listAdminOrders(query({ assignmentFilter: 'all', sortBy: 'oldest', searchTerm: 'capwordc' }));

    expect(broad.moreMatches).toBe(true);
    expect(broad.total).toBe(600);
    expect(ids(broad)).toEqual(reference(firstSix, 'all', 'oldest').slice(0, 25));
    expect(narrow.moreMatches).toBe(false);
    expect(narrow.total).toBe(400);
    expect(ids(narrow)).toEqual(reference(orders.slice(600), 'all', 'oldest').slice(0, 25));
    // 1,600 writes beside the parallel run's other files: 4 s alone, over 30 s once in a full run.
  }, 90_000);

  it('jumps to a page without a cursor within the first 1,000 rows only', async () => {
    const base = { assignmentFilter: 'all', sortBy: 'newest', limit: 25 } as const;
    expect(ids(await listAdminOrders(query({ ...base, page: 40 })))).toEqual(
      reference(orders, 'all', 'newest').slice(975, 1000),
    );
    await expect(listAdminOrders(query({ ...base, page: 42 }))).rejects.toMatchObject({
      statusCode: 400,
      code: 'PAGE_TOO_FAR',
    });
  });

  it('walks every page through the cursors in exactly the reference order', async () => {
    const walks: { assignmentFilter: AssignmentFilter; sortBy: AdminOrderSort; searchTerm?: string }[] = [
      { assignmentFilter: 'all', sortBy: 'photographer' },
      { assignmentFilter: 'all', sortBy: 'most-photos' },
      { assignmentFilter: 'unassigned', sortBy: 'oldest' },
      { assignmentFilter: 'assigned', sortBy: 'newest', searchTerm: 'ann' },
    ];
    await Promise.all(
      walks.map(async (walk) => {
        const expected = reference(orders, walk.assignmentFilter, walk.sortBy, walk.searchTerm);
        const seen: string[] = [];
        let response = await listAdminOrders(query({ ...walk, limit: 100 }));
        let pages = 1;
        seen.push(...ids(response));
        while (response.nextCursor) {
          pages += 1;
          response = await listAdminOrders(query({ ...walk, limit: 100, page: pages, cursor: response.nextCursor }));
          seen.push(...ids(response));
        }
        expect(seen, JSON.stringify(walk)).toEqual(expected);
        expect(pages, JSON.stringify(walk)).toBe(Math.ceil(expected.length / 100));
      }),
    );
  }, 300_000);
});
