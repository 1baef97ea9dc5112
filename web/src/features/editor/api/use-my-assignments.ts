import type { MyAssignmentsResponse } from '@marketplace/events/editor-orders';
import useSWR from 'swr';
import { apiGet } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';

export const MY_ASSIGNMENTS_URL = '/api/orders/my-assignments';

/** The first page of the orders the signed-in editor is working on (claims and completions refresh it). */
export function useMyAssignments() {
  const { user } = useAuth();
  return useSWR<MyAssignmentsResponse>(user ? [MY_ASSIGNMENTS_URL, user.uid] : null);
}

/** The page after the one that ended with this cursor (its nextCursor). */
export const moreAssignments = (cursor: string) =>
  apiGet<MyAssignmentsResponse>(`${MY_ASSIGNMENTS_URL}?${new URLSearchParams({ cursor })}`);
