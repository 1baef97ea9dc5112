import { ADMIN_USERS_PAGE_SIZE, type AdminUserListResponse, type AdminUserResponse } from '@marketplace/events/admin';
import type { Role, UserStatus } from '@marketplace/events/roles';
import { useEffect } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import { apiDelete, apiPatch, apiPost } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';

export const ADMIN_USERS_URL = '/api/admin/users';

export type UserStatusFilter = 'all' | UserStatus;
export type UserRoleFilter = 'all' | Role;

/** What the All Users tab asks the server for: one page of one filtered list. */
export interface AdminUsersPageQuery {
  page: number;
  status: UserStatusFilter;
  role: UserRoleFilter;
  includeDeleted: boolean;
  /** The previous page's nextCursor; none on page one. */
  cursor?: string;
}

export const firstUsersPage: AdminUsersPageQuery = { page: 1, status: 'all', role: 'all', includeDeleted: false };

/** Invited editors are always listed (they have no account yet); deleted users only when asked. */
const usersUrl = ({ page, status, role, includeDeleted, cursor }: AdminUsersPageQuery) => {
  const query = new URLSearchParams({
    page: String(page),
    limit: String(ADMIN_USERS_PAGE_SIZE),
    includeInvited: 'true',
  });
  if (includeDeleted) query.set('includeInactive', 'true');
  if (status !== 'all') query.set('status', status);
  if (role !== 'all') query.set('role', role);
  if (cursor) query.set('cursor', cursor);
  return `${ADMIN_USERS_URL}?${query}`;
};
const userUrl = (userId: string) => `${ADMIN_USERS_URL}/${encodeURIComponent(userId)}`;

/** How often a page is read again while sign-in is being disabled or enabled for someone on it. */
export const SIGN_IN_PENDING_REFRESH_MS = 1500;

/**
 * One page of the All Users list, filtered and paged by the server; the page before stays while
 * the next loads. While the identity provider has not yet followed a suspension, deletion or
 * reactivation of someone on the page, the page is read again until it has.
 */
export function useAdminUsers(query: AdminUsersPageQuery) {
  const { user } = useAuth();
  const page = useSWR<AdminUserListResponse>(user ? [usersUrl(query), user.uid] : null, { keepPreviousData: true });
  const signInPending = Boolean(page.data?.users.some((listed) => listed.signInPending));
  const { mutate } = page;
  useEffect(() => {
    if (!signInPending) return;
    // mutate() reads again at once; an SWR refreshInterval would wait out the five-minute dedupe.
    const timer = setInterval(() => void mutate(), SIGN_IN_PENDING_REFRESH_MS);
    return () => clearInterval(timer);
  }, [signInPending, mutate]);
  return page;
}

/** How many people the All Users tab lists by default, for its label: the first page's total (the same request). */
export function useAdminUserCount() {
  return useAdminUsers(firstUsersPage).data?.total;
}

const isAdminUsersKey = (key: unknown) =>
  Array.isArray(key) && typeof key[0] === 'string' && key[0].startsWith(`${ADMIN_USERS_URL}?`);

/** The admin's changes to users; each refreshes every cached page of the users list, whatever its filters. */
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
