import { invitedUsersQuery } from '@marketplace/events/admin';
import { listInvitedUsers } from '../../data/admin-users';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/** Editors invited and not signed up yet, by their placeholder id, a page at a time. */
export const handler = http({ query: invitedUsersQuery }, async ({ query }) => ok(await listInvitedUsers(query)));
