import type { SharedDownloadKind, SharedGalleryView } from '@marketplace/events/delivery';
import useSWR from 'swr';
import { ApiError } from '../../../lib/api-client';
import { type WaitOptions, waitForReadyZip } from '../../../lib/download-completed';

export const sharedGalleryUrl = (token: string) => `/api/share/${encodeURIComponent(token)}`;

/** Whether the link opens nothing (unknown, expired, revoked): the server answers all of these alike. */
export const isUnavailableLink = (error: unknown) => error instanceof ApiError && error.status === 404;

/**
 * The gallery a share link opens, for a visitor with no account. Each answer counts a view, so it
 * is asked once per visit and not again on focus or reconnect.
 */
export function useSharedGallery(token: string | undefined) {
  return useSWR<SharedGalleryView>(token ? sharedGalleryUrl(token) : null, {
    revalidateIfStale: false,
    revalidateOnReconnect: false,
  });
}

/** Waits for one of the shared gallery's zips: the full-resolution files or the MLS-ready copies. */
export const waitForSharedZip = (token: string, kind: SharedDownloadKind, options: WaitOptions) =>
  waitForReadyZip(`${sharedGalleryUrl(token)}/downloads/${kind}`, options);
