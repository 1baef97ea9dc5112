import type { OrderListResponse } from '@marketplace/events/orders';
import useSWR from 'swr';
import { useAuth } from '../../../lib/auth-context';

export const ORDERS_PAGE_SIZE = 20;

const pageUrl = (cursor: string | undefined) => {
  const query = new URLSearchParams({ limit: String(ORDERS_PAGE_SIZE) });
  if (cursor) query.set('cursor', cursor);
  return `/api/orders/my?${query}`;
};

/** One page of the signed-in photographer's orders; the page before stays on screen while the next loads. */
export function useMyOrders(cursor: string | undefined) {
  const { user } = useAuth();
  return useSWR<OrderListResponse>(user ? [pageUrl(cursor), user.uid] : null, { keepPreviousData: true });
}
