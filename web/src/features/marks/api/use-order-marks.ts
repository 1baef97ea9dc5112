import type { MarkInput, MarkView, OrderMarksView } from '@marketplace/events/marks';
import useSWR, { useSWRConfig } from 'swr';
import { apiPatch, apiPut } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';

export const orderMarksUrl = (orderId: string) => `/api/orders/${encodeURIComponent(orderId)}/marks`;

/** The marks on an order's photos, for whoever may see the order. */
export function useOrderMarks(orderId: string) {
  const { user } = useAuth();
  return useSWR<OrderMarksView>(user ? [orderMarksUrl(orderId), user.uid] : null);
}

/** The photographer replaces one photo's marks; the answer (all the order's marks) becomes the cache. */
export function useSaveMarks(orderId: string) {
  const { user } = useAuth();
  const { mutate } = useSWRConfig();
  return async (key: string, marks: MarkInput[]) => {
    const view = await apiPut<OrderMarksView>(orderMarksUrl(orderId), { key, marks });
    await mutate([orderMarksUrl(orderId), user?.uid], view, { revalidate: false });
    return view;
  };
}

/** The order's editor ticks one mark done or not; the cached marks follow the answer. */
export function useTickMark(orderId: string) {
  const { user } = useAuth();
  const { mutate } = useSWRConfig();
  return async (key: string, markId: string, done: boolean) => {
    const { mark } = await apiPatch<{ key: string; mark: MarkView }>(`${orderMarksUrl(orderId)}/done`, {
      key,
      markId,
      done,
    });
    await mutate(
      [orderMarksUrl(orderId), user?.uid],
      (current: OrderMarksView | undefined) =>
        current && {
          photos: current.photos.map((photo) =>
            photo.key === key ? { ...photo, marks: photo.marks.map((m) => (m.id === markId ? mark : m)) } : photo,
          ),
        },
      { revalidate: false },
    );
    return mark;
  };
}
