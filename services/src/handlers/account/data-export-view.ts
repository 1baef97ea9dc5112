import type { DataExportView } from '@marketplace/events/account-data';
import { type DataExportRecord, dataExportFilename, dataExportLink, isExpired } from '../../data/data-exports';

/** A link shown on the page is for starting the download now. */
const PAGE_LINK_SECONDS = 15 * 60;

/** The request as the page shows it, with a link made now (never longer than the zip lasts). */
export const toDataExportView = async (record: DataExportRecord | null, now = new Date()): Promise<DataExportView> => {
  if (!record) return { export: null };
  const expired = isExpired(record, now);
  const ready = record.status === 'ready' && !expired && record.zipKey;
  const secondsLeft = record.expiresAt ? Math.floor((Date.parse(record.expiresAt) - now.getTime()) / 1000) : 0;
  return {
    export: {
      id: record.exportId,
      status: expired ? 'expired' : record.status,
      requestedAt: record.requestedAt,
      readyAt: record.readyAt ?? null,
      expiresAt: record.status === 'ready' ? (record.expiresAt ?? null) : null,
      sizeBytes: record.sizeBytes ?? null,
      url: ready ? await dataExportLink(record, Math.max(1, Math.min(PAGE_LINK_SECONDS, secondsLeft))) : null,
      filename: ready ? dataExportFilename(record.requestedAt) : null,
    },
  };
};
