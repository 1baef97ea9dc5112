import { editedZipFilename } from '@marketplace/events/orders';
import { getOwnOrder } from '../../data/orders';
import { Conflict } from '../../http/errors';
import { http } from '../../http/http';
import { json, ok } from '../../http/responses';
import { orderParams } from '../orders/order-params';
import { lastBuiltZip, zipHandOver } from './order-zip';

/**
 * The photographer's edited photos as one zip: a link when it is ready, else 202 with the build's
 * progress. During a revision the last delivery's zip stays downloadable (the edits in progress
 * join it when the editor re-delivers).
 */
export const handler = http({ params: orderParams }, async ({ params, user }) => {
  const order = await getOwnOrder(params.id, user.userId);
  const filename = editedZipFilename(order);
  if (order.status === 'revision_requested') {
    const previous = await lastBuiltZip({ orderId: order.orderId, kind: 'edited', filename });
    if (previous) return ok(previous);
  }
  if (order.status !== 'completed') throw new Conflict('Only completed orders can be downloaded');
  const view = await zipHandOver({ order, kind: 'edited', filename });
  return view.status === 'ready' ? ok(view) : json(202, view);
});
