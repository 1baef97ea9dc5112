import { adminUsersQuery } from '@marketplace/events/admin';
import { listUsers } from '../../data/admin-users';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/** Every account, newest first; deleted ones with ?includeInactive=true. */
export const handler = http({ query: adminUsersQuery }, async ({ query }) =>
  ok({ users: await listUsers({ includeInactive: query.includeInactive }) }),
);
