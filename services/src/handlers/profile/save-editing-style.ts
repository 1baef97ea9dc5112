import { editingStyleInput } from '@marketplace/events/editing-style';
import { editingStyleView, saveEditingStyle } from '../../data/editing-style';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/**
 * Saves the photographer's editing style whole. The schema refuses more than five reference
 * photos; each new one must have arrived in S3 under the photographer's own style folder.
 */
export const handler = http({ body: editingStyleInput }, async ({ body, user }) =>
  ok(await editingStyleView(await saveEditingStyle(user.userId, body))),
);
