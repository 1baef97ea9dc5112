import type { PhotographerStatsView } from '@marketplace/events/orders';
import useSWR from 'swr';
import { useAuth } from '../../../lib/auth-context';

export const PHOTOGRAPHER_STATS_URL = '/api/stats/photographer';

/** The signed-in photographer's totals: orders, photos, money spent (cents) and orders still open. */
export function usePhotographerStats() {
  const { user } = useAuth();
  return useSWR<PhotographerStatsView>(user ? [PHOTOGRAPHER_STATS_URL, user.uid] : null);
}
