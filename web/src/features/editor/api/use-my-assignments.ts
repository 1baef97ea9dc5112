import type { EditorAssignmentView } from '@marketplace/events/editor-orders';
import useSWR from 'swr';
import { useAuth } from '../../../lib/auth-context';

export const MY_ASSIGNMENTS_URL = '/api/orders/my-assignments';

/** The orders assigned to or claimed by the signed-in editor. */
export function useMyAssignments() {
  const { user } = useAuth();
  return useSWR<{ orders: EditorAssignmentView[] }>(user ? [MY_ASSIGNMENTS_URL, user.uid] : null);
}
