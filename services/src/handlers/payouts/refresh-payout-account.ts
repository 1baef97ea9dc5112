import { payoutAccountRefreshInput } from '@marketplace/events/payouts';
import { refreshPayoutAccount } from '../../data/payout-accounts';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/** Back from onboarding: the server reads the account from Stripe and keeps what Stripe says of it. */
export const handler = http({ body: payoutAccountRefreshInput }, async ({ user }) =>
  ok(await refreshPayoutAccount(user.userId)),
);
