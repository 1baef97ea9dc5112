import type { AdminFeedbackListResponse, FeedbackStatsView } from '@marketplace/events/admin';
import type { FeedbackStatus, FeedbackType, FeedbackView } from '@marketplace/events/feedback';
import useSWR, { useSWRConfig } from 'swr';
import { apiPut } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';

export const ALL_FEEDBACK_URL = '/api/feedback/all';
export const FEEDBACK_STATS_URL = '/api/feedback/stats';

export type FeedbackStatusFilter = 'all' | FeedbackStatus;
export type FeedbackTypeFilter = 'all' | FeedbackType;

const allFeedbackUrl = (status: FeedbackStatusFilter, type: FeedbackTypeFilter) =>
  `${ALL_FEEDBACK_URL}?${new URLSearchParams({ status, type })}`;

/** Every user's feedback matching the filters, newest first, with how many match in all. */
export function useAllFeedback(status: FeedbackStatusFilter, type: FeedbackTypeFilter) {
  const { user } = useAuth();
  return useSWR<AdminFeedbackListResponse>(user ? [allFeedbackUrl(status, type), user.uid] : null);
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
