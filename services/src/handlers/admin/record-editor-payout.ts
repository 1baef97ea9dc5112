import { recordPayoutInput, roleParams } from '@marketplace/events/admin';
import * as z from '@marketplace/events/zod';
import { recordEditorPayout } from '../../data/payouts';
import { getUser } from '../../data/users';
import { NotFound } from '../../http/errors';
import { http } from '../../http/http';
import { created, ok } from '../../http/responses';

const params = z.pick(roleParams, { id: true });

/** Pays an editor from what is pending: 201 when booked, 200 with the payout already booked under this id. */
export const handler = http({ params, body: recordPayoutInput }, async ({ params, body, user }) => {
  if (!(await getUser(params.id))) throw new NotFound('Editor not found');
  const { payout, recorded } = await recordEditorPayout({
    editorId: params.id,
    ...body,
    recordedBy: user.displayName ?? user.email,
  });
  return recorded ? created(payout) : ok(payout);
});
