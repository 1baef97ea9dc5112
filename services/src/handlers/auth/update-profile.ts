import { profileMessages, updateProfileInput } from '@marketplace/events/users';
import { updateProfile } from '../../data/users';
import { Forbidden } from '../../http/errors';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { meView } from './me-view';

/**
 * Changes the signed-in user's name, phone and (photographers) business name; every field is
 * checked before anything is written (events/users.ts updateProfileInput), and a phone is kept in
 * E.164. Pictures are uploaded through /api/profile/image and /api/profile/logo.
 */
export const handler = http({ body: updateProfileInput }, async ({ body, user }) => {
  if (body.businessName !== undefined && !user.roles.includes('photographer')) {
    throw new Forbidden(profileMessages.businessNameRole);
  }
  return ok(await meView(await updateProfile(user.userId, body)));
});
