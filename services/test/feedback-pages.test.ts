import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { type AdminFeedbackListResponse, adminFeedbackQuery } from '@marketplace/events/admin';
import { type FeedbackStatus, type FeedbackType, feedbackStatuses, feedbackTypes } from '@marketplace/events/feedback';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

/**
 * The admin's feedback list, a page at a time, against an in-memory reference, in a table of its
 * own (other files submit feedback to the shared one as this runs): 900 reports over 300 seconds
 * (so dates tie and the id decides), every status and type, and five problems older than all the
 * rest, which only a walk past many dropped rows reaches.
 */
interface Seed {
  feedbackId: string;
  type: FeedbackType;
  status: FeedbackStatus;
  createdAt: string;
}

const start = Date.parse('2026-02-01T00:00:00.000Z');
const seeds: Seed[] = Array.from({ length: 900 }, (_, i) => ({
  feedbackId: ulid(start + i),
  // The five oldest are the only problems; a tenth of the rest are suggestions.
  type: i < 5 ? 'problem' : i % 10 === 0 ? 'suggestion' : 'general',
  status: i < 5 ? 'open' : feedbackStatuses[i % 3 === 0 ? 0 : i % 4]!,
  createdAt: new Date(start + Math.floor(i / 3) * 1000).toISOString(),
}));

const newestFirst = (a: Seed, b: Seed) =>
  b.createdAt.localeCompare(a.createdAt) || (b.feedbackId < a.feedbackId ? -1 : b.feedbackId > a.feedbackId ? 1 : 0);
const reference = (status: string, type: string) =>
  seeds
    .filter((f) => (status === 'all' || f.status === status) && (type === 'all' || f.type === type))
    .sort(newestFirst)
    .map((f) => f.feedbackId);

const shared = process.env.TABLE_NAME;
const table = `feedback-pages-${ulid().toLowerCase()}`;
let listAllFeedback: typeof import('../src/data/feedback').listAllFeedback;
let dynamo: typeof import('../src/data/client').dynamo;

beforeAll(async () => {
  process.env.TABLE_NAME = table;
  vi.resetModules();
  ({ dynamo } = await import('../src/data/client'));
  const { ensureTable } = await import('../local/table-setup');
  const { marketplace } = await import('../src/data/entities');
  ({ listAllFeedback } = await import('../src/data/feedback'));
  expect(marketplace().entities.feedback.query.byStatus({ status: 'open' }).params()).toMatchObject({
    TableName: table,
  });
  process.env.TABLE_NAME = shared;
  await ensureTable(dynamo(), table, { stream: false });
  const e = marketplace().entities;
  const { unprocessed } = await e.feedback
    .put(
      seeds.map((f, i) => ({
        ...f,
        userId: `reporter-${i % 7}`,
        userName: `Reporter ${i % 7}`,
        userEmail: `reporter-${i % 7}@example.test`,
        message: `Report number ${i}`,
      })),
    )
    .go({ concurrency: 16 });
  expect(unprocessed).toHaveLength(0);
  // The counters as the writes keep them: one per status and type and their sums.
  const counts = new Map<string, number>();
  const add = (name: string) => counts.set(name, (counts.get(name) ?? 0) + 1);
  for (const f of seeds) {
    for (const name of ['total', `type#${f.type}`, `status#${f.status}`, `status#${f.status}#type#${f.type}`])
      add(name);
  }
  await e.counter.put([...counts].map(([name, value]) => ({ scope: 'feedback', name, value }))).go();
}, 120_000);

afterAll(async () => {
  await dynamo().send(new DeleteTableCommand({ TableName: table }));
  vi.resetModules();
});

const walk = async (status: string, type: string, limit: number) => {
  const ids: string[] = [];
  const pages: AdminFeedbackListResponse[] = [];
  let cursor: string | undefined;
  do {
    const answer = await listAllFeedback(
      adminFeedbackQuery.parse({ status, type, limit, page: pages.length + 1, cursor }),
    );
    pages.push(answer);
    ids.push(...answer.feedback.map((f) => f.id));
    cursor = answer.nextCursor ?? undefined;
  } while (cursor);
  return { ids, pages };
};

describe('the admin feedback list, a page at a time', () => {
  it('gives every status x type exactly the reference through the cursors, with the total from the counters', async () => {
    await Promise.all(
      ['all', ...feedbackStatuses].flatMap((status) =>
        ['all', ...feedbackTypes].map(async (type) => {
          const label = `${status} x ${type}`;
          const expected = reference(status, type);
          const { ids, pages } = await walk(status, type, 40);
          expect(ids, label).toEqual(expected);
          expect(
            pages.map((p) => p.total),
            label,
          ).toEqual(pages.map(() => expected.length));
          expect(pages[0]!.totalPages, label).toBe(Math.ceil(expected.length / 40));
          expect(
            pages.every((p) => p.feedback.length <= 40),
            label,
          ).toBe(true);
        }),
      ),
    );
  }, 120_000);

  it('reaches the few old problems behind hundreds of other reports in one page: the type has partitions of its own', async () => {
    const { ids, pages } = await walk('all', 'problem', 25);

    expect(ids).toEqual(reference('all', 'problem'));
    expect(ids).toHaveLength(5);
    expect(pages).toHaveLength(1);
    expect(pages[0]!.nextCursor).toBeNull();
  });

  it('jumps to a page by number without a cursor, and refuses a malformed cursor', async () => {
    const expected = reference('open', 'all');
    const third = await listAllFeedback(adminFeedbackQuery.parse({ status: 'open', limit: 25, page: 3 }));
    expect(third.feedback.map((f) => f.id)).toEqual(expected.slice(50, 75));
    await expect(
      listAllFeedback(adminFeedbackQuery.parse({ status: 'open', cursor: 'not-a-cursor' })),
    ).rejects.toMatchObject({ statusCode: 400 });
  });
});
