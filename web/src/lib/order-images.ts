import type { OrderImageView } from '@marketplace/events/orders';
import useSWR from 'swr';
import { useAuth } from './auth-context';
import { useLiveStatus } from './live-updates';

export const orderImagesUrl = (orderId: string) => `/api/orders/${encodeURIComponent(orderId)}/images`;

/** While the thumbnail worker is still making a preview and the socket is not live, the list is read again this often. */
const PENDING_REFRESH_MS = 3_000;
/** A preview still missing this long after its upload is not coming soon (its worker failed): stop asking. */
const PENDING_GIVE_UP_MS = 10 * 60 * 1000;

const awaitingPreview = (image: OrderImageView, now: number) =>
  image.thumbnail === 'pending' && now - Date.parse(image.lastModified) < PENDING_GIVE_UP_MS;

/**
 * An order's originals and edited files with their thumbnails and pairings. 'Preparing preview...'
 * turns into the picture by itself: the live socket's images.ready reads the list again, or, while
 * the socket is not live, the list is read again every few seconds as long as a thumbnail is
 * pending. The presigned URLs stay the same for an hour, so nothing is downloaded twice.
 */
export function useOrderImages(orderId: string | undefined) {
  const { user } = useAuth();
  const live = useLiveStatus() === 'live';
  return useSWR<{ images: OrderImageView[] }>(user && orderId ? [orderImagesUrl(orderId), user.uid] : null, {
    dedupingInterval: 2_000,
    refreshInterval: (data) =>
      !live && data?.images.some((image) => awaitingPreview(image, Date.now())) ? PENDING_REFRESH_MS : 0,
  });
}
