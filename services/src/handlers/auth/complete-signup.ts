import { completeSignupInput } from '@marketplace/events/invitations';
import { acceptInvitation } from '../../data/invitations';
import { toMeView } from '../../http/current-user';
import { publicHttp } from '../../http/http';
import { ok } from '../../http/responses';

/** Public: consumes an invitation once for the invitee's new (or existing) Firebase account. */
export const handler = publicHttp({ body: completeSignupInput }, async ({ body }) => {
  const user = await acceptInvitation({
    email: body.email,
    token: body.token,
    uid: body.firebaseUid,
    idToken: body.idToken,
  });
  return ok({ user: toMeView(user) });
});
