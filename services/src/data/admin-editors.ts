import type {
  AdminEditorListResponse,
  AdminEditorStatsView,
  AdminEditorsQuery,
  AdminEditorView,
} from '@marketplace/events/admin';
import type { JobTypeView } from '@marketplace/events/job-types';
import { compareText } from '../domain/text-order';
import { NotFound } from '../http/errors';
import { decodeUserCursor, encodeUserCursor, pageFields, userIndexStop, userKeyOf, userPosition } from './admin-pages';
import { batchGetAll } from './batch-get';
import { getRecords, models, query } from './direct-reads';
import type { EditorRateRecord } from './editor-rates';
import { listJobTypes } from './job-types';
import { descending, mergePartitions, type Position, pageByNumber, readPartition } from './list-pages';
import { editorScope, readCounters } from './orders';
import { type PayoutAccountUser, toPayoutAccountView } from './payout-accounts';
import { editorsTotal } from './user-totals';
import { getUser, type UserRecord } from './users';

/**
 * The admin's view of editors: who they are, their rates by job type, what is owed and paid, and
 * how they perform, all from the editors index, their partitions and their counters.
 */
const toAdminEditorView = (
  user: UserRecord,
  rates: EditorRateRecord[],
  jobTypes: Map<string, JobTypeView>,
  totals: { pendingPayoutCents: number; paidOutCents: number },
): AdminEditorView => ({
  id: user.userId,
  email: user.email,
  displayName: user.displayName ?? null,
  status: user.status,
  invitedAt: user.invitedAt ?? null,
  createdAt: user.createdAt,
  isActive: user.isActive,
  rates: rates
    .map((r) => ({
      id: `${r.editorId}:${r.jobTypeId}`,
      jobTypeId: r.jobTypeId,
      jobTypeName: jobTypes.get(r.jobTypeId)?.name ?? r.jobTypeId,
      jobTypeDescription: jobTypes.get(r.jobTypeId)?.description ?? null,
      ratePerPhotoCents: r.ratePerPhotoCents,
    }))
    .sort((a, b) => compareText(a.jobTypeName, b.jobTypeName)),
  ...totals,
  payoutAccount: toPayoutAccountView(user as UserRecord & PayoutAccountUser),
});

const jobTypesById = async () => new Map((await listJobTypes({ activeOnly: false })).map((j) => [j.id, j]));

const editorView = async (user: UserRecord, jobTypes: Map<string, JobTypeView>) =>
  (await editorViews([user], jobTypes))[0] as AdminEditorView;

interface CounterItem {
  scope: string;
  name: string;
  value: number;
}

/**
 * The admin's views of these editors with their rates and payout totals, in one BatchGet of every
 * (editor, job type) rate and every editor's two payout counters, instead of two Queries an editor:
 * a page of 20 editors was about 40 Queries, now 2 to 4 BatchGets (100 keys each).
 */
const editorViews = async (users: UserRecord[], jobTypes: Map<string, JobTypeView>) => {
  if (!users.length) return [];
  const payoutCounters = ['pendingPayouts', 'paidOut'] as const;
  const [rates, counters] = await Promise.all([
    batchGetAll<{ editorId: string; jobTypeId: string }, EditorRateRecord>(
      (keys) => getRecords(models.editorRate, keys),
      users.flatMap((u) => [...jobTypes.keys()].map((jobTypeId) => ({ editorId: u.userId, jobTypeId }))),
    ),
    batchGetAll<{ scope: string; name: string }, CounterItem>(
      (keys) => getRecords(models.counter, keys),
      users.flatMap((u) => payoutCounters.map((name) => ({ scope: editorScope(u.userId), name }))),
    ),
  ]);
  const counterValue = (editorId: string, name: string) =>
    counters.find((c) => c.scope === editorScope(editorId) && c.name === name)?.value ?? 0;
  return users.map((user) =>
    toAdminEditorView(
      user,
      rates.filter((r) => r.editorId === user.userId),
      jobTypes,
      {
        pendingPayoutCents: counterValue(user.userId, 'pendingPayouts'),
        paidOutCents: counterValue(user.userId, 'paidOut'),
      },
    ),
  );
};

const editorsPage = async (after: Position | undefined, limit: number) => {
  const index = query<UserRecord>(models.user, 'editors', { isEditor: 'editor' });
  const read = await readPartition<UserRecord>({
    query: after ? index.lt(userKeyOf(after)) : index,
    order: 'desc',
    want: limit + 1,
    budget: limit + 1,
    filtered: false,
    positionOfCursor: userIndexStop('editors'),
  });
  return mergePartitions([read], { limit, positionOf: userPosition, compare: descending });
};

/**
 * One page of the users holding the editor role, invited ones included, newest first (the sparse
 * editors index): one Query of the page after the cursor, and each shown editor's rates and
 * payout totals. The total is the editor cells of the admin list's counters (user-totals.ts).
 */
export const listEditors = async (query: AdminEditorsQuery): Promise<AdminEditorListResponse> => {
  const after = query.cursor ? decodeUserCursor(query.cursor) : undefined;
  const [{ rows, next }, total, jobTypes] = await Promise.all([
    after ? editorsPage(userPosition(after), query.limit) : pageByNumber(query.page, query.limit, editorsPage),
    editorsTotal(),
    jobTypesById(),
  ]);
  return {
    editors: await editorViews(rows, jobTypes),
    ...pageFields(total, query.page, query.limit, next && encodeUserCursor(next)),
  };
};

export const getAdminEditor = async (editorId: string) => {
  const [user, jobTypes] = await Promise.all([getUser(editorId), jobTypesById()]);
  if (!user?.roles.includes('editor')) throw new NotFound('Editor not found');
  return editorView(user, jobTypes);
};

/** One decimal, as the stats box shows it. */
const oneDecimal = (value: number) => Math.round(value * 10) / 10;

/**
 * Performance from the editor's counters (kept by claim, completion and rating): an editor's
 * history stays readable after the role is taken away, so any existing user answers.
 */
export const adminEditorStats = async (editorId: string): Promise<AdminEditorStatsView> => {
  const [user, counters] = await Promise.all([getUser(editorId), readCounters(editorScope(editorId))]);
  if (!user) throw new NotFound('Editor not found');
  const ratingCount = counters.ratingCount ?? 0;
  const completedOrders = counters.completedOrders ?? 0;
  return {
    averageRating: ratingCount ? oneDecimal((counters.ratingSum ?? 0) / ratingCount) : null,
    ratingCount,
    averageTurnaroundHours:
      completedOrders && counters.turnaroundSeconds !== undefined
        ? oneDecimal(counters.turnaroundSeconds / completedOrders / 3600)
        : null,
    completedOrders,
    activeOrders: counters.activeOrders ?? 0,
  };
};
