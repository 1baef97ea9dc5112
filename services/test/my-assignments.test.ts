import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { type MyAssignmentsResponse, myAssignmentsQuery } from '@marketplace/events/editor-orders';
import type { OrderStatus } from '@marketplace/events/orders';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

/**
 * The editor's My Assignments a page at a time, against an in-memory reference, in a table of its
 * own: 60 orders of one editor over 20 seconds (dates tie, the id decides) in every status, of
 * which only those in progress or back for a revision are listed, newest first, merged from the
 * two status partitions; another editor's orders beside them.
 */
interface Seed {
  orderId: string;
  editorId: string;
  status: OrderStatus;
  createdAt: string;
}

const EDITOR = `editor-${ulid().toLowerCase()}`;
const OTHER = `editor-${ulid().toLowerCase()}`;
const start = Date.parse('2026-03-01T00:00:00.000Z');
const statuses: OrderStatus[] = ['in_progress', 'revision_requested', 'completed', 'in_progress', 'paid'];
const seeds: Seed[] = Array.from({ length: 70 }, (_, i) => ({
  orderId: ulid(start + i * 7),
  editorId: i % 7 === 6 ? OTHER : EDITOR,
  status: statuses[i % statuses.length]!,
  createdAt: new Date(start + (i % 20) * 1000).toISOString(),
}));
const working = (s: Seed) => s.status === 'in_progress' || s.status === 'revision_requested';
const reference = seeds
  .filter((s) => s.editorId === EDITOR && working(s))
  .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || (b.orderId < a.orderId ? -1 : 1))
  .map((s) => s.orderId);

const shared = process.env.TABLE_NAME;
const table = `my-assignments-${ulid().toLowerCase()}`;
let listMyAssignmentsPage: typeof import('../src/data/my-assignments').listMyAssignmentsPage;
let dynamo: typeof import('../src/data/client').dynamo;

beforeAll(async () => {
  process.env.TABLE_NAME = table;
  vi.resetModules();
  ({ dynamo } = await import('../src/data/client'));
  const { ensureTable } = await import('../local/table-setup');
  const { marketplace } = await import('../src/data/entities');
  const { editorScope } = await import('../src/data/orders');
  ({ listMyAssignmentsPage } = await import('../src/data/my-assignments'));
  expect(marketplace().entities.order.query.byEditor({ editorId: EDITOR }).params()).toMatchObject({
    TableName: table,
  });
  process.env.TABLE_NAME = shared;
  await ensureTable(dynamo(), table, { stream: false });
  const e = marketplace().entities;
  const { unprocessed } = await e.order
    .put(
      seeds.map((s, i) => ({
        ...s,
        orderNumber: 900_000 + i,
        photographerId: 'photographer-1',
        photographerName: 'Pat Lens',
        photographerSortName: 'pat lens',
        jobTypeId: 'hdr',
        jobTypeName: 'HDR',
        pricePerPhotoCents: 800,
        photoCount: 2,
        totalAmountCents: 1600,
        hasRequirements: 'no' as const,
        assignment: 'assigned' as const,
        editorRateCents: 100,
        photographerUploadCount: 2,
        editorUploadCount: 0,
      })),
    )
    .go({ concurrency: 16 });
  expect(unprocessed).toHaveLength(0);
  // The counter as claims and revision requests keep it.
  await e.counter.put({ scope: editorScope(EDITOR), name: 'activeOrders', value: reference.length }).go();
}, 60_000);

afterAll(async () => {
  await dynamo().send(new DeleteTableCommand({ TableName: table }));
  vi.resetModules();
});

describe("the editor's assignments, a page at a time", () => {
  it('walks exactly the reference through the cursors, for several page sizes, with the total from the counter', async () => {
    for (const limit of [1, 4, 7, 50]) {
      const walked: string[] = [];
      const pages: MyAssignmentsResponse[] = [];
      let cursor: string | undefined;
      do {
        const page = await listMyAssignmentsPage(EDITOR, myAssignmentsQuery.parse({ limit, cursor }));
        pages.push(page);
        walked.push(...page.orders.map((o) => o.id));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      expect(walked, `limit ${limit}`).toEqual(reference);
      expect(pages.length, `limit ${limit}`).toBe(Math.max(1, Math.ceil(reference.length / limit)));
      expect(new Set(pages.map((p) => p.total))).toEqual(new Set([reference.length]));
    }
  });

  it('answers an editor with nothing to work on, and refuses a malformed cursor', async () => {
    expect(await listMyAssignmentsPage(`editor-${ulid()}`, myAssignmentsQuery.parse({}))).toEqual({
      orders: [],
      total: 0,
      nextCursor: null,
    });
    await expect(
      listMyAssignmentsPage(EDITOR, myAssignmentsQuery.parse({ cursor: 'not-a-cursor' })),
    ).rejects.toMatchObject({ statusCode: 400 });
  });
});
