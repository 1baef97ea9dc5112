import type { AdminFeedbackListResponse, FeedbackStatsView } from '@marketplace/events/admin';
import {
  type FeedbackStatus,
  type FeedbackType,
  type FeedbackView,
  feedbackStatuses,
  feedbackTypes,
} from '@marketplace/events/feedback';
import { ulid } from 'ulid';
import { Conflict, NotFound } from '../http/errors';
import { marketplace } from './entities';
import { readCounters } from './orders';
import { commitAll, counterAdd, TransactionCancelled } from './transactions';

type FeedbackRecord = {
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
  const { data, cursor: next } = await marketplace()
    .entities.feedback.query.byUser({ userId })
    .go({ order: 'desc', limit: MY_FEEDBACK_PAGE_SIZE, cursor: cursor ?? null });
  return { feedback: (data as FeedbackRecord[]).map(toFeedbackView), nextCursor: next ?? null };
};

/** The admin's list holds at most this many items, the newest; its total still counts them all. */
export const ADMIN_FEEDBACK_LIST_MAX = 500;

const newestFirst = (a: FeedbackRecord, b: FeedbackRecord) =>
  b.createdAt.localeCompare(a.createdAt) || b.feedbackId.localeCompare(a.feedbackId);

/**
 * All feedback for the admin, newest first. Each status is its own partition of the byStatus
 * index: 'all' reads the four, newest first, and merges them; the type is a filter on those
 * bounded reads. The total is exact when everything fits in the list, else from the counters.
 */
export const listAllFeedback = async (filter: {
  status: FeedbackStatus | 'all';
  type: FeedbackType | 'all';
}): Promise<AdminFeedbackListResponse> => {
  const statuses = filter.status === 'all' ? feedbackStatuses : [filter.status];
  const reads = await Promise.all(
    statuses.map((status) => {
      const query = marketplace().entities.feedback.query.byStatus({ status });
      const filtered = filter.type === 'all' ? query : query.where(({ type }, { eq }) => eq(type, filter.type));
      return filtered.go({ order: 'desc', count: ADMIN_FEEDBACK_LIST_MAX });
    }),
  );
  const matching = reads.flatMap(({ data }) => data as FeedbackRecord[]).sort(newestFirst);
  const feedback = matching.slice(0, ADMIN_FEEDBACK_LIST_MAX).map(toFeedbackView);
  const complete = reads.every(({ cursor }) => !cursor) && matching.length <= ADMIN_FEEDBACK_LIST_MAX;
  if (complete) return { feedback, total: matching.length };
  const counted = (await readCounters(FEEDBACK_SCOPE))[counterName(filter)] ?? 0;
  return { feedback, total: Math.max(counted, matching.length) };
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
    const { data } = await marketplace()
      .entities.feedback.get({ feedbackId: update.feedbackId })
      .go({ consistent: true });
    const current = data as FeedbackRecord | null;
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
        const patch = e.feedback.patch({ feedbackId: current.feedbackId }).set(changes).composite({
          createdAt: current.createdAt,
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
