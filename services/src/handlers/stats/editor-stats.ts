import { editorStats } from '../../data/editor-orders';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/** Dashboard figures from the editor's counters, never from reading every order. */
export const handler = http({}, async ({ user }) => ok(await editorStats(user.userId)));
