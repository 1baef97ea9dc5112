import { roleInput, roleParams } from '@marketplace/events/admin';
import { setOnlyRole, toAdminUserView } from '../../data/admin-users';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

const userParams = roleParams.pick({ id: true });

/** Makes one role the user's only role. */
export const handler = http({ params: userParams, body: roleInput }, async ({ params, body }) =>
  ok({ user: toAdminUserView(await setOnlyRole(params.id, body.role)) }),
);
