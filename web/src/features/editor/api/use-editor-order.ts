import type { OrderDetailView, OrderImageView } from '@marketplace/events/orders';
import useSWR from 'swr';
import { apiPost } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';
import { type WaitOptions, waitForReadyZip } from '../../../lib/download-completed';

const orderPath = (orderId: string) => `/api/orders/${encodeURIComponent(orderId)}`;

export const editorOrderUrls = (orderId: string) => ({
  order: orderPath(orderId),
  images: `${orderPath(orderId)}/images`,
  downloadAll: `${orderPath(orderId)}/images/download-all`,
  events: `${orderPath(orderId)}/events`,
  complete: `${orderPath(orderId)}/complete`,
  editedSign: `${orderPath(orderId)}/edited-uploads/sign`,
  editedComplete: `${orderPath(orderId)}/edited-uploads/complete`,
});

/**
 * The order being worked on. Unlike every other query it refetches when the window regains focus
 * (spec section 2), so an editor coming back to the tab sees changes made meanwhile.
 */
export function useEditorOrder(orderId: string | undefined) {
  const { user } = useAuth();
  return useSWR<OrderDetailView>(user && orderId ? [orderPath(orderId), user.uid] : null, {
    revalidateOnFocus: true,
    focusThrottleInterval: 5_000,
    dedupingInterval: 2_000,
  });
}

/** The order's files: the photographer's originals and the editor's deliveries. */
export function useOrderImages(orderId: string | undefined) {
  const { user } = useAuth();
  return useSWR<{ images: OrderImageView[] }>(user && orderId ? [editorOrderUrls(orderId).images, user.uid] : null);
}

export const completeEditorOrder = (orderId: string, editorNotes: string) =>
  apiPost<OrderDetailView>(editorOrderUrls(orderId).complete, { editorNotes: editorNotes.trim() || undefined });

/** Waits for the originals' zip (the 'Download All' button). */
export const waitForOriginalsZip = (orderId: string, options?: WaitOptions) =>
  waitForReadyZip(editorOrderUrls(orderId).downloadAll, options);
