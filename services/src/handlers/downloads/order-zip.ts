import type { MlsCopiesRequest, ZipBuildMessage } from '@marketplace/events/order-events';
import type { CompletedDownloadView } from '@marketplace/events/orders';
import { publish } from '../../adapters/queue-publisher';
import { photosBucket, s3 } from '../../adapters/s3-requests';
import { zipDownloadUrl } from '../../adapters/zip-downloads';
import {
  COPIES_STALL_MS,
  claimCopiesRequest,
  type DownloadKind,
  getDownload,
  isBuildInProgress,
  isReadyFor,
  shouldRequestBuild,
} from '../../data/downloads';
import type { OrderRecord } from '../../data/orders';
import { latest, type ZipSources, zipSources } from '../../data/zip-sources';

/**
 * Copies the rendition worker is not making (an order completed before copies were made, or a
 * worker that gave up): nothing has moved since the order completed, its size was chosen or a copy
 * was made, for `COPIES_STALL_MS`. One download asks for them, once in that time.
 */
const askForStalledCopies = async (
  order: Pick<OrderRecord, 'orderId' | 'completedAt'>,
  sources: ZipSources,
  now = Date.now(),
) => {
  const lastMoved = latest([sources.lastProgressAt, order.completedAt]);
  if (lastMoved && Date.parse(lastMoved) > now - COPIES_STALL_MS) return;
  if (!(await claimCopiesRequest(order.orderId, now))) return;
  const request: MlsCopiesRequest = {
    request: 'mls-copies',
    orderId: order.orderId,
    requestedAt: new Date(now).toISOString(),
  };
  await publish('renditions', [request]);
};

/**
 * One of an order's zips as a download: a short-lived link when the zip of the order's current
 * entries is ready, else the build's progress (asking the zip worker for it unless a build of
 * those entries is alive or failed a moment ago, so polling never floods the queue). While MLS-ready
 * copies are still being made, the progress is theirs: the rendition worker asks for the zip itself
 * once the last one is made.
 */
export const zipHandOver = async ({
  order,
  kind,
  filename,
}: {
  order: Pick<OrderRecord, 'orderId' | 'name' | 'orderNumber' | 'completedAt'>;
  kind: DownloadKind;
  filename: string;
}): Promise<CompletedDownloadView> => {
  const { orderId } = order;
  const [sources, download] = await Promise.all([zipSources(order, kind), getDownload(orderId, kind)]);
  const { fingerprint, entries, pending, total } = sources;
  if (pending > 0) {
    await askForStalledCopies(order, sources);
    return { status: 'building', filesDone: total - pending, fileCount: total };
  }
  if (isReadyFor(download, fingerprint)) {
    const url = await zipDownloadUrl(s3(), { bucket: photosBucket(), key: download.zipKey, filename });
    return {
      status: 'ready',
      url,
      filename,
      sizeBytes: download.sizeBytes ?? 0,
      fileCount: download.fileCount ?? entries.length,
    };
  }
  if (shouldRequestBuild(download, fingerprint)) {
    const request: ZipBuildMessage = { orderId, kind, requestedAt: new Date().toISOString() };
    await publish('zip-builds', [request]);
  }
  return {
    status: 'building',
    filesDone: isBuildInProgress(download, fingerprint) ? (download?.filesDone ?? 0) : 0,
    fileCount: entries.length,
  };
};

/**
 * The zip as it was last built, whatever files it was built from: while a completed order is back
 * with its editor for a revision, the photographer keeps the delivery they already had. Null when
 * no zip is ready.
 */
export const lastBuiltZip = async ({
  orderId,
  kind,
  filename,
}: {
  orderId: string;
  kind: DownloadKind;
  filename: string;
}): Promise<CompletedDownloadView | null> => {
  const download = await getDownload(orderId, kind);
  if (download?.status !== 'ready' || !download.zipKey) return null;
  const url = await zipDownloadUrl(s3(), { bucket: photosBucket(), key: download.zipKey, filename });
  return { status: 'ready', url, filename, sizeBytes: download.sizeBytes ?? 0, fileCount: download.fileCount ?? 0 };
};
