import { mutedOf } from '../../data/email-preferences';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { settingsView } from './settings-view';

/** GET /api/account/notifications: the caller's email switches, from their own record. */
export const handler = http({}, async ({ user }) => ok(settingsView(user.roles, mutedOf(user))));
