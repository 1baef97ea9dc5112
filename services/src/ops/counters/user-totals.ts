import { marketplace } from '../../data/entities';
import { allUserTotalNames, USER_TOTALS_SCOPE, userTotalNames } from '../../data/user-totals';
import type { UserRecord } from '../../data/users';
import type { CounterFamily, ExpectedCounter } from '../counter-checks';

/**
 * The totals of the admin's user and editor lists (data/user-totals.ts), counted again from the
 * user records: the one partition of the users index, a page at a time. Every record (accounts,
 * invited editors' placeholders, deleted ones) counts in its cells exactly as the writes count it.
 */
const recount = async () => {
  const counts = new Map(allUserTotalNames().map((name) => [name, 0]));
  let cursor: string | null = null;
  do {
    const page: { data: unknown[]; cursor: string | null } = await marketplace()
      .entities.user.query.all({})
      .go({ cursor, limit: 500 });
    for (const user of page.data as UserRecord[]) {
      for (const name of userTotalNames(user)) counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    cursor = page.cursor;
  } while (cursor);
  return [...counts].map(([name, value]): ExpectedCounter => ({ scope: USER_TOTALS_SCOPE, name, value }));
};

export const userTotalCounters: CounterFamily = {
  what: "users: the admin's user and editor list totals by role, kind, standing and status",
  recount,
  scopes: async () => [USER_TOTALS_SCOPE],
  keeps: (scope) => scope === USER_TOTALS_SCOPE,
};
