import { earningsQuery } from '@marketplace/events/payouts';
import { listEarnings } from '../../data/earnings';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/** The editor's own earnings, newest first, a page at a time: each order's, held, due, sent or paid out. */
export const handler = http({ query: earningsQuery }, async ({ query, user }) =>
  ok(await listEarnings(user.userId, query)),
);
