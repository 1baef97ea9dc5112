import type { MlsLongEdge, SaveSequenceInput, SequenceView } from '@marketplace/events/delivery';
import { useRef } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import useSWRMutation from 'swr/mutation';
import { apiPut } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';
import { useLiveStatus } from '../../../lib/live-updates';
import { orderUrl } from './use-order';

export const sequenceUrl = (orderId: string) => `${orderUrl(orderId)}/sequence`;
export const mlsSizeUrl = (orderId: string) => `${orderUrl(orderId)}/mls-size`;

/**
 * While MLS-ready copies are being made and the socket is not live, the view is read again this
 * often, so the progress line moves; while it is live, copies.ready reads it again.
 */
const MLS_PENDING_REFRESH_MS = 3_000;
/** Copies still pending this long are not coming soon (their worker failed): stop asking. */
const MLS_PENDING_GIVE_UP_MS = 10 * 60 * 1000;

/**
 * The order's listing order (cover first) and its MLS-ready set. While copies are pending it is
 * read again when they are made (the live socket's copies.ready), or, while the socket is not live,
 * every few seconds for up to ten minutes.
 */
export function useListingSequence(orderId: string) {
  const { user } = useAuth();
  const live = useLiveStatus() === 'live';
  const pendingSince = useRef<number | null>(null);
  return useSWR<SequenceView>(user ? [sequenceUrl(orderId), user.uid] : null, {
    dedupingInterval: 2_000,
    refreshInterval: (view) => {
      if (!view?.mls.pending) {
        pendingSince.current = null;
        return 0;
      }
      pendingSince.current ??= Date.now();
      if (live) return 0;
      return Date.now() - pendingSince.current < MLS_PENDING_GIVE_UP_MS ? MLS_PENDING_REFRESH_MS : 0;
    },
  });
}

/**
 * Saves the listing order on the version the page loaded; a 409 SEQUENCE_CHANGED (another tab saved
 * meanwhile) is left to the caller. The view is read again afterwards: its zip names and version changed.
 */
export function useSaveSequence(orderId: string) {
  const { user } = useAuth();
  const { mutate } = useSWRConfig();
  return useSWRMutation(
    sequenceUrl(orderId),
    async (url: string, { arg }: { arg: SaveSequenceInput }) => {
      await apiPut<unknown>(url, arg);
      await mutate([sequenceUrl(orderId), user?.uid]);
    },
    { throwOnError: true },
  );
}

/** Chooses the long edge of the MLS-ready copies; the view is read again to show the set at the new size. */
export function useSetMlsSize(orderId: string) {
  const { user } = useAuth();
  const { mutate } = useSWRConfig();
  return useSWRMutation(
    mlsSizeUrl(orderId),
    async (url: string, { arg }: { arg: { longEdge: MlsLongEdge } }) => {
      await apiPut<unknown>(url, arg);
      await mutate([sequenceUrl(orderId), user?.uid]);
    },
    { throwOnError: true },
  );
}
