import { editorRatesInput, roleParams } from '@marketplace/events/admin';
import * as z from '@marketplace/events/zod';
import { getAdminEditor } from '../../data/admin-editors';
import { writeEditorRates } from '../../data/editor-rates';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

const params = z.pick(roleParams, { id: true });

/** Sets the listed rates and keeps the editor's others. */
export const handler = http({ params, body: editorRatesInput }, async ({ params, body }) => {
  await writeEditorRates(params.id, body.jobTypeRates, { replace: false });
  return ok(await getAdminEditor(params.id));
});
