import type { OrderImageView } from '@marketplace/events/orders';
import { useSWRConfig } from 'swr';
import { apiPatch } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';
import { orderImagesUrl } from '../../../lib/order-images';

/** The editor points an edited file at an original (or at none); the order's file list is read again. */
export function usePairEditedImage(orderId: string) {
  const { user } = useAuth();
  const { mutate } = useSWRConfig();
  return async (editedKey: string, originalKey: string | null) => {
    const result = await apiPatch<{ image: OrderImageView }>(`/api/orders/${encodeURIComponent(orderId)}/pairings`, {
      editedKey,
      originalKey,
    });
    await mutate([orderImagesUrl(orderId), user?.uid]);
    return result.image;
  };
}
