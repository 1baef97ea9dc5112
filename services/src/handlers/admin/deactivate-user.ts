import { roleParams } from '@marketplace/events/admin';
import * as z from '@marketplace/events/zod';
import { deactivateUser, toAdminUserView } from '../../data/admin-users';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

const userParams = z.pick(roleParams, { id: true });

/** Suspends an account: refused by the API at once, and at sign-in once the identity worker has applied it, until reactivated. */
export const handler = http({ params: userParams }, async ({ params, user }) =>
  ok({ user: toAdminUserView(await deactivateUser({ userId: params.id, actorId: user.userId })) }),
);
