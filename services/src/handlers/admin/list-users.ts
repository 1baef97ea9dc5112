import { adminUsersQuery } from '@marketplace/events/admin';
import { listUsers } from '../../data/admin-users';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/** One page of accounts, newest first, filtered; deleted ones with ?includeInactive=true, invited editors with ?includeInvited=true. */
export const handler = http({ query: adminUsersQuery }, async ({ query }) => ok(await listUsers(query)));
