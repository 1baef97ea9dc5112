import { listInvitedUsers } from '../../data/admin-users';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/** Editors invited and not signed up yet, by their placeholder id. */
export const handler = http({}, async () => ok({ users: await listInvitedUsers() }));
