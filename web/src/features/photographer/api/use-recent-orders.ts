import type { OrderListResponse } from '@marketplace/events/orders';
import useSWR from 'swr';
import { useAuth } from '../../../lib/auth-context';

/** The spec's 'Photographer recent orders' count (section 9). */
export const RECENT_ORDERS_LIMIT = 5;

/** The signed-in photographer's latest orders, newest first. */
export function useRecentOrders() {
  const { user } = useAuth();
  return useSWR<OrderListResponse>(user ? [`/api/orders/my?limit=${RECENT_ORDERS_LIMIT}`, user.uid] : null);
}
