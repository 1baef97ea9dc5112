import type { AdminUserListResponse } from '@marketplace/events/admin';
import useSWR from 'swr';
import { useAuth } from '../../../lib/auth-context';

export const ADMIN_USERS_URL = '/api/admin/users';

/** How many users the All Users tab lists, for its label; undefined until known. */
export function useAdminUserCount() {
  const { user } = useAuth();
  const { data } = useSWR<AdminUserListResponse>(user ? [ADMIN_USERS_URL, user.uid] : null);
  return data?.users.length;
}
