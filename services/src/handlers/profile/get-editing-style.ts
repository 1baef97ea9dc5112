import { editingStyleView, getSavedEditingStyle } from '../../data/editing-style';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/** The photographer's own saved editing style (the default when none is saved), reference photos presigned. */
export const handler = http({}, async ({ user }) =>
  ok(await editingStyleView(await getSavedEditingStyle(user.userId))),
);
