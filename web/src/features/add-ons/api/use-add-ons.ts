import type { OfferedAddOnView, OrderAddOnsView, SaveOrderAddOnsInput } from '@marketplace/events/add-ons';
import useSWR, { useSWRConfig } from 'swr';
import { apiPut } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';

export const OFFERED_ADD_ONS_URL = '/api/orders/add-ons';
export const orderAddOnsUrl = (orderId: string) => `/api/orders/${encodeURIComponent(orderId)}/add-ons`;

/** The add-ons offered now, with their prices per photo (the photographer's picker). */
export function useOfferedAddOns(enabled = true) {
  const { user } = useAuth();
  return useSWR<OfferedAddOnView[]>(user && enabled ? [OFFERED_ADD_ONS_URL, user.uid] : null);
}

/** An order's price as the server computed it and the add-ons on each photo, for whoever may see the order. */
export function useOrderAddOns(orderId: string) {
  const { user } = useAuth();
  return useSWR<OrderAddOnsView>(user ? [orderAddOnsUrl(orderId), user.uid] : null);
}

/** The photographer replaces the add-ons on the photos; the server's answer (the new price) becomes the cache. */
export function useSaveOrderAddOns(orderId: string) {
  const { user } = useAuth();
  const { mutate } = useSWRConfig();
  return async (photos: SaveOrderAddOnsInput['photos']) => {
    const view = await apiPut<OrderAddOnsView>(orderAddOnsUrl(orderId), { photos });
    await mutate([orderAddOnsUrl(orderId), user?.uid], view, { revalidate: false });
    return view;
  };
}
