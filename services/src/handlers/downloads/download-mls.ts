import { mlsZipFilename } from '@marketplace/events/delivery';
import { getOwnOrder } from '../../data/orders';
import { Conflict } from '../../http/errors';
import { http } from '../../http/http';
import { json, ok } from '../../http/responses';
import { orderParams } from '../orders/order-params';
import { lastBuiltZip, zipHandOver } from './order-zip';

/**
 * The photographer's MLS-ready copies as one zip, in listing order: a link when it is ready, else
 * 202 with how far the copies or the zip are. During a revision the last delivery's zip stays
 * downloadable, as the full-resolution one does.
 */
export const handler = http({ params: orderParams }, async ({ params, user }) => {
  const order = await getOwnOrder(params.id, user.userId);
  const filename = mlsZipFilename(order);
  if (order.status === 'revision_requested') {
    const previous = await lastBuiltZip({ orderId: order.orderId, kind: 'mls', filename });
    if (previous) return ok(previous);
  }
  if (order.status !== 'completed') throw new Conflict('Only completed orders can be downloaded');
  const view = await zipHandOver({ order, kind: 'mls', filename });
  return view.status === 'ready' ? ok(view) : json(202, view);
});
