import { roleInput, roleParams } from '@marketplace/events/admin';
import * as z from '@marketplace/events/zod';
import { setOnlyRole, toAdminUserView } from '../../data/admin-users';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

const userParams = z.pick(roleParams, { id: true });

/** Makes one role the user's only role. */
export const handler = http({ params: userParams, body: roleInput }, async ({ params, body }) =>
  ok({ user: toAdminUserView(await setOnlyRole(params.id, body.role)) }),
);
