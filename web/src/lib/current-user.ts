import type { Role } from '@marketplace/events/roles';
import type { MeView } from '@marketplace/events/users';
import useSWR from 'swr';
import { apiGet } from './api-client';
import { useAuth } from './auth-context';

export const CURRENT_USER_URL = '/api/auth/me';

/** Shown wherever the signed-in user's record cannot be loaded. */
export const PROFILE_LOAD_ERROR = 'Error loading user profile. Please contact support.';

/** The SWR key of the signed-in user's record; scoped by uid so one user's record never shows for another. */
export const currentUserKey = (uid: string) => [CURRENT_USER_URL, uid] as const;

export const fetchCurrentUser = () => apiGet<MeView>(CURRENT_USER_URL);

/** The signed-in user's record from the API (roles, name, avatar); nothing is fetched while signed out. */
export function useCurrentUser({ enabled = true }: { enabled?: boolean } = {}) {
  const { user } = useAuth();
  return useSWR(enabled && user ? currentUserKey(user.uid) : null, fetchCurrentUser);
}

/** Where a user lands after signing in: admin first, then editor, then photographer, else where they came from. */
export const landingPathAfterSignIn = (roles: readonly Role[], cameFrom?: string): string => {
  if (roles.includes('admin')) return '/admin';
  if (roles.includes('editor')) return '/editor';
  if (roles.includes('photographer')) return '/dashboard';
  return cameFrom ?? '/dashboard';
};

/** The navigation's 'Dashboard' entry: a photographer's dashboard first, since editors and admins have their own entries. */
export const dashboardPathFor = (roles: readonly Role[]): string => {
  if (roles.includes('photographer')) return '/dashboard';
  if (roles.includes('editor')) return '/editor';
  if (roles.includes('admin')) return '/admin';
  return '/dashboard';
};
