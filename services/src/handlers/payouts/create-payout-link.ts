import { payoutAccountLinkInput } from '@marketplace/events/payouts';
import { startPayoutOnboarding } from '../../data/payout-accounts';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/**
 * 'Set up payouts', and the fresh link an expired one asks for: the editor's connected account
 * (made once) and a one-time link into Stripe's hosted onboarding.
 */
export const handler = http({ body: payoutAccountLinkInput }, async ({ body, user }) =>
  ok(await startPayoutOnboarding(user, body.returnTo)),
);
