import { bulkAssignInput } from '@marketplace/events/admin';
import { bulkAssignOrders } from '../../data/admin-assignment';
import { http } from '../../http/http';
import { ok } from '../../http/responses';

/** Assigns each order on its own; 200 with what was and was not assigned, 400 for a bad editor. */
export const handler = http({ body: bulkAssignInput }, async ({ body, user }) =>
  ok(await bulkAssignOrders({ ...body, adminId: user.userId })),
);
