import { setMarkDoneInput } from '@marketplace/events/marks';
import { setMarkDone } from '../../data/marks';
import { getOrder } from '../../data/orders';
import { NotFound } from '../../http/errors';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { orderParams } from './order-params';

/** The order's editor ticks a mark done (or not) while editing; anyone else is told the order does not exist. */
export const handler = http({ params: orderParams, body: setMarkDoneInput }, async ({ params, body, user }) => {
  const order = await getOrder(params.id);
  if (!order || order.editorId !== user.userId) throw new NotFound('Order not found');
  return ok(await setMarkDone({ order, editorId: user.userId, ...body }));
});
