import { requestRevisionInput } from '@marketplace/events/orders';
import { getOwnOrder } from '../../data/orders';
import { detailViewFor, requestRevision } from '../../data/revisions';
import { http } from '../../http/http';
import { created } from '../../http/responses';
import { orderParams } from './order-params';

/** The photographer sends a completed order back to its editor with notes (a revision round). */
export const handler = http({ params: orderParams, body: requestRevisionInput }, async ({ params, body, user }) => {
  const order = await getOwnOrder(params.id, user.userId);
  const updated = await requestRevision({ order, input: body });
  return created(await detailViewFor(updated, user));
});
