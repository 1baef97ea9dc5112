import { deleteAccountInput } from '@marketplace/events/account-data';
import { deleteOwnAccount } from '../../data/account-deletion';
import { requestOrigin } from '../../data/security-activity';
import { http } from '../../http/http';
import { requireRecentSignIn } from '../../http/recent-sign-in';
import { ok } from '../../http/responses';

/**
 * 'Delete my account': the typed confirmation (the body's schema: exactly 'DELETE') and a sign-in
 * of the last five minutes (the browser asks for the password first), then the soft delete the
 * admin's delete does, with its activity row and the purge after the retention
 * (data/account-deletion.ts). A 409 says which orders must be finished first.
 */
export const handler = http({ body: deleteAccountInput }, async ({ user, event }) => {
  requireRecentSignIn(event);
  return ok(await deleteOwnAccount({ userId: user.userId, origin: requestOrigin(event) }));
});
