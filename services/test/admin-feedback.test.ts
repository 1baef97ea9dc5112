import { randomUUID } from 'node:crypto';
import type { AdminFeedbackListResponse, FeedbackStatsView } from '@marketplace/events/admin';
import {
  type FeedbackStatus,
  type FeedbackType,
  type FeedbackView,
  feedbackStatuses,
  feedbackTypes,
} from '@marketplace/events/feedback';
import { beforeAll, describe, expect, it } from 'vitest';
import { anEditor, aPhotographer, as, aUserWithRoles, call, db, type TestAccount } from './support';

/**
 * The feedback table and its counters are shared with every other test file, and other files
 * submit feedback at the same time. So these tests look only at their own items (found by a tag
 * in the message), and count exactly only what no other file moves: in_progress, resolved, closed.
 */
let admin: TestAccount;
let photographer: TestAccount;

beforeAll(async () => {
  [admin, photographer] = await Promise.all([
    aUserWithRoles(['admin'], { displayName: 'Avery Reviewer' }),
    aPhotographer({ displayName: 'Fern Feedback' }),
  ]);
});

const submit = async (type: FeedbackType, message: string) => {
  const response = await as(photographer).post('/api/feedback', { type, message });
  if (response.status !== 201) throw new Error(`feedback not submitted: ${response.status}`);
  return response.body as FeedbackView;
};

const update = (id: string, body: object, by: TestAccount = admin) =>
  as(by).send('PUT', `/api/feedback/${id}`, JSON.stringify(body));

/** Every page of the list for a filter, walked through the cursors (other files add feedback meanwhile). */
const list = async (status: string, type: string) => {
  const feedback: FeedbackView[] = [];
  let cursor = '';
  let first: AdminFeedbackListResponse | undefined;
  do {
    const response = await as(admin).get(`/api/feedback/all?status=${status}&type=${type}&limit=100${cursor}`);
    expect(response.status).toBe(200);
    const page = response.body as AdminFeedbackListResponse;
    first ??= page;
    feedback.push(...page.feedback);
    cursor = page.nextCursor ? `&cursor=${page.nextCursor}` : '';
  } while (cursor);
  return { feedback, total: first!.total };
};

const stats = async () => {
  const response = await as(admin).get('/api/feedback/stats');
  expect(response.status).toBe(200);
  return response.body.stats as FeedbackStatsView;
};

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('who may triage feedback', () => {
  it('refuses anonymous callers with 401 and photographers and editors with 403, changing nothing', async () => {
    const item = await submit('problem', `Access check ${randomUUID()}`);
    const editor = await anEditor();
    const routes = [
      ['GET', '/api/feedback/all', undefined],
      ['GET', '/api/feedback/stats', undefined],
      ['PUT', `/api/feedback/${item.id}`, { status: 'closed' }],
    ] as const;

    for (const [method, path, body] of routes) {
      expect((await call(path, { method, body })).status, `${method} ${path}`).toBe(401);
      for (const account of [photographer, editor]) {
        expect((await call(path, { method, body, token: account.token })).status, `${method} ${path}`).toBe(403);
      }
    }
    expect((await db().feedback.get({ feedbackId: item.id }).go()).data?.status).toBe('open');
  });
});

describe('GET /api/feedback/all', () => {
  it('gives exactly the items matching each status and type, newest first', async () => {
    const tag = randomUUID();
    const plan: [FeedbackType, FeedbackStatus][] = [
      ['problem', 'open'],
      ['suggestion', 'in_progress'],
      ['general', 'resolved'],
      ['problem', 'closed'],
      ['suggestion', 'open'],
      ['problem', 'in_progress'],
      ['general', 'open'],
    ];
    const mine: { id: string; message: string; type: FeedbackType; status: FeedbackStatus }[] = [];
    for (const [i, [type, status]] of plan.entries()) {
      const item = await submit(type, `Item ${i} of ${tag}`);
      if (status !== 'open') expect((await update(item.id, { status })).status).toBe(200);
      mine.push({ id: item.id, message: item.message, type, status });
      await pause(5);
    }
    const newestFirst = [...mine].reverse();

    for (const status of ['all', ...feedbackStatuses]) {
      for (const type of ['all', ...feedbackTypes]) {
        const { feedback, total } = await list(status, type);
        const expected = newestFirst.filter(
          (f) => (status === 'all' || f.status === status) && (type === 'all' || f.type === type),
        );
        expect(
          feedback.filter((f) => f.message.endsWith(tag)).map((f) => f.id),
          `${status} x ${type}`,
        ).toEqual(expected.map((f) => f.id));
        expect(
          feedback.every((f) => (status === 'all' || f.status === status) && (type === 'all' || f.type === type)),
        ).toBe(true);
        const times = feedback.map((f) => f.createdAt);
        expect(times).toEqual([...times].sort().reverse());
        // The total counts every match, this file's among them.
        expect(total).toBeGreaterThanOrEqual(expected.length);
      }
    }
  });

  it('shows the reporter and the review on each item', async () => {
    const item = await submit('suggestion', `Reviewed item ${randomUUID()}`);
    await update(item.id, { status: 'resolved', adminNotes: 'Shipped in the next release' });

    const { feedback } = await list('resolved', 'suggestion');

    expect(feedback.find((f) => f.id === item.id)).toMatchObject({
      userName: 'Fern Feedback',
      userEmail: photographer.email,
      adminNotes: 'Shipped in the next release',
      reviewerName: 'Avery Reviewer',
      reviewedAt: expect.any(String),
    });
  });

  it('refuses an unknown status or type', async () => {
    expect((await as(admin).get('/api/feedback/all?status=pending')).status).toBe(400);
    expect((await as(admin).get('/api/feedback/all?type=praise')).status).toBe(400);
  });
});

describe('GET /api/feedback/stats', () => {
  it('counts a submitted item and moves the status counts when an admin changes its status', async () => {
    const before = await stats();

    const item = await submit('problem', `Stats item ${randomUUID()}`);
    const submitted = await stats();
    await update(item.id, { status: 'in_progress' });
    const started = await stats();
    await update(item.id, { status: 'closed' });
    const closed = await stats();

    expect(submitted.total).toBeGreaterThan(before.total);
    expect(submitted.byType.problem).toBeGreaterThan(before.byType.problem);
    expect(submitted.byStatus.open).toBeGreaterThan(before.byStatus.open);
    expect(started.byStatus.in_progress).toBe(submitted.byStatus.in_progress + 1);
    expect(closed.byStatus.in_progress).toBe(submitted.byStatus.in_progress);
    expect(closed.byStatus.closed).toBe(submitted.byStatus.closed + 1);
    expect(closed.byStatus.resolved).toBe(submitted.byStatus.resolved);
  });
});

describe('PUT /api/feedback/{id}', () => {
  it('records the status, the notes and who reviewed it, keeping the notes when none are given', async () => {
    const item = await submit('problem', `Notes item ${randomUUID()}`);

    const noted = await update(item.id, { status: 'in_progress', adminNotes: '  Looking at the upload logs  ' });
    const kept = await update(item.id, { status: 'resolved' });
    const keptOnNull = await update(item.id, { status: 'closed', adminNotes: null });

    expect(noted.status).toBe(200);
    expect(noted.body).toMatchObject({
      id: item.id,
      status: 'in_progress',
      adminNotes: 'Looking at the upload logs',
      reviewerName: 'Avery Reviewer',
      message: item.message,
    });
    expect(Date.parse(noted.body.reviewedAt)).toBeGreaterThanOrEqual(Date.parse(item.createdAt));
    expect(kept.body).toMatchObject({ status: 'resolved', adminNotes: 'Looking at the upload logs' });
    expect(keptOnNull.body).toMatchObject({ status: 'closed', adminNotes: 'Looking at the upload logs' });
    expect((await db().feedback.get({ feedbackId: item.id }).go()).data).toMatchObject({
      status: 'closed',
      adminNotes: 'Looking at the upload logs',
    });
  });

  it('clears the notes when they are sent empty', async () => {
    const item = await submit('general', `Cleared notes ${randomUUID()}`);
    await update(item.id, { status: 'in_progress', adminNotes: 'A first thought' });

    const cleared = await update(item.id, { status: 'in_progress', adminNotes: '' });

    expect(cleared.body.adminNotes).toBeNull();
    expect((await db().feedback.get({ feedbackId: item.id }).go()).data?.adminNotes).toBeUndefined();
  });

  it('names the reviewer by email when the admin has no display name', async () => {
    const unnamed = await aUserWithRoles(['admin']);
    const item = await submit('general', `Unnamed reviewer ${randomUUID()}`);

    const response = await update(item.id, { status: 'in_progress' }, unnamed);

    expect(response.body.reviewerName).toBe(unnamed.email);
  });

  it('answers 404 for unknown feedback and 400 for an unknown status or notes too long', async () => {
    const item = await submit('general', `Bad update ${randomUUID()}`);

    expect((await update(`nope-${randomUUID()}`, { status: 'closed' })).status).toBe(404);
    expect((await update(item.id, { status: 'done' })).status).toBe(400);
    expect((await update(item.id, { status: 'closed', adminNotes: 'x'.repeat(5001) })).status).toBe(400);
    expect((await db().feedback.get({ feedbackId: item.id }).go()).data?.status).toBe('open');
  });

  it('keeps the counters in step with the items through 20 simultaneous status changes', async () => {
    const items = await Promise.all(
      feedbackTypes
        .flatMap((type) => [submit(type, `Concurrent ${type} ${randomUUID()}`)])
        .concat(submit('problem', `Concurrent extra ${randomUUID()}`)),
    );
    const reviewers = [admin, await aUserWithRoles(['admin'])];
    const moved: FeedbackStatus[] = ['in_progress', 'resolved', 'closed'];
    const before = await stats();

    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        update(items[i % items.length]!.id, { status: moved[i % moved.length] }, reviewers[i % 2]),
      ),
    );

    expect(results.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    expect(results.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(items.length);
    const finals = await Promise.all(
      items.map(async (item) => (await db().feedback.get({ feedbackId: item.id }).go()).data!.status),
    );
    const after = await stats();
    for (const status of moved) {
      expect(after.byStatus[status] - before.byStatus[status], status).toBe(finals.filter((s) => s === status).length);
    }
  });
});
