import { editedZipFilename } from '@marketplace/events/orders';
import { getOwnOrder } from '../../data/orders';
import { Conflict } from '../../http/errors';
import { http } from '../../http/http';
import { json, ok } from '../../http/responses';
import { orderParams } from '../orders/order-params';
import { zipHandOver } from './order-zip';

/** The photographer's edited photos as one zip: a link when it is ready, else 202 with the build's progress. */
export const handler = http({ params: orderParams }, async ({ params, user }) => {
  const order = await getOwnOrder(params.id, user.userId);
  if (order.status !== 'completed') throw new Conflict('Only completed orders can be downloaded');
  const view = await zipHandOver({ orderId: order.orderId, kind: 'edited', filename: editedZipFilename(order) });
  return view.status === 'ready' ? ok(view) : json(202, view);
});
