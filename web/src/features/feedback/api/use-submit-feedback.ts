import type { FeedbackType, FeedbackView } from '@marketplace/events/feedback';
import { useSWRConfig } from 'swr';
import useSWRMutation from 'swr/mutation';
import { apiPost } from '../../../lib/api-client';
import { isMyFeedbackKey } from './use-my-feedback';

/** Sends a report, then refreshes the user's own list so it appears there. */
export function useSubmitFeedback() {
  const { mutate } = useSWRConfig();
  return useSWRMutation(
    '/api/feedback',
    async (url: string, { arg }: { arg: { type: FeedbackType; message: string } }) => {
      const created = await apiPost<FeedbackView>(url, arg);
      await mutate(isMyFeedbackKey);
      return created;
    },
    { throwOnError: true },
  );
}
