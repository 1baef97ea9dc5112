import { roleParams } from '@marketplace/events/admin';
import { reactivateUser, toAdminUserView } from '../../data/admin-users';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

const userParams = roleParams.pick({ id: true });

/** Restores a deleted or suspended account: verified, listed and able to sign in again. */
export const handler = http({ params: userParams }, async ({ params }) =>
  ok({ user: toAdminUserView(await reactivateUser(params.id)) }),
);
