import type { EditorStatsView } from '@marketplace/events/editor-orders';
import useSWR from 'swr';
import { useAuth } from '../../../lib/auth-context';

export const EDITOR_STATS_URL = '/api/stats/editor';

/** The signed-in editor's totals: open and finished orders, money earned and still to be paid out (cents). */
export function useEditorStats() {
  const { user } = useAuth();
  return useSWR<EditorStatsView>(user ? [EDITOR_STATS_URL, user.uid] : null);
}
