import { rateOrderInput } from '@marketplace/events/orders';
import { getOwnOrder, rateOrder, toDetailView } from '../../data/orders';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { orderParams } from './order-params';

/** The photographer rates the editor once, 1 to 10, on a completed order (a conditional write). */
export const handler = http({ params: orderParams, body: rateOrderInput }, async ({ params, body, user }) => {
  const order = await getOwnOrder(params.id, user.userId);
  return ok(toDetailView(await rateOrder({ order, rating: body.rating })));
});
