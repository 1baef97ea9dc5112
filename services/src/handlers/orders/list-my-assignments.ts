import { listMyAssignments } from '../../data/editor-orders';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

export const handler = http({}, async ({ user }) => ok(await listMyAssignments(user.userId)));
