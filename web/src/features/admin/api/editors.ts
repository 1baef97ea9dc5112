import {
  ADMIN_EDITORS_PAGE_SIZE,
  type AdminEditorListResponse,
  type AdminEditorStatsView,
  type CheckEmailResponse,
  type EditorPayoutsResponse,
  type PayoutView,
} from '@marketplace/events/admin';
import type { inviteEditorInput, jobTypeRateInput } from '@marketplace/events/invitations';
import type { EarningsPage } from '@marketplace/events/payouts';
import type * as z from '@marketplace/events/zod';
import useSWR, { useSWRConfig } from 'swr';
import useSWRInfinite from 'swr/infinite';
import { apiGet, apiPost, apiPut } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';

export const ADMIN_EDITORS_URL = '/api/admin/editors';
const editorUrl = (editorId: string, part: 'rates' | 'stats' | 'payouts' | 'earnings') =>
  `${ADMIN_EDITORS_URL}/${encodeURIComponent(editorId)}/${part}`;

export type JobTypeRate = z.infer<typeof jobTypeRateInput>;
export type EditorInvitation = z.input<typeof inviteEditorInput>;

/** One page of editors with their rates and payout totals; `cursor` is the previous page's nextCursor. */
export const adminEditorsUrl = ({ page, limit, cursor }: { page: number; limit: number; cursor?: string }) => {
  const query = new URLSearchParams({ page: String(page), limit: String(limit) });
  if (cursor) query.set('cursor', cursor);
  return `${ADMIN_EDITORS_URL}?${query}`;
};

/** Any cached page of the editors list (Editor Management's pages, the assign dialog's list). */
export const isAdminEditorsKey = (key: unknown) =>
  Array.isArray(key) && typeof key[0] === 'string' && key[0].startsWith(`${ADMIN_EDITORS_URL}?`);

export function useAdminEditors({ page, cursor }: { page: number; cursor?: string }) {
  const { user } = useAuth();
  return useSWR<AdminEditorListResponse>(
    user ? [adminEditorsUrl({ page, limit: ADMIN_EDITORS_PAGE_SIZE, cursor }), user.uid] : null,
    { keepPreviousData: true },
  );
}

export function useAdminEditorStats(editorId: string) {
  const { user } = useAuth();
  return useSWR<AdminEditorStatsView>(user ? [editorUrl(editorId, 'stats'), user.uid] : null);
}

/** The newest page of an editor's payout history; fetched only while `enabled` (the payout dialog is open). */
export function useEditorPayouts(editorId: string, enabled: boolean) {
  const { user } = useAuth();
  return useSWR<EditorPayoutsResponse>(user && enabled ? [editorUrl(editorId, 'payouts'), user.uid] : null);
}

/** The page of an editor's payouts older than the ones a page before ended with (its nextCursor). */
export const olderPayouts = (editorId: string, cursor: string) =>
  apiGet<EditorPayoutsResponse>(`${editorUrl(editorId, 'payouts')}?${new URLSearchParams({ cursor })}`);

/**
 * An editor's earnings and their transfers, newest first, 20 a page by the server's cursor;
 * fetched only while `enabled` (the transfers dialog is open).
 */
export function useEditorEarnings(editorId: string, enabled: boolean) {
  const { user } = useAuth();
  return useSWRInfinite<EarningsPage>(
    (index, previous: EarningsPage | null) => {
      if (!user || !enabled || (previous && !previous.nextCursor)) return null;
      const query = new URLSearchParams(previous?.nextCursor ? { cursor: previous.nextCursor } : {});
      return [`${editorUrl(editorId, 'earnings')}${query.size ? `?${query}` : ''}`, user.uid, index];
    },
    ([url]: [string]) => apiGet<EarningsPage>(url),
    { revalidateFirstPage: false },
  );
}

export const checkEmailAvailability = (email: string) =>
  apiGet<CheckEmailResponse>(`/api/admin/check-email/${encodeURIComponent(email)}`);

/** Editor writes; each refreshes the editor list it changes. */
export function useEditorWrites() {
  const { user } = useAuth();
  const { mutate } = useSWRConfig();
  const refreshEditors = () => void mutate(isAdminEditorsKey);
  return {
    invite: async (invitation: EditorInvitation) => {
      const answer = await apiPost<{ user: { email: string } }>('/api/admin/invite-editor', invitation);
      refreshEditors();
      return answer;
    },
    /** Replaces all of the editor's rates with these. */
    replaceRates: async (editorId: string, jobTypeRates: JobTypeRate[]) => {
      await apiPut(editorUrl(editorId, 'rates'), { jobTypeRates });
      refreshEditors();
    },
    /** `payoutId` is sent again on a retry so the payout is booked once. */
    recordPayout: async (editorId: string, payout: { amountCents: number; note?: string; payoutId: string }) => {
      const recorded = await apiPost<PayoutView>(editorUrl(editorId, 'payouts'), payout);
      refreshEditors();
      void mutate([editorUrl(editorId, 'payouts'), user?.uid]);
      return recorded;
    },
  };
}
