import type {
  BankPayoutsPage,
  EarningsPage,
  PayoutAccountLinkView,
  PayoutAccountView,
  payoutReturnPages,
} from '@marketplace/events/payouts';
import useSWR, { useSWRConfig } from 'swr';
import useSWRInfinite from 'swr/infinite';
import { apiGet, apiPost } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';

export const PAYOUT_ACCOUNT_URL = '/api/payout-account';
export const EARNINGS_URL = '/api/earnings';
export const BANK_PAYOUTS_URL = '/api/payouts';
/** The lists' page size on /profile. */
export const PAYOUTS_PAGE_SIZE = 10;

type ReturnPage = (typeof payoutReturnPages)[number];

/**
 * The browser leaves for Stripe's hosted onboarding; Stripe sends it back to the page it came
 * from. A module object, so tests can watch it.
 */
export const stripeOnboarding = {
  leaveFor: (url: string) => window.location.assign(url),
};

/** The editor's payout account, as the server last read it from Stripe. */
export function usePayoutAccount() {
  const { user } = useAuth();
  return useSWR<PayoutAccountView>(user ? [PAYOUT_ACCOUNT_URL, user.uid] : null);
}

export function usePayoutAccountActions() {
  const { user } = useAuth();
  const { mutate } = useSWRConfig();
  const keep = (view: PayoutAccountView) => mutate([PAYOUT_ACCOUNT_URL, user?.uid], view, { revalidate: false });
  return {
    /** 'Set up payouts' (and 'Continue setup'): the account made once, then off to Stripe's onboarding. */
    startOnboarding: async (returnTo: ReturnPage) => {
      const { url, account } = await apiPost<PayoutAccountLinkView>(`${PAYOUT_ACCOUNT_URL}/link`, { returnTo });
      await keep(account);
      stripeOnboarding.leaveFor(url);
    },
    /** Back from onboarding: the server reads the account at Stripe; its answer is the status shown. */
    refreshAfterOnboarding: async () =>
      keep(await apiPost<PayoutAccountView>(`${PAYOUT_ACCOUNT_URL}/refresh`, { returnedFrom: 'onboarding' })),
  };
}

/** A list of the editor's, newest first, a page at a time by the server's cursor ('Show more'). */
function usePagedList<T extends { nextCursor: string | null }>(url: string) {
  const { user } = useAuth();
  return useSWRInfinite<T>(
    (index, previous: T | null) => {
      if (!user || (previous && !previous.nextCursor)) return null;
      const query = new URLSearchParams({ limit: String(PAYOUTS_PAGE_SIZE) });
      if (previous?.nextCursor) query.set('cursor', previous.nextCursor);
      return [`${url}?${query}`, user.uid, index];
    },
    ([key]: [string]) => apiGet<T>(key),
    { revalidateFirstPage: false },
  );
}

export const useEarnings = () => usePagedList<EarningsPage>(EARNINGS_URL);
export const useBankPayouts = () => usePagedList<BankPayoutsPage>(BANK_PAYOUTS_URL);
