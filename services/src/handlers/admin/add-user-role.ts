import { roleInput, roleParams } from '@marketplace/events/admin';
import * as z from '@marketplace/events/zod';
import { addRole, toAdminUserView } from '../../data/admin-users';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

const userParams = z.pick(roleParams, { id: true });

/** Gives the user one more role (409 when they hold it already). */
export const handler = http({ params: userParams, body: roleInput }, async ({ params, body }) =>
  ok({ user: toAdminUserView(await addRole(params.id, body.role)) }),
);
