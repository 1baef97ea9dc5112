import type { ZipBuildMessage } from '@marketplace/events/order-events';
import { type CompletedDownloadView, editedZipFilename } from '@marketplace/events/orders';
import { publish } from '../../adapters/queue-publisher';
import { photosBucket, s3 } from '../../adapters/s3';
import { zipDownloadUrl } from '../../adapters/zip-archive';
import {
  getDownload,
  isBuildInProgress,
  isReadyFor,
  shouldRequestBuild,
  sourceFingerprint,
} from '../../data/downloads';
import { getOwnOrder, listImages } from '../../data/orders';
import { Conflict } from '../../http/errors';
import { http } from '../../http/http';
import { json, ok } from '../../http/responses';
import { orderParams } from '../orders/order-params';

/**
 * The photographer's edited photos as one zip: a short-lived link when the zip for the order's
 * current files is ready, else 202 with the build's progress (asking the zip worker for it
 * unless a build of those files is alive or failed a moment ago, so polling never floods the queue).
 */
export const handler = http({ params: orderParams }, async ({ params, user }) => {
  const order = await getOwnOrder(params.id, user.userId);
  if (order.status !== 'completed') throw new Conflict('Only completed orders can be downloaded');

  const [images, download] = await Promise.all([
    listImages(order.orderId, 'edited'),
    getDownload(order.orderId, 'edited'),
  ]);
  const fingerprint = sourceFingerprint(images);
  if (isReadyFor(download, fingerprint)) {
    const filename = editedZipFilename(order);
    const url = await zipDownloadUrl(s3(), { bucket: photosBucket(), key: download.zipKey, filename });
    const view: CompletedDownloadView = {
      status: 'ready',
      url,
      filename,
      sizeBytes: download.sizeBytes ?? 0,
      fileCount: download.fileCount ?? images.length,
    };
    return ok(view);
  }

  if (shouldRequestBuild(download, fingerprint)) {
    const request: ZipBuildMessage = { orderId: order.orderId, kind: 'edited', requestedAt: new Date().toISOString() };
    await publish('zip-builds', [request]);
  }
  const view: CompletedDownloadView = {
    status: 'building',
    filesDone: isBuildInProgress(download, fingerprint) ? (download?.filesDone ?? 0) : 0,
    fileCount: images.length,
  };
  return json(202, view);
});
