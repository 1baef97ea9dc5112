import { payoutAccountOf } from '../../data/payout-accounts';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/** The editor's payout account as Stripe last described it (not set up, what is still due, enabled). */
export const handler = http({}, async ({ user }) => ok(await payoutAccountOf(user.userId)));
