import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { meView } from './me-view';

export const handler = http({}, async ({ user }) => ok(await meView(user)));
