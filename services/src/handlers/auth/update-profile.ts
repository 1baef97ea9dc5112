import { updateProfileInput } from '@marketplace/events/users';
import { updateProfile } from '../../data/users';
import { toMeView } from '../../http/current-user';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

export const handler = http({ body: updateProfileInput }, async ({ body, user }) =>
  ok(toMeView(await updateProfile(user.userId, body))),
);
