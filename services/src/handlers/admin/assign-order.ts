import { assignOrderInput } from '@marketplace/events/admin';
import { assignOrder } from '../../data/admin-assignment';
import { toAdminOrderView } from '../../data/admin-order-view';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { orderParams } from '../orders/order-params';

/** Offers a paid order to one verified editor only; 409 once an editor has started it. */
export const handler = http({ params: orderParams, body: assignOrderInput }, async ({ params, body, user }) =>
  ok(toAdminOrderView(await assignOrder({ orderId: params.id, editorId: body.editorId, adminId: user.userId }))),
);
