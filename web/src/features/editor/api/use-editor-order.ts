import type { OrderDetailView } from '@marketplace/events/orders';
import useSWR, { useSWRConfig } from 'swr';
import { apiPost } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';
import { EDITOR_STATS_URL } from './use-editor-stats';
import { MY_ASSIGNMENTS_URL } from './use-my-assignments';

const orderPath = (orderId: string) => `/api/orders/${encodeURIComponent(orderId)}`;

export const editorOrderUrls = (orderId: string) => ({
  order: orderPath(orderId),
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
    focusThrottleInterval: 2_000,
    dedupingInterval: 2_000,
  });
}

/** 'Mark Complete': sends the notes, then the dashboard's assignments and stats are asked for afresh. */
export function useCompleteEditorOrder(orderId: string) {
  const { user } = useAuth();
  const { mutate } = useSWRConfig();
  return async (editorNotes: string) => {
    const order = await apiPost<OrderDetailView>(editorOrderUrls(orderId).complete, {
      editorNotes: editorNotes.trim() || undefined,
    });
    void mutate([orderPath(orderId), user?.uid], order, { revalidate: false });
    void mutate([MY_ASSIGNMENTS_URL, user?.uid]);
    void mutate([EDITOR_STATS_URL, user?.uid]);
    return order;
  };
}
