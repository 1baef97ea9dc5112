import { originalsZipFilename } from '@marketplace/events/editor-orders';
import { recordZipHandedOver } from '../../data/downloads';
import { getClaimedOrder } from '../../data/orders';
import { Conflict } from '../../http/errors';
import { http } from '../../http/http';
import { json, ok } from '../../http/responses';
import { orderParams } from '../orders/order-params';
import { zipHandOver } from './order-zip';

/**
 * The originals as one zip, for the claiming editor: prebuilt when the order was paid, so usually
 * a link at once (else 202 with the build's progress). Each link handed over is logged.
 */
export const handler = http({ params: orderParams }, async ({ params, user }) => {
  const order = await getClaimedOrder(params.id, user);
  if (order.status !== 'in_progress' && order.status !== 'completed' && order.status !== 'revision_requested') {
    throw new Conflict('The originals can be downloaded once the order is claimed');
  }
  const view = await zipHandOver({ order, kind: 'originals', filename: originalsZipFilename(order) });
  if (view.status !== 'ready') return json(202, view);
  await recordZipHandedOver({
    orderId: order.orderId,
    kind: 'originals',
    actorId: user.userId,
    fileCount: view.fileCount,
    sizeBytes: view.sizeBytes,
  });
  return ok(view);
});
