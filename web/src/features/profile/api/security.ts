import type { EmailChangeLinkView, SecurityActivityPage } from '@marketplace/events/security';
import useSWRInfinite from 'swr/infinite';
import { apiGet, apiPost } from '../../../lib/api-client';
import { signInWithEmail } from '../../../lib/auth';
import { confirmPassword } from './confirm-password';

export const SECURITY_ACTIVITY_URL = '/api/account/security-activity';

/** The account's recent security activity, newest first; `loadMore` reads the next page. */
export function useSecurityActivity() {
  const pages = useSWRInfinite<SecurityActivityPage>(
    (index, previous: SecurityActivityPage | null) => {
      if (index === 0) return SECURITY_ACTIVITY_URL;
      if (!previous?.nextCursor) return null;
      return `${SECURITY_ACTIVITY_URL}?cursor=${encodeURIComponent(previous.nextCursor)}`;
    },
    (url: string) => apiGet<SecurityActivityPage>(url),
  );
  const activity = pages.data?.flatMap((page) => page.activity) ?? [];
  const hasMore = Boolean(pages.data?.at(-1)?.nextCursor);
  return {
    activity,
    hasMore,
    error: pages.error as unknown,
    isLoading: pages.isLoading,
    isLoadingMore: pages.isValidating && pages.size > (pages.data?.length ?? 0),
    loadMore: () => pages.setSize(pages.size + 1),
    refresh: () => pages.mutate(),
  };
}

/** Thrown when the change was made but this browser could not sign in again: the user signs in by hand. */
export class SignInAgainError extends Error {
  constructor() {
    super('The change was made, but this device could not sign you in again. Please sign in with your password.');
    this.name = 'SignInAgainError';
  }
}

const signInAgain = async (email: string, password: string) => {
  try {
    await signInWithEmail(email, password);
  } catch (error) {
    console.error('Could not sign in again after a security change', error);
    throw new SignInAgainError();
  }
};

/**
 * Change password: the current one confirmed with Firebase first (a fresh sign-in for the server's
 * recent-sign-in rule), the new one set by the server, then this browser signs in with the new one
 * (Firebase ends every session when the password changes).
 */
export const changePassword = async ({
  email,
  currentPassword,
  newPassword,
}: {
  email: string;
  currentPassword: string;
  newPassword: string;
}) => {
  await confirmPassword(currentPassword);
  const answer = await apiPost<{ changedAt: string }>('/api/account/password', { newPassword });
  await signInAgain(email, newPassword);
  return answer;
};

/** Change email: the password confirmed, then a link is sent to the new address; nothing changes until it is opened. */
export const requestEmailChange = async ({ password, newEmail }: { password: string; newEmail: string }) => {
  await confirmPassword(password);
  return apiPost<{ newEmail: string; expiresAt: string }>('/api/account/email-change', { newEmail });
};

/**
 * Sign out of all other devices: the password confirmed, every older sign-in refused by the server,
 * then this browser signs in again with the password just typed, so it stays signed in.
 */
export const signOutEverywhere = async ({ email, password }: { email: string; password: string }) => {
  await confirmPassword(password);
  const answer = await apiPost<{ signedOutBefore: string }>('/api/account/sign-out-everywhere', {});
  await signInAgain(email, password);
  return answer;
};

const emailChangeUrl = (token: string) => `/api/account/email-change/${encodeURIComponent(token)}`;

/** What an email-change link names (public: opened from the new address's mailbox). */
export const readEmailChangeLink = (token: string) => apiGet<EmailChangeLinkView>(emailChangeUrl(token));

export const confirmEmailChange = (token: string) => apiPost<{ email: string }>(emailChangeUrl(token));
