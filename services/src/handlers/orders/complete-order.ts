import { completeOrderInput } from '@marketplace/events/editor-orders';
import { completeOrder, getClaimedOrder } from '../../data/orders';
import { detailViewFor } from '../../data/revisions';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { orderParams } from './order-params';

/**
 * The claiming editor marks the order complete, once, with at least one edited file delivered; or
 * re-delivers a revision round, with at least one edited file registered since the request.
 */
export const handler = http({ params: orderParams, body: completeOrderInput }, async ({ params, body, user }) => {
  const order = await getClaimedOrder(params.id, user);
  const completed = await completeOrder({
    orderId: order.orderId,
    editorId: user.userId,
    ...(body.editorNotes ? { editorNotes: body.editorNotes } : {}),
  });
  return ok(await detailViewFor(completed, user));
});
