import { DATA_EXPORT_LINK_DAYS, DATA_EXPORT_RUNNING_MESSAGE } from '@marketplace/events/account-data';
import { ulid } from 'ulid';
import { GET_OBJECT_QUERY, presignedUrl } from '../adapters/s3-requests';
import { attachmentDisposition } from '../adapters/zip-downloads';
import { Conflict } from '../http/errors';
import { isConditionFailure } from './conditional-write';
import { getRecord, models } from './direct-reads';
import { writers } from './direct-writes';
import { type RequestOrigin, securityActivityWrite } from './security-activity';
import { commitAll, TransactionCancelled, userOutboxWrite } from './transactions';

/**
 * 'Download my data': the account's latest request, one item per account (entities.ts dataExport).
 * A request is one transaction: the item (on the condition that no request of the account is being
 * prepared), the account's security activity row and the outbox event that feeds the export worker
 * (services/src/workers/export-account-data.ts). docs/decisions/0106.
 */
export interface DataExportRecord {
  userId: string;
  exportId: string;
  status: 'preparing' | 'ready' | 'failed';
  requestedAt: string;
  readyAt?: string;
  expiresAt?: string;
  zipKey?: string;
  sizeBytes?: number;
  counts?: Record<string, number>;
  emailedAt?: string;
  error?: string;
  createdAt: string;
  updatedAt: string;
}

/** A request still 'preparing' after this long is taken as lost (the worker gave up): a new one may start. */
export const STALE_PREPARING_MS = 60 * 60 * 1000;

/** Every key of a data download starts with this: the storage stack expires it, the grants name it. */
export const EXPORT_KEY_PREFIX = 'exports/';

export const exportZipKey = (userId: string, exportId: string) => `${EXPORT_KEY_PREFIX}${userId}/${exportId}.zip`;

export const dataExportFilename = (requestedAt: string) => `marketplace-data-${requestedAt.slice(0, 10)}.zip`;

export const DATA_EXPORT_LINK_SECONDS = DATA_EXPORT_LINK_DAYS * 24 * 60 * 60;

const entity = () => writers().dataExport;

export const getDataExport = async (userId: string, { consistent = false } = {}) => {
  return getRecord<DataExportRecord>(models.dataExport, { userId }, { consistent });
};

/** Starts a data download, or refuses (409) while one of the account's is being prepared. */
export const requestDataExport = async ({
  userId,
  origin,
  now = new Date(),
}: {
  userId: string;
  origin: RequestOrigin;
  now?: Date;
}) => {
  const exportId = ulid(now.getTime());
  const requestedAt = now.toISOString();
  const staleBefore = new Date(now.getTime() - STALE_PREPARING_MS).toISOString();
  try {
    await commitAll((e) => [
      e.dataExport
        .put({ userId, exportId, status: 'preparing', requestedAt })
        .where(
          ({ status, requestedAt: previous }, { notExists, ne, lt }) =>
            `${notExists(status)} OR ${ne(status, 'preparing')} OR ${lt(previous, staleBefore)}`,
        )
        .commit(),
      securityActivityWrite(e, { userId, kind: 'data_download_requested', ...origin }, now),
      userOutboxWrite(
        e,
        { userId, eventType: 'data_export_requested', description: 'Data download requested', actorId: userId },
        now,
      ),
    ]);
  } catch (error) {
    if (error instanceof TransactionCancelled && error.codes[0] === 'ConditionalCheckFailed') {
      throw new Conflict(DATA_EXPORT_RUNNING_MESSAGE, undefined, 'DATA_EXPORT_RUNNING');
    }
    throw error;
  }
  return (await getDataExport(userId, { consistent: true }))!;
};

/** The zip is in S3: the record says so, if it is still the request the worker built it for. */
export const markDataExportReady = async (
  record: Pick<DataExportRecord, 'userId' | 'exportId'>,
  {
    zipKey,
    sizeBytes,
    counts,
    now = new Date(),
  }: { zipKey: string; sizeBytes: number; counts: Record<string, number>; now?: Date },
) => {
  const expiresAt = new Date(now.getTime() + DATA_EXPORT_LINK_SECONDS * 1000).toISOString();
  try {
    const { data } = await entity()
      .patch({ userId: record.userId })
      .set({ status: 'ready', zipKey, sizeBytes, counts, readyAt: now.toISOString(), expiresAt })
      .remove(['error'])
      .where(({ exportId }, { eq }) => eq(exportId, record.exportId))
      .go({ response: 'all_new' });
    return data as DataExportRecord;
  } catch (error) {
    if (isConditionFailure(error)) return null;
    throw error;
  }
};

export const markDataExportFailed = async (record: Pick<DataExportRecord, 'userId' | 'exportId'>, message: string) => {
  try {
    await entity()
      .patch({ userId: record.userId })
      .set({ status: 'failed', error: message.slice(0, 500) })
      .where(({ exportId, status }, { eq }) => `${eq(exportId, record.exportId)} AND ${eq(status, 'preparing')}`)
      .go();
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
};

/** The link went out: a redelivered message sends it no second time. */
export const markDataExportEmailed = async (record: Pick<DataExportRecord, 'userId' | 'exportId'>) => {
  try {
    await entity()
      .patch({ userId: record.userId })
      .set({ emailedAt: new Date().toISOString() })
      .where(({ exportId }, { eq }) => eq(exportId, record.exportId))
      .go();
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
};

/** Whether a ready download's zip and link are past their time. */
export const isExpired = (record: DataExportRecord, now = new Date()) =>
  record.status === 'ready' && (!record.expiresAt || Date.parse(record.expiresAt) <= now.getTime());

/** A link to the zip, named for the day it was asked for, lasting `expiresIn` seconds. */
export const dataExportLink = (record: Pick<DataExportRecord, 'zipKey' | 'requestedAt'>, expiresIn: number) =>
  presignedUrl({
    method: 'GET',
    key: record.zipKey!,
    query: {
      ...GET_OBJECT_QUERY,
      'response-content-disposition': attachmentDisposition(dataExportFilename(record.requestedAt)),
    },
    expiresIn,
  });
