import { type OrderEventType, type ZipBuildMessage, zipBuildMessage } from '@marketplace/events/order-events';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { announce } from '../adapters/live-updates';
import { logger } from '../adapters/logger';
import { recordMetrics } from '../adapters/metrics';
import { photosBucket, s3 } from '../adapters/s3';
import { writeZipToS3 } from '../adapters/zip-archive';
import {
  claimBuild,
  type DownloadKind,
  getDownload,
  isReadyFor,
  markDownloadFailed,
  markDownloadReady,
  recordBuildProgress,
  zipKeyFor,
} from '../data/downloads';
import { getOrder } from '../data/orders';
import { zipSources } from '../data/zip-sources';
import { orderEventFromStreamRecord } from './outbox-message';

/**
 * Builds an order's zip: the originals on payment and the edited files on completion (the
 * outbox's order_paid and order_completed records, carried by the order-zips pipe) so each zip is
 * ready before anyone asks, and on request (a zipBuildMessage from a download route, or from the
 * rendition worker once an order's MLS-ready set is complete). What a zip holds, in which order
 * and under which names, is data/zip-sources.ts. Redelivered or duplicate requests build nothing:
 * a zip that is ready for the same entries is kept, and a live build of the same entries is left
 * to finish.
 */
type ZipRequest = Pick<ZipBuildMessage, 'orderId' | 'kind'>;

/** Which zip an outbox event makes ready: the originals once paid for, the edits once delivered. */
const zipKindOnEvent: Partial<Record<OrderEventType, DownloadKind>> = {
  order_paid: 'originals',
  order_completed: 'edited',
};

export const zipRequestFrom = (body: string): ZipRequest | null => {
  try {
    const request = zipBuildMessage.safeParse(JSON.parse(body));
    if (request.success) return request.data;
    const event = orderEventFromStreamRecord(body);
    const kind = event ? zipKindOnEvent[event.eventType] : undefined;
    return event && kind ? { orderId: event.orderId, kind } : null;
  } catch {
    return null;
  }
};

/** Progress goes to the table every few files, or sooner when files are large and slow. */
const PROGRESS_EVERY_FILES = 5;
const PROGRESS_EVERY_MS = 3000;

export const buildZip = async ({ orderId, kind }: ZipRequest) => {
  const order = await getOrder(orderId);
  if (!order) return 'no-such-order' as const;
  // Edited files (and so their MLS-ready copies) may still change until the editor completes the order.
  if (kind !== 'originals' && order.status !== 'completed') return 'not-completed' as const;

  const { entries, pending, fingerprint } = await zipSources(order, kind);
  // The rendition worker asks again once the last copy is made.
  if (pending > 0) return 'copies-pending' as const;
  if (isReadyFor(await getDownload(orderId, kind), fingerprint)) return 'already-built' as const;
  if (!(await claimBuild({ orderId, kind, fingerprint, fileCount: entries.length }))) {
    return 'being-built' as const;
  }

  const startedAt = Date.now();
  const record = { orderId, kind };
  const zipKey = zipKeyFor(orderId, kind, fingerprint);
  const progress = progressWriter(record, fingerprint);
  try {
    const { sizeBytes } = await writeZipToS3({
      client: s3(),
      bucket: photosBucket(),
      key: zipKey,
      sources: entries,
      onSourceDone: progress.report,
    });
    await progress.settled();
    // Only now that the object exists is the record ready, so a link is never given to half a zip.
    await markDownloadReady(record, fingerprint, { zipKey, sizeBytes, fileCount: entries.length });
    recordMetrics({ ZipBuildSeconds: (Date.now() - startedAt) / 1000 });
    return 'built' as const;
  } catch (error) {
    await progress.settled();
    await markDownloadFailed(record, fingerprint, (error as Error)?.message ?? String(error));
    throw error;
  }
};

/** Writes progress one write at a time, throttled; a failed progress write never fails the build. */
const progressWriter = (record: { orderId: string; kind: DownloadKind }, fingerprint: string) => {
  let chain: Promise<unknown> = Promise.resolve();
  let lastWritten = 0;
  let lastWrittenAt = Date.now();
  return {
    report: (filesDone: number) => {
      if (filesDone - lastWritten < PROGRESS_EVERY_FILES && Date.now() - lastWrittenAt < PROGRESS_EVERY_MS) return;
      lastWritten = filesDone;
      lastWrittenAt = Date.now();
      chain = chain
        .then(() => recordBuildProgress(record, fingerprint, filesDone))
        .catch((error) => logger.warn('zip progress not recorded', { ...record, error: error as Error }));
    },
    settled: () => chain,
  };
};

export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    try {
      const request = zipRequestFrom(record.body);
      if (!request) {
        // A message that is neither kind of request will never succeed: log it rather than retry it.
        logger.error('dropping a message that is not a zip request', { messageId: record.messageId });
        continue;
      }
      const outcome = await buildZip(request);
      // Told again when already built: the delivery that built it may have failed to tell.
      if (outcome === 'built' || outcome === 'already-built') {
        await announce({ type: 'zip.ready', orderId: request.orderId, kind: request.kind });
      }
      logger.info('zip request handled', { ...request, outcome, messageId: record.messageId });
    } catch (error) {
      logger.error('zip not built', { messageId: record.messageId, error: error as Error });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
};
