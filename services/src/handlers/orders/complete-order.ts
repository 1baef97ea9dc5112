import { completeOrderInput } from '@marketplace/events/editor-orders';
import { completeOrder, getClaimedOrder, toDetailView } from '../../data/orders';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { orderParams } from './order-params';

/** The claiming editor marks the order complete, once, with at least one edited file delivered. */
export const handler = http({ params: orderParams, body: completeOrderInput }, async ({ params, body, user }) => {
  const order = await getClaimedOrder(params.id, user);
  const completed = await completeOrder({
    orderId: order.orderId,
    editorId: user.userId,
    ...(body.editorNotes ? { editorNotes: body.editorNotes } : {}),
  });
  return ok(toDetailView(completed));
});
