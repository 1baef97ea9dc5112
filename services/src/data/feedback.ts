import type { AdminFeedbackListResponse, AdminFeedbackQuery, FeedbackStatsView } from '@marketplace/events/admin';
import {
  type FeedbackStatus,
  type FeedbackType,
  type FeedbackView,
  feedbackStatuses,
  feedbackTypes,
} from '@marketplace/events/feedback';
import * as z from '@marketplace/events/zod';
import { ulid } from 'ulid';
import { Conflict, NotFound } from '../http/errors';
import { cursorComposites, getRecord, models, query } from './direct-reads';
import { descending, mergePartitions, type Position, pageByNumber, readPartition } from './list-pages';
import { readCounters } from './orders';
import { decodePageCursor, encodePageCursor } from './page-cursors';
import { commitAll, counterAdd, TransactionCancelled } from './transactions';

export type FeedbackRecord = {
  feedbackId: string;
  userId: string;
  userName: string;
  userEmail: string;
  type: FeedbackType;
  status: FeedbackView['status'];
  message: string;
  adminNotes?: string;
  reviewerName?: string;
  reviewedAt?: string;
  createdAt: string;
};

export const toFeedbackView = (f: FeedbackRecord): FeedbackView => ({
  id: f.feedbackId,
  type: f.type,
  status: f.status,
  message: f.message,
  userName: f.userName,
  userEmail: f.userEmail,
  createdAt: f.createdAt,
  adminNotes: f.adminNotes ?? null,
  reviewerName: f.reviewerName ?? null,
  reviewedAt: f.reviewedAt ?? null,
});

const FEEDBACK_SCOPE = 'feedback';

/**
 * The counters of the admin's feedback view: 'total', 'type#<type>', 'status#<status>', and one
 * per status and type ('status#<status>#type#<type>') so any filter's total is one counter.
 */
const counterName = (filter: { status: FeedbackStatus | 'all'; type: FeedbackType | 'all' }) => {
  if (filter.status === 'all') return filter.type === 'all' ? 'total' : `type#${filter.type}`;
  return filter.type === 'all' ? `status#${filter.status}` : `status#${filter.status}#type#${filter.type}`;
};

/** Stores the feedback and bumps the admin's counters in one transaction: both or neither. */
export const submitFeedback = async (input: {
  userId: string;
  userName: string;
  userEmail: string;
  type: FeedbackType;
  message: string;
}) => {
  const record = {
    feedbackId: ulid(),
    ...input,
    status: 'open' as const,
    createdAt: new Date().toISOString(),
  };
  await commitAll((e) => [
    e.feedback.create(record).commit(),
    ...[
      counterName({ status: 'all', type: 'all' }),
      counterName({ status: 'all', type: record.type }),
      counterName({ status: 'open', type: 'all' }),
      counterName({ status: 'open', type: record.type }),
    ].map((name) => counterAdd(e, FEEDBACK_SCOPE, name, 1)),
  ]);
  return toFeedbackView(record);
};

export const MY_FEEDBACK_PAGE_SIZE = 50;

/** The user's own feedback, newest first, a page at a time. */
export const listFeedbackByUser = async (userId: string, cursor?: string) => {
  const { data, cursor: next } = await query<FeedbackRecord>(models.feedback, 'byUser', { userId }).go({
    order: 'desc',
    limit: MY_FEEDBACK_PAGE_SIZE,
    cursor: cursor ?? null,
  });
  return { feedback: data.map(toFeedbackView), nextCursor: next ?? null };
};

interface FeedbackSortKey {
  createdAt: string;
  feedbackId: string;
}

/** A report's place in the byStatus index (createdAt, then id; keys are lower-cased). */
const feedbackPosition = (f: FeedbackSortKey): Position => [f.createdAt.toLowerCase(), f.feedbackId.toLowerCase()];

const feedbackCursor = z.object({
  createdAt: z.string().check(z.minLength(1)),
  feedbackId: z.string().check(z.minLength(1)),
});

const encodeFeedbackCursor = ([createdAt, feedbackId]: Position) => encodePageCursor({ createdAt, feedbackId });

const decodeFeedbackCursor = (cursor: string): Position => {
  const { createdAt, feedbackId } = decodePageCursor(cursor, feedbackCursor);
  return [createdAt, feedbackId];
};

type FeedbackIndex = 'byStatus' | 'byTypeAndStatus';

/** Where a read of a status partition stopped, from DynamoDB's last evaluated key. */
const feedbackIndexStop = (index: FeedbackIndex) => (cursor: string) =>
  feedbackPosition(cursorComposites(models.feedback, index, cursor) as unknown as FeedbackSortKey);

type FeedbackFilter = { status: FeedbackStatus | 'all'; type: FeedbackType | 'all' };

/**
 * A page of the reports matching the filter, newest first, after `after`. Each status is its own
 * partition of the byStatus index, and each type and status of the byTypeAndStatus index: 'all'
 * statuses reads the four from the cursor on and merges them, so every filter reads about a page
 * from each partition, however rare its reports.
 */
const feedbackPage = (filter: FeedbackFilter) => async (after: Position | undefined, limit: number) => {
  const statuses = filter.status === 'all' ? feedbackStatuses : [filter.status];
  const byStatus = (values: { status: string }) => query<FeedbackRecord>(models.feedback, 'byStatus', values);
  const byTypeAndStatus = (values: { type: string; status: string }) =>
    query<FeedbackRecord>(models.feedback, 'byTypeAndStatus', values);
  const index: FeedbackIndex = filter.type === 'all' ? 'byStatus' : 'byTypeAndStatus';
  const reads = await Promise.all(
    statuses.map((status) => {
      const partition = filter.type === 'all' ? byStatus({ status }) : byTypeAndStatus({ type: filter.type, status });
      return readPartition<FeedbackRecord>({
        query: after ? partition.lt({ createdAt: after[0]!, feedbackId: after[1]! }) : partition,
        order: 'desc',
        want: limit + 1,
        budget: limit + 1,
        filtered: false,
        positionOfCursor: feedbackIndexStop(index),
      });
    }),
  );
  return mergePartitions(reads, { limit, positionOf: feedbackPosition, compare: descending });
};

/**
 * All feedback for the admin, newest first, a page at a time by status and type; the total is
 * the counter of that filter (every status-and-type total is one).
 */
export const listAllFeedback = async (query: AdminFeedbackQuery): Promise<AdminFeedbackListResponse> => {
  const readPage = feedbackPage(query);
  const [{ rows, next }, counters] = await Promise.all([
    query.cursor
      ? readPage(decodeFeedbackCursor(query.cursor), query.limit)
      : pageByNumber(query.page, query.limit, readPage),
    readCounters(FEEDBACK_SCOPE),
  ]);
  const total = Math.max(0, counters[counterName(query)] ?? 0);
  return {
    feedback: rows.map(toFeedbackView),
    total,
    totalPages: Math.ceil(total / query.limit),
    page: query.page,
    nextCursor: next && encodeFeedbackCursor(next),
  };
};

/** The admin's summary cards, from the counters the writes keep. */
export const feedbackStats = async (): Promise<FeedbackStatsView> => {
  const counters = await readCounters(FEEDBACK_SCOPE);
  const count = (name: string) => Math.max(counters[name] ?? 0, 0);
  return {
    total: count(counterName({ status: 'all', type: 'all' })),
    byType: Object.fromEntries(
      feedbackTypes.map((type) => [type, count(counterName({ status: 'all', type }))]),
    ) as FeedbackStatsView['byType'],
    byStatus: Object.fromEntries(
      feedbackStatuses.map((status) => [status, count(counterName({ status, type: 'all' }))]),
    ) as FeedbackStatsView['byStatus'],
  };
};

/**
 * An admin's review: the status, the notes when given (absent or null keeps them, empty clears
 * them), who reviewed it and when. A status change moves its counters in the same transaction,
 * pinned to the status read: of two admins at once, the one who loses reads again and retries
 * once, so the counters always agree with the items.
 */
export const updateFeedback = async (update: {
  feedbackId: string;
  status: FeedbackStatus;
  adminNotes?: string | null;
  reviewerName: string;
}) => {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const current = await getRecord<FeedbackRecord>(
      models.feedback,
      { feedbackId: update.feedbackId },
      { consistent: true },
    );
    if (!current) throw new NotFound('Feedback not found');
    const changes = {
      status: update.status,
      reviewerName: update.reviewerName,
      reviewedAt: new Date().toISOString(),
      ...(update.adminNotes ? { adminNotes: update.adminNotes } : {}),
    };
    const clearsNotes = update.adminNotes === '';
    const moves = current.status === update.status ? [] : [current.status, update.status];
    try {
      await commitAll((e) => {
        // The partition keys built of the status move with it: byStatus and byTypeAndStatus.
        const patch = e.feedback.patch({ feedbackId: current.feedbackId }).set(changes).composite({
          createdAt: current.createdAt,
          type: current.type,
        });
        return [
          (clearsNotes ? patch.remove(['adminNotes']) : patch)
            .where(({ status }, { eq }) => eq(status, current.status))
            .commit(),
          ...moves.flatMap((status, i) =>
            [counterName({ status, type: 'all' }), counterName({ status, type: current.type })].map((name) =>
              counterAdd(e, FEEDBACK_SCOPE, name, i === 0 ? -1 : 1),
            ),
          ),
        ];
      });
      const { adminNotes, ...rest } = { ...current, ...changes };
      return toFeedbackView(clearsNotes ? rest : { ...rest, adminNotes });
    } catch (error) {
      if (!(error instanceof TransactionCancelled && error.conditionFailed)) throw error;
    }
  }
  throw new Conflict('This feedback was just updated by another admin. Please reload and try again.');
};
