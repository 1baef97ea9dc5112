import {
  ADMIN_FEEDBACK_PAGE_SIZE,
  type AdminFeedbackListResponse,
  type FeedbackStatsView,
} from '@marketplace/events/admin';
import type { FeedbackStatus, FeedbackType, FeedbackView } from '@marketplace/events/feedback';
import useSWR, { useSWRConfig } from 'swr';
import { apiPut } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';

export const ALL_FEEDBACK_URL = '/api/feedback/all';
export const FEEDBACK_STATS_URL = '/api/feedback/stats';

export type FeedbackStatusFilter = 'all' | FeedbackStatus;
export type FeedbackTypeFilter = 'all' | FeedbackType;

/** What the Feedback tab asks the server for: one page of one filtered list. */
export interface FeedbackPageQuery {
  status: FeedbackStatusFilter;
  type: FeedbackTypeFilter;
  page: number;
  /** The previous page's nextCursor; none on page one. */
  cursor?: string | undefined;
}

const allFeedbackUrl = ({ status, type, page, cursor }: FeedbackPageQuery) => {
  const query = new URLSearchParams({ status, type, page: String(page), limit: String(ADMIN_FEEDBACK_PAGE_SIZE) });
  if (cursor) query.set('cursor', cursor);
  return `${ALL_FEEDBACK_URL}?${query}`;
};

/** One page of every user's feedback matching the filters, newest first, with how many match in all. */
export function useAllFeedback(query: FeedbackPageQuery) {
  const { user } = useAuth();
  return useSWR<AdminFeedbackListResponse>(user ? [allFeedbackUrl(query), user.uid] : null, {
    keepPreviousData: true,
  });
}

export function useFeedbackStats() {
  const { user } = useAuth();
  return useSWR<{ stats: FeedbackStatsView | null }>(user ? [FEEDBACK_STATS_URL, user.uid] : null);
}

const isFeedbackAdminKey = (key: unknown) =>
  Array.isArray(key) &&
  typeof key[0] === 'string' &&
  (key[0] === FEEDBACK_STATS_URL || key[0].startsWith(`${ALL_FEEDBACK_URL}?`));

export interface FeedbackUpdate {
  status: FeedbackStatus;
  /** Left out, the notes already there are kept. */
  adminNotes?: string;
}

/** Sets a feedback item's status (and notes), then refreshes the lists and the counts it changes. */
export function useUpdateFeedback() {
  const { mutate } = useSWRConfig();
  return async (feedbackId: string, update: FeedbackUpdate) => {
    const updated = await apiPut<FeedbackView>(`/api/feedback/${encodeURIComponent(feedbackId)}`, update);
    void mutate(isFeedbackAdminKey);
    return updated;
  };
}
