import type { InsightRange, InsightsView } from '@marketplace/events/insights';
import useSWR from 'swr';
import { useAuth } from '../../../lib/auth-context';

export const ADMIN_INSIGHTS_URL = '/api/admin/insights';

/** The browser's own IANA time zone, so the days are the admin's days; UTC if the runtime does not say. */
export const browserTimeZone = (): string => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
};

export const adminInsightsUrl = ({ range, timeZone }: { range: InsightRange; timeZone: string }) =>
  `${ADMIN_INSIGHTS_URL}?${new URLSearchParams({ range, tz: timeZone })}`;

/** The Insights figures for the last `range` days in `timeZone`; the previous range stays on screen while the next loads. */
export function useAdminInsights({ range, timeZone }: { range: InsightRange; timeZone: string }) {
  const { user } = useAuth();
  return useSWR<InsightsView>(user ? [adminInsightsUrl({ range, timeZone }), user.uid] : null, {
    keepPreviousData: true,
  });
}
