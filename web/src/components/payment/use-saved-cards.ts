import type { PaymentMethodsView } from '@marketplace/events/payments';
import useSWR, { useSWRConfig } from 'swr';
import { apiDelete, apiPut } from '../../lib/api-client';
import { useAuth } from '../../lib/auth-context';

export const PAYMENT_METHODS_URL = '/api/payment-methods';
const cardUrl = (paymentMethodId: string) => `${PAYMENT_METHODS_URL}/${encodeURIComponent(paymentMethodId)}`;

/** The photographer's saved cards, the default first (the payment stage and /profile share one cache entry). */
export function useSavedCards({ enabled = true }: { enabled?: boolean } = {}) {
  const { user } = useAuth();
  return useSWR<PaymentMethodsView>(enabled && user ? [PAYMENT_METHODS_URL, user.uid] : null);
}

/** Make default and remove: each answers the cards as they are now, which becomes the cache. */
export function useSavedCardActions() {
  const { user } = useAuth();
  const { mutate } = useSWRConfig();
  const keep = (view: PaymentMethodsView) => mutate([PAYMENT_METHODS_URL, user?.uid], view, { revalidate: false });
  return {
    makeDefault: async (paymentMethodId: string) =>
      keep(await apiPut<PaymentMethodsView>(`${cardUrl(paymentMethodId)}/default`)),
    remove: async (paymentMethodId: string) => keep(await apiDelete<PaymentMethodsView>(cardUrl(paymentMethodId))),
    /** After a payment that may have saved a card. */
    refresh: () => mutate([PAYMENT_METHODS_URL, user?.uid]),
  };
}
