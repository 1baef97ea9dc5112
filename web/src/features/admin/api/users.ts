import type { AdminUserListResponse, AdminUserResponse, AdminUserView } from '@marketplace/events/admin';
import type { Role } from '@marketplace/events/roles';
import { useMemo } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import { apiDelete, apiPatch, apiPost } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';

export const ADMIN_USERS_URL = '/api/admin/users';
export const ADMIN_INVITED_USERS_URL = '/api/admin/invited-users';

const usersUrl = (includeDeleted: boolean) =>
  includeDeleted ? `${ADMIN_USERS_URL}?includeInactive=true` : ADMIN_USERS_URL;
const userUrl = (userId: string) => `${ADMIN_USERS_URL}/${encodeURIComponent(userId)}`;

/** Users first, then the invited people who have no user row yet; newest first. */
export const mergeUsersById = (users: AdminUserView[], invited: AdminUserView[]): AdminUserView[] => {
  const byId = new Map(users.map((user) => [user.id, user]));
  for (const person of invited) if (!byId.has(person.id)) byId.set(person.id, person);
  return [...byId.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
};

/**
 * The All Users list: active users merged with the invited ones, or, with deleted users shown,
 * every user (the invited list is not fetched then).
 */
export function useAdminUsers({ includeDeleted }: { includeDeleted: boolean }) {
  const { user } = useAuth();
  const users = useSWR<AdminUserListResponse>(user ? [usersUrl(includeDeleted), user.uid] : null);
  const invited = useSWR<AdminUserListResponse>(user && !includeDeleted ? [ADMIN_INVITED_USERS_URL, user.uid] : null);
  const usersData = users.data;
  const invitedData = includeDeleted ? { users: [] } : invited.data;
  const merged = useMemo(
    () => (usersData && invitedData ? mergeUsersById(usersData.users, invitedData.users) : undefined),
    [usersData, invitedData],
  );
  return {
    users: merged,
    error: users.error ?? (includeDeleted ? undefined : invited.error),
    isLoading: !merged && !users.error && !invited.error,
  };
}

/** How many rows the All Users tab shows by default (active users and invited ones), for its label. */
export function useAdminUserCount() {
  return useAdminUsers({ includeDeleted: false }).users?.length;
}

const isAdminUsersKey = (key: unknown) =>
  Array.isArray(key) &&
  typeof key[0] === 'string' &&
  (key[0] === ADMIN_INVITED_USERS_URL || key[0] === ADMIN_USERS_URL || key[0].startsWith(`${ADMIN_USERS_URL}?`));

/** The admin's changes to users; each refreshes every users list (with and without deleted ones) and the invited list. */
export function useUserAdminActions() {
  const { mutate } = useSWRConfig();
  // The change has succeeded whether or not the refresh does; callers need not wait for it.
  const refresh = () => mutate(isAdminUsersKey);
  return {
    addRole: async (userId: string, role: Role) => {
      await apiPost(`${userUrl(userId)}/roles`, { role });
      void refresh();
    },
    removeRole: async (userId: string, role: Role) => {
      await apiDelete(`${userUrl(userId)}/roles/${encodeURIComponent(role)}`);
      void refresh();
    },
    deleteUser: async (userId: string) => {
      const { user } = await apiDelete<AdminUserResponse>(userUrl(userId));
      void refresh();
      return user;
    },
    suspendUser: async (userId: string) => {
      const { user } = await apiPatch<AdminUserResponse>(`${userUrl(userId)}/deactivate`);
      void refresh();
      return user;
    },
    reactivateUser: async (userId: string) => {
      const { user } = await apiPatch<AdminUserResponse>(`${userUrl(userId)}/reactivate`);
      void refresh();
      return user;
    },
  };
}
