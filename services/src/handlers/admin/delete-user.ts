import { roleParams } from '@marketplace/events/admin';
import * as z from '@marketplace/events/zod';
import { deleteUser, toAdminUserView } from '../../data/admin-users';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

const userParams = z.pick(roleParams, { id: true });

/** Soft-deletes an account (orders and history stay); an invited editor's invitation is cancelled. */
export const handler = http({ params: userParams }, async ({ params, user }) =>
  ok({ user: toAdminUserView(await deleteUser({ userId: params.id, actorId: user.userId })) }),
);
