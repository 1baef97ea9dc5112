import { type MlsLongEdge, setMlsSizeInput } from '@marketplace/events/delivery';
import { setMlsLongEdge } from '../../data/delivery';
import { getOwnOrder } from '../../data/orders';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { orderParams } from './order-params';

/** The photographer picks the long edge of the order's MLS-ready copies; the rendition worker makes them. */
export const handler = http({ params: orderParams, body: setMlsSizeInput }, async ({ params, body, user }) => {
  const order = await getOwnOrder(params.id, user.userId);
  const longEdge = body.longEdge as MlsLongEdge;
  await setMlsLongEdge({ order, userId: user.userId, longEdge });
  return ok({ mlsLongEdge: longEdge });
});
