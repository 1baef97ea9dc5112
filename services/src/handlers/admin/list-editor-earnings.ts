import { roleParams } from '@marketplace/events/admin';
import { earningsQuery } from '@marketplace/events/payouts';
import * as z from '@marketplace/events/zod';
import { listEarnings } from '../../data/earnings';
import { getUser } from '../../data/users';
import { NotFound } from '../../http/errors';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

const params = z.pick(roleParams, { id: true });

/** An editor's earnings and their transfers, newest first, for Editor Management (refused ones with Stripe's reason). */
export const handler = http({ params, query: earningsQuery }, async ({ params, query }) => {
  if (!(await getUser(params.id))) throw new NotFound('Editor not found');
  return ok(await listEarnings(params.id, query));
});
