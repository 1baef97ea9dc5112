import { photographerStats } from '../../data/orders';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/** Dashboard figures from the photographer's counters, never from reading every order. */
export const handler = http({}, async ({ user }) => ok(await photographerStats(user.userId)));
