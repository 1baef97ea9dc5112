import { unassignOrder } from '../../data/admin-assignment';
import { toAdminOrderView } from '../../data/admin-order-view';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { orderParams } from '../orders/order-params';

/** Gives an assigned, unstarted order back to every editor. */
export const handler = http({ params: orderParams }, async ({ params, user }) =>
  ok(toAdminOrderView(await unassignOrder({ orderId: params.id, adminId: user.userId }))),
);
