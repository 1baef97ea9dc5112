import { bankPayoutsQuery } from '@marketplace/events/payouts';
import { listBankPayouts } from '../../data/bank-payouts';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/** The payouts Stripe made to the editor's bank, newest first, each with the orders it paid. */
export const handler = http({ query: bankPayoutsQuery }, async ({ query, user }) =>
  ok(await listBankPayouts(user.userId, query)),
);
