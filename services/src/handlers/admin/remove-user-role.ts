import { roleParams } from '@marketplace/events/admin';
import { removeRole, toAdminUserView } from '../../data/admin-users';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/** Takes one role away (409 when they do not hold it, or it is the last active admin's). */
export const handler = http({ params: roleParams }, async ({ params }) =>
  ok({ user: toAdminUserView(await removeRole(params.id, params.role)) }),
);
