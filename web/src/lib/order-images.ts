import type { OrderImageView } from '@marketplace/events/orders';
import useSWR from 'swr';
import { useAuth } from './auth-context';

export const orderImagesUrl = (orderId: string) => `/api/orders/${encodeURIComponent(orderId)}/images`;

/** While the thumbnail worker is still making a preview, the list is read again this often. */
const PENDING_REFRESH_MS = 3_000;
/** A preview still missing this long after its upload is not coming soon (its worker failed): stop asking. */
const PENDING_GIVE_UP_MS = 10 * 60 * 1000;

const awaitingPreview = (image: OrderImageView, now: number) =>
  image.thumbnail === 'pending' && now - Date.parse(image.lastModified) < PENDING_GIVE_UP_MS;

/**
 * An order's originals and edited files with their thumbnails and pairings. While any thumbnail
 * is pending the list is read again every few seconds, so 'Preparing preview...' turns into the
 * picture by itself; the presigned URLs stay the same for an hour, so nothing is downloaded twice.
 */
export function useOrderImages(orderId: string | undefined) {
  const { user } = useAuth();
  return useSWR<{ images: OrderImageView[] }>(user && orderId ? [orderImagesUrl(orderId), user.uid] : null, {
    dedupingInterval: 2_000,
    refreshInterval: (data) =>
      data?.images.some((image) => awaitingPreview(image, Date.now())) ? PENDING_REFRESH_MS : 0,
  });
}
