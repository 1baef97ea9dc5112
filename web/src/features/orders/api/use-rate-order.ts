import type { OrderDetailView } from '@marketplace/events/orders';
import { useSWRConfig } from 'swr';
import useSWRMutation from 'swr/mutation';
import { apiPost } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';
import { orderUrl } from './use-order';

/** Any cached list of the photographer's orders, whichever page or limit. */
const isMyOrdersKey = (key: unknown) =>
  Array.isArray(key) && typeof key[0] === 'string' && key[0].startsWith('/api/orders/my?');

/** Rates the order's editor, then shows the rated order at once and refreshes the order lists. */
export function useRateOrder(orderId: string) {
  const { user } = useAuth();
  const { mutate } = useSWRConfig();
  return useSWRMutation(
    `${orderUrl(orderId)}/rate`,
    async (url: string, { arg }: { arg: { rating: number } }) => {
      const rated = await apiPost<OrderDetailView>(url, arg);
      await mutate([orderUrl(orderId), user?.uid], rated, { revalidate: false });
      void mutate(isMyOrdersKey);
      return rated;
    },
    { throwOnError: true },
  );
}
