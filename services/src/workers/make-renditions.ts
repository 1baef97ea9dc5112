import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand } from '@aws-sdk/client-s3';
import type { MlsLongEdge } from '@marketplace/events/delivery';
import { acceptedArchiveExtensions } from '@marketplace/events/editor-orders';
import { type MlsCopiesRequest, mlsCopiesRequest, type ZipBuildMessage } from '@marketplace/events/order-events';
import { extensionOf } from '@marketplace/events/orders';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { announce } from '../adapters/live-updates';
import { logger } from '../adapters/logger';
import { publish } from '../adapters/queue-publisher';
import { photosBucket, s3 } from '../adapters/s3';
import { getDelivery, mlsLongEdgeOf } from '../data/delivery';
import { getOrder, listImages, type OrderImageRecord } from '../data/orders';
import {
  forgetRendition,
  isCurrentFor,
  isSetComplete,
  listRenditions,
  type RenditionRecord,
  recordReadyCopy,
  recordSkippedFile,
} from '../data/renditions';
import { renderMlsCopy } from '../domain/mls-rendition';
import { workers } from '../workers';
import { orderEventConsumer } from './outbox-message';

/**
 * Makes the MLS-ready copy of each edited photo of a completed order at the order's long edge,
 * on the outbox's order_completed (a delivery or a revision's re-delivery) and mls_size_changed
 * records the event log forwards. Each file has one record per long edge: 'ready' with its copy,
 * or 'skipped' with the reason it is left out. A file whose record is current (same key, same
 * size) is not made again, so a redelivered event makes nothing twice; a file replaced since is.
 * Once every current file has its record, the zip worker is asked for the MLS zip.
 */

/** The copies live beside the originals and edited folders, one folder per long edge. */
export const mlsPrefix = (orderId: string, longEdge: number) => `orders/${orderId}/mls/${longEdge}/`;

/** A copy's key, derived from the edited file's key, so every delivery of the same file writes the same object. */
export const mlsCopyKey = (orderId: string, longEdge: number, editedKey: string) => {
  const orderPrefix = `orders/${orderId}/`;
  const name = editedKey.startsWith(orderPrefix) ? editedKey.slice(orderPrefix.length) : editedKey.replaceAll('/', '_');
  return `${mlsPrefix(orderId, longEdge)}${name}.jpg`;
};

const RAW_EXTENSIONS = new Set(['raw', 'cr2', 'nef', 'arw', 'dng']);
const ARCHIVE_EXTENSIONS = new Set<string>(acceptedArchiveExtensions);

/**
 * Files larger than this are not downloaded (skipped instead): the worker's temporary disk
 * (512 MB in Lambda) holds one file while sharp reads it.
 */
export const MLS_MAX_SOURCE_BYTES = 400 * 1024 * 1024;

/** Reasons a photographer reads beside a file the set leaves out, for files never downloaded. */
export const skipReasonsByFile = {
  raw: 'RAW files are not converted: deliver a JPEG or TIFF of this photo for the MLS-ready set',
  archive: 'An archive holds no single photo to convert; its files are in the full-resolution zip',
  empty: 'This file is empty',
  tooLarge: `This file is larger than ${MLS_MAX_SOURCE_BYTES / 1024 / 1024} MB, too large to convert`,
  missing: 'This file is no longer in storage',
} as const;

/** The reason a file is left out without being read, or null when it is to be read. */
const reasonWithoutReading = (image: OrderImageRecord) => {
  const extension = extensionOf(image.filename);
  if (RAW_EXTENSIONS.has(extension)) return skipReasonsByFile.raw;
  if (ARCHIVE_EXTENSIONS.has(extension)) return skipReasonsByFile.archive;
  if (image.size === 0) return skipReasonsByFile.empty;
  if (image.size > MLS_MAX_SOURCE_BYTES) return skipReasonsByFile.tooLarge;
  return null;
};

/**
 * A receive stops taking new files this long before the function's time is up and hands the
 * message back, so a very large order goes on from its records at the next receive.
 */
const definition = workers.find((worker) => worker.queue === 'renditions');
const WORK_BUDGET_MS = ((definition?.timeoutSeconds ?? 900) - 120) * 1000;

class OutOfTime extends Error {
  constructor(made: number, left: number) {
    super(`stopped after ${made} copies with ${left} to make; the next receive goes on from there`);
    this.name = 'OutOfTime';
  }
}

/** Reads the edited file to a temporary file and makes its copy from there, never holding the file whole. */
const renderFromStorage = async (key: string, longEdge: MlsLongEdge) => {
  const object = await s3().send(new GetObjectCommand({ Bucket: photosBucket(), Key: key }));
  const dir = await mkdtemp(join(tmpdir(), 'mls-'));
  try {
    const file = join(dir, 'source');
    await pipeline(object.Body as Readable, createWriteStream(file));
    return await renderMlsCopy(file, { longEdge });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

type CopyOutcome = 'ready' | 'skipped';

const makeCopy = async (orderId: string, longEdge: MlsLongEdge, image: OrderImageRecord): Promise<CopyOutcome> => {
  const file = { orderId, longEdge, editedKey: image.key, sourceSize: image.size };
  const skip = async (reason: string) => {
    await recordSkippedFile({ ...file, reason });
    logger.info('file left out of the MLS-ready set', { ...file, reason });
    return 'skipped' as const;
  };

  const unread = reasonWithoutReading(image);
  if (unread) return skip(unread);
  let rendition: Awaited<ReturnType<typeof renderMlsCopy>>;
  try {
    rendition = await renderFromStorage(image.key, longEdge);
  } catch (error) {
    // The image is recorded only once its upload has finished and S3 reads after writes, so a
    // missing object was deleted since: a retry would fail the same way until the dead-letter queue.
    if (error instanceof NoSuchKey) return skip(skipReasonsByFile.missing);
    throw error;
  }
  if (!rendition.readable) return skip(rendition.reason);

  const { copy } = rendition;
  const renditionKey = mlsCopyKey(orderId, longEdge, image.key);
  await s3().send(
    new PutObjectCommand({ Bucket: photosBucket(), Key: renditionKey, Body: copy.data, ContentType: 'image/jpeg' }),
  );
  // Only now that the object exists is the copy recorded, so the MLS zip never lists a missing file.
  await recordReadyCopy({
    ...file,
    renditionKey,
    width: copy.width,
    height: copy.height,
    bytes: copy.bytes,
    quality: copy.quality,
  });
  return 'ready';
};

/**
 * A file replaced in a revision leaves the delivery; its copy at this long edge goes with it (the
 * object, then its record), so storage holds only what an MLS zip can list. Copies at other long
 * edges go the same way when that edge is chosen again.
 */
const removeCopiesOfReplacedFiles = async (
  images: readonly OrderImageRecord[],
  records: readonly RenditionRecord[],
) => {
  const delivered = new Set(images.map((image) => image.key));
  for (const record of records.filter((r) => !delivered.has(r.editedKey))) {
    if (record.renditionKey) {
      await s3().send(new DeleteObjectCommand({ Bucket: photosBucket(), Key: record.renditionKey }));
    }
    await forgetRendition(record);
    logger.info('copy of a replaced file removed', { orderId: record.orderId, editedKey: record.editedKey });
  }
};

/** Asks the zip worker for the MLS zip; it builds nothing when a zip of the same copies is ready. */
const requestMlsZip = (orderId: string) =>
  publish('zip-builds', [{ orderId, kind: 'mls', requestedAt: new Date().toISOString() } satisfies ZipBuildMessage]);

export const makeRenditions = async (orderId: string, startedAt = Date.now()) => {
  const order = await getOrder(orderId);
  if (!order) return { outcome: 'no-such-order' as const };
  // Edited files may still change until the order is completed (again, after a revision).
  if (order.status !== 'completed') return { outcome: 'not-completed' as const };

  const longEdge = mlsLongEdgeOf(await getDelivery(orderId));
  const [images, records] = await Promise.all([listImages(orderId, 'edited'), listRenditions(orderId, longEdge)]);
  const byKey = new Map(records.map((record) => [record.editedKey, record]));
  const toMake = images.filter((image) => !isCurrentFor(byKey.get(image.key), image));

  const made: Record<CopyOutcome, number> = { ready: 0, skipped: 0 };
  await removeCopiesOfReplacedFiles(images, records);
  for (const [index, image] of toMake.entries()) {
    if (Date.now() - startedAt > WORK_BUDGET_MS) throw new OutOfTime(index, toMake.length - index);
    made[await makeCopy(orderId, longEdge, image)] += 1;
  }

  // Read again: a new size chosen or a revision requested meanwhile has its own event to finish the set.
  const [now, delivery] = await Promise.all([getOrder(orderId), getDelivery(orderId)]);
  if (now?.status !== 'completed' || mlsLongEdgeOf(delivery) !== longEdge) {
    return { outcome: 'changed-meanwhile' as const, longEdge, made };
  }
  const [current, recorded] = await Promise.all([listImages(orderId, 'edited'), listRenditions(orderId, longEdge)]);
  if (current.length === 0 || !isSetComplete(recorded, current)) {
    return { outcome: 'incomplete' as const, longEdge, made };
  }
  // Asked again on a redelivery too: the request may be what a failed receive did not get to send.
  await requestMlsZip(orderId);
  // The listing view's set is whole: its tabs read it again (the MLS zip says so on its own).
  await announce({ type: 'copies.ready', orderId });
  return { outcome: 'complete' as const, longEdge, made };
};

const onOutboxEvent = orderEventConsumer('making MLS-ready copies', async (orderEvent, record) => {
  if (orderEvent.eventType !== 'order_completed' && orderEvent.eventType !== 'mls_size_changed') {
    // Not an event this queue takes: it will never succeed, so it is logged rather than retried.
    logger.error('dropping a message that is no delivery or size change', { messageId: record.messageId });
    return;
  }
  const result = await makeRenditionsOrContinue(orderEvent.orderId);
  logger.info('MLS-ready copies handled', {
    orderId: orderEvent.orderId,
    eventType: orderEvent.eventType,
    ...result,
    messageId: record.messageId,
  });
});

/** A download's direct ask for missing copies (`mlsCopiesRequest`), or null for an outbox record. */
const copiesRequestOf = (body: string): MlsCopiesRequest | null => {
  try {
    const parsed = mlsCopiesRequest.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
};

/**
 * Outbox records (a delivery, a size chosen), and the asks of downloads that found copies
 * missing with nothing making them; both make whatever the order's set lacks.
 */
/**
 * Makes the copies; when the time is up before the last, hands the rest to a new message of the
 * same queue (a direct ask) and lets this one go, so a very large order goes on at once instead
 * of after the visibility timeout, and no run that is merely long is counted as failed.
 */
export const makeRenditionsOrContinue = async (orderId: string, startedAt = Date.now()) => {
  try {
    return await makeRenditions(orderId, startedAt);
  } catch (error) {
    if (!(error instanceof OutOfTime)) throw error;
    const next: MlsCopiesRequest = { request: 'mls-copies', orderId, requestedAt: new Date().toISOString() };
    await publish('renditions', [next]);
    logger.info('MLS-ready copies go on in a new message', { orderId, reason: error.message });
    return { outcome: 'continued' as const };
  }
};

export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  const outboxRecords: SQSRecord[] = [];
  for (const record of event.Records) {
    const request = copiesRequestOf(record.body);
    if (!request) {
      outboxRecords.push(record);
      continue;
    }
    try {
      const result = await makeRenditionsOrContinue(request.orderId);
      logger.info('MLS-ready copies handled', {
        orderId: request.orderId,
        asked: true,
        ...result,
        messageId: record.messageId,
      });
    } catch (error) {
      logger.error('making MLS-ready copies failed', { messageId: record.messageId, error: error as Error });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  if (outboxRecords.length) {
    batchItemFailures.push(...(await onOutboxEvent({ Records: outboxRecords })).batchItemFailures);
  }
  return { batchItemFailures };
};
