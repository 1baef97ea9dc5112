import { toMeView } from '../../http/current-user';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

export const handler = http({}, async ({ user }) => ok(toMeView(user)));
