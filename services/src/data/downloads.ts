import { createHash } from 'node:crypto';
import { isConditionFailure } from './conditional-write';
import { getRecord, models } from './direct-reads';
import { writers } from './direct-writes';
import { commitAll, outboxWrite } from './transactions';

/**
 * The zips the zip worker builds, one record per order and kind. A zip is named by a fingerprint
 * of the files it holds, so a record is "ready" only for the very files the order has now, and
 * a rebuild for other files never writes over a zip someone holds a link to.
 */
/** 'edited': the full-resolution delivery; 'mls': its MLS-ready copies; 'originals': the photographer's uploads. */
export type DownloadKind = 'edited' | 'originals' | 'mls';

export interface DownloadRecord {
  orderId: string;
  kind: DownloadKind;
  status: 'building' | 'ready' | 'failed';
  zipKey?: string;
  sizeBytes?: number;
  fileCount?: number;
  sourceFingerprint?: string;
  error?: string;
  filesDone?: number;
  copiesRequestedAt?: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * A build that has shown no sign of life (claim or progress) for this long is taken to have died
 * (a Lambda timeout, a crash); another may then take over. Progress is written every few files.
 */
export const BUILD_LEASE_MS = 5 * 60 * 1000;

const downloads = () => writers().download;

/** The images a zip holds, as far as its identity goes: each file's key and size, in key order. */
export const sourceFingerprint = (images: readonly { key: string; size: number }[]) =>
  createHash('sha256')
    .update(
      images
        .map((i) => `${i.key}\t${i.size}`)
        .sort()
        .join('\n'),
    )
    .digest('hex')
    .slice(0, 20);

export const zipKeyFor = (orderId: string, kind: DownloadKind, fingerprint: string) =>
  `zips/${orderId}/${kind}-${fingerprint}.zip`;

export const getDownload = async (orderId: string, kind: DownloadKind) => {
  return getRecord<DownloadRecord>(models.download, { orderId, kind });
};

/**
 * The photos bucket deletes zips 7 days after they are written (infra/lib/storage-stack.ts,
 * photoLifecycle.zipExpiryDays); a zip this old is built again rather than linked to, so a link
 * never points at a deleted zip. A day's margin: S3 expires objects up to a day late, never early.
 */
export const ZIP_REUSE_MS = 6 * 24 * 60 * 60 * 1000;

export const isReadyFor = (
  download: DownloadRecord | null,
  fingerprint: string,
  now = Date.now(),
): download is DownloadRecord & { zipKey: string } =>
  download?.status === 'ready' &&
  download.sourceFingerprint === fingerprint &&
  !!download.zipKey &&
  Date.parse(download.updatedAt) > now - ZIP_REUSE_MS;

/** After a failed build of the same files, a new one is asked for no sooner than this. */
export const RETRY_FAILED_BUILD_MS = 60 * 1000;

export const isBuildInProgress = (download: DownloadRecord | null, fingerprint: string, now = Date.now()) =>
  download?.status === 'building' &&
  download.sourceFingerprint === fingerprint &&
  Date.parse(download.updatedAt) > now - BUILD_LEASE_MS;

/** Whether a caller should ask for a build: none alive, and no recent failure of the same files (polling must not flood). */
export const shouldRequestBuild = (download: DownloadRecord | null, fingerprint: string, now = Date.now()) => {
  if (isBuildInProgress(download, fingerprint, now)) return false;
  const failedRecently =
    download?.status === 'failed' &&
    download.sourceFingerprint === fingerprint &&
    Date.parse(download.updatedAt) > now - RETRY_FAILED_BUILD_MS;
  return !failedRecently;
};

/**
 * Takes the build of these files, unless another build of the very same files is alive: true
 * when this caller should build. One conditional write, so of two racing workers one builds.
 */
export const claimBuild = async ({
  orderId,
  kind,
  fingerprint,
  fileCount,
}: {
  orderId: string;
  kind: DownloadKind;
  fingerprint: string;
  fileCount: number;
}) => {
  const staleBefore = new Date(Date.now() - BUILD_LEASE_MS).toISOString();
  try {
    await downloads()
      .put({ orderId, kind, status: 'building', sourceFingerprint: fingerprint, fileCount, filesDone: 0 })
      .where(
        ({ status, sourceFingerprint: claimed, updatedAt }, { notExists, ne, lt }) =>
          `${notExists(status)} OR ${ne(status, 'building')} OR ${ne(claimed, fingerprint)} OR ${lt(updatedAt, staleBefore)}`,
      )
      .go();
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};

/** Copies that show no progress for this long are asked for again (see `claimCopiesRequest`). */
export const COPIES_STALL_MS = 2 * 60 * 1000;

/**
 * Takes the one ask for an order's missing MLS-ready copies: true for the caller that should
 * publish it, false when another asked within `COPIES_STALL_MS` (polling browsers must not flood
 * the rendition queue, nor have two workers make the same copies).
 */
export const claimCopiesRequest = async (orderId: string, now = Date.now()) => {
  try {
    await downloads()
      .update({ orderId, kind: 'mls' })
      .set({ copiesRequestedAt: new Date(now).toISOString() })
      .where(
        ({ copiesRequestedAt }, { notExists, lt }) =>
          `${notExists(copiesRequestedAt)} OR ${lt(copiesRequestedAt, new Date(now - COPIES_STALL_MS).toISOString())}`,
      )
      .go();
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};

const ignoringLostRace = async (write: () => Promise<unknown>) => {
  try {
    await write();
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};

type DownloadKey = { orderId: string; kind: DownloadKind };

// Each write below holds only while this build owns the record: a newer build's record is left alone.

export const recordBuildProgress = (key: DownloadKey, fingerprint: string, filesDone: number) =>
  ignoringLostRace(() =>
    downloads()
      .patch(key)
      .set({ filesDone })
      .where(
        ({ status, sourceFingerprint }, { eq }) =>
          `${eq(status, 'building')} AND ${eq(sourceFingerprint, fingerprint)}`,
      )
      .go(),
  );

export const markDownloadReady = (
  key: DownloadKey,
  fingerprint: string,
  zip: { zipKey: string; sizeBytes: number; fileCount: number },
) =>
  ignoringLostRace(() =>
    downloads()
      .patch(key)
      .set({ status: 'ready', ...zip, filesDone: zip.fileCount })
      .remove(['error'])
      .where(
        ({ status, sourceFingerprint }, { eq }) =>
          `${eq(status, 'building')} AND ${eq(sourceFingerprint, fingerprint)}`,
      )
      .go(),
  );

export const markDownloadFailed = (key: DownloadKey, fingerprint: string, error: string) =>
  ignoringLostRace(() =>
    downloads()
      .patch(key)
      .set({ status: 'failed', error: error.slice(0, 500) })
      .where(
        ({ status, sourceFingerprint }, { eq }) =>
          `${eq(status, 'building')} AND ${eq(sourceFingerprint, fingerprint)}`,
      )
      .go(),
  );

const handOverWords: Record<DownloadKind, string> = {
  originals: 'the original photos',
  edited: 'the edited photos',
  mls: 'the MLS-ready photos',
};

/** A ready zip's link was handed over: one image_downloaded event in the activity log, through the outbox. */
export const recordZipHandedOver = (handOver: {
  orderId: string;
  kind: DownloadKind;
  actorId: string;
  fileCount: number;
  sizeBytes: number;
}) =>
  commitAll((e) => [
    outboxWrite(e, {
      orderId: handOver.orderId,
      eventType: 'image_downloaded',
      description: `Downloaded ${handOver.fileCount} of ${handOverWords[handOver.kind]} as a zip`,
      actorId: handOver.actorId,
      metadata: { kind: handOver.kind, fileCount: handOver.fileCount, sizeBytes: handOver.sizeBytes },
    }),
  ]);
