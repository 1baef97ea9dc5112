import { roleParams } from '@marketplace/events/admin';
import * as z from '@marketplace/events/zod';
import { reactivateUser, toAdminUserView } from '../../data/admin-users';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

const userParams = z.pick(roleParams, { id: true });

/** Restores a deleted or suspended account: verified and listed at once, able to sign in once the identity worker has applied it. */
export const handler = http({ params: userParams }, async ({ params, user }) =>
  ok({ user: toAdminUserView(await reactivateUser(params.id, user.userId)) }),
);
