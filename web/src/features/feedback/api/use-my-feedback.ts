import type { FeedbackView } from '@marketplace/events/feedback';
import useSWR from 'swr';
import { apiGet } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';

export const MY_FEEDBACK_KEY = 'my-feedback';

export interface MyFeedbackPage {
  feedback: FeedbackView[];
  nextCursor: string | null;
}

/** Matches the signed-in user's feedback list in the cache, whoever is signed in. */
export const isMyFeedbackKey = (key: unknown) => Array.isArray(key) && key[0] === MY_FEEDBACK_KEY;

/** The signed-in user's own reports, newest first. */
export function useMyFeedback() {
  const { user } = useAuth();
  return useSWR(user ? [MY_FEEDBACK_KEY, user.uid] : null, () => apiGet<MyFeedbackPage>('/api/feedback/my'));
}
