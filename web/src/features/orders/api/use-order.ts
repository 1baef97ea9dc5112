import type { OrderDetailView } from '@marketplace/events/orders';
import useSWR from 'swr';
import { useAuth } from '../../../lib/auth-context';

export const orderUrl = (orderId: string) => `/api/orders/${encodeURIComponent(orderId)}`;

/** One order as its photographer sees it; a 404 means it is not theirs or does not exist. */
export function useOrder(orderId: string | undefined) {
  const { user } = useAuth();
  return useSWR<OrderDetailView>(user && orderId ? [orderUrl(orderId), user.uid] : null);
}
