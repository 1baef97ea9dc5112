import { editorPayoutsQuery, roleParams } from '@marketplace/events/admin';
import * as z from '@marketplace/events/zod';
import { listEditorPayouts } from '../../data/payouts';
import { getUser } from '../../data/users';
import { NotFound } from '../../http/errors';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

const params = z.pick(roleParams, { id: true });

/** An editor's payouts, newest first, a page at a time, with what is pending and what has been paid. */
export const handler = http({ params, query: editorPayoutsQuery }, async ({ params, query }) => {
  if (!(await getUser(params.id))) throw new NotFound('Editor not found');
  return ok(await listEditorPayouts(params.id, query));
});
