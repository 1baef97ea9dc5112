import type { OrderDetailView, RequestRevisionInput } from '@marketplace/events/orders';
import { useSWRConfig } from 'swr';
import useSWRMutation from 'swr/mutation';
import { apiPost } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';
import { orderUrl } from './use-order';

/** Any cached list of the photographer's orders, whichever page or limit. */
const isMyOrdersKey = (key: unknown) =>
  Array.isArray(key) && typeof key[0] === 'string' && key[0].startsWith('/api/orders/my?');

/** Sends a completed order back to its editor, then shows the order as it is now and refreshes the lists. */
export function useRequestRevision(orderId: string) {
  const { user } = useAuth();
  const { mutate } = useSWRConfig();
  return useSWRMutation(
    `${orderUrl(orderId)}/revisions`,
    async (url: string, { arg }: { arg: RequestRevisionInput }) => {
      const updated = await apiPost<OrderDetailView>(url, arg);
      await mutate([orderUrl(orderId), user?.uid], updated, { revalidate: false });
      void mutate(isMyOrdersKey);
      return updated;
    },
    { throwOnError: true },
  );
}
