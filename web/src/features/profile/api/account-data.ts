import type { AccountDeletedView, DataExportView } from '@marketplace/events/account-data';
import useSWR from 'swr';
import { apiPost } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';
import { confirmPassword } from './confirm-password';

export const DATA_EXPORT_URL = '/api/account/data-export';

/** While the data is being prepared the page asks again every few seconds, then stops. */
const PREPARING_POLL_MS = 3_000;

/** The account's latest data download, asked again while it is being prepared. */
export function useDataExport() {
  const { user } = useAuth();
  // Scoped by the user: another account signing in on this tab never sees this one's download.
  const swr = useSWR<DataExportView>(user ? [DATA_EXPORT_URL, user.uid] : null, {
    dedupingInterval: 2_000,
    refreshInterval: (latest) => (latest?.export?.status === 'preparing' ? PREPARING_POLL_MS : 0),
  });
  return {
    latest: swr.data?.export ?? null,
    error: swr.error as unknown,
    isLoading: swr.isLoading,
    refresh: () => swr.mutate(),
    replace: (view: DataExportView) => swr.mutate(view, { revalidate: false }),
  };
}

/** 'Download my data': the password confirmed (the server asks for a fresh sign-in), then the request. */
export const requestDataExport = async (password: string) => {
  await confirmPassword(password);
  return apiPost<DataExportView>(DATA_EXPORT_URL, {});
};

/** 'Delete my account': the password confirmed, then the typed confirmation goes to the server. */
export const deleteAccount = async ({ password, confirmation }: { password: string; confirmation: string }) => {
  await confirmPassword(password);
  return apiPost<AccountDeletedView>('/api/account/delete', { confirmation });
};
