import type { OrderDetailView } from '@marketplace/events/orders';
import { useSWRConfig } from 'swr';
import useSWRMutation from 'swr/mutation';
import { apiPost } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';
import { isAvailableOrdersKey } from './use-available-orders';
import { EDITOR_STATS_URL } from './use-editor-stats';
import { MY_ASSIGNMENTS_URL } from './use-my-assignments';

/** Claims an order for the signed-in editor, then refreshes the lists and totals the claim changes. */
export function useClaimOrder(orderId: string) {
  const { user } = useAuth();
  const { mutate } = useSWRConfig();
  return useSWRMutation(
    `/api/orders/${encodeURIComponent(orderId)}/claim`,
    async (url: string) => {
      const claimed = await apiPost<OrderDetailView>(url);
      // The claim has succeeded whether or not these refreshes do; the caller need not wait for them.
      void mutate(isAvailableOrdersKey);
      void mutate([MY_ASSIGNMENTS_URL, user?.uid]);
      void mutate([EDITOR_STATS_URL, user?.uid]);
      return claimed;
    },
    { throwOnError: true },
  );
}
