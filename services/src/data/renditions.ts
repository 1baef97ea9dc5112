import type { MlsLongEdge } from '@marketplace/events/delivery';
import { models, queryAll } from './direct-reads';
import { writers } from './direct-writes';

/**
 * The MLS-ready copies of an order's edited photos, one record per long edge and edited file:
 * 'ready' with the copy's key, or 'skipped' with the reason the file is left out of the set.
 */
export interface RenditionRecord {
  orderId: string;
  longEdge: number;
  editedKey: string;
  /** The size of the edited file the copy was made from: a file replaced since is made again. */
  sourceSize: number;
  status: 'ready' | 'skipped';
  renditionKey?: string;
  width?: number;
  height?: number;
  bytes?: number;
  quality?: number;
  reason?: string;
  createdAt: string;
  updatedAt: string;
}

const renditions = () => writers().rendition;

/** Every copy (and skipped file) of an order at one long edge: one Query, bounded by the order's photos. */
export const listRenditions = async (orderId: string, longEdge: MlsLongEdge) => {
  return queryAll<RenditionRecord>(models.rendition, 'byOrder', { orderId, longEdge });
};

/** Whether a record is for this very file (same key and size): anything else is to be made again. */
export const isCurrentFor = (record: RenditionRecord | undefined, image: { key: string; size: number }) =>
  !!record && record.editedKey === image.key && record.sourceSize === image.size;

/** A copy made: written once its object exists, so a ready record never points at nothing. */
export const recordReadyCopy = async (copy: {
  orderId: string;
  longEdge: MlsLongEdge;
  editedKey: string;
  sourceSize: number;
  renditionKey: string;
  width: number;
  height: number;
  bytes: number;
  quality: number;
}) => {
  // A put replaces whatever an earlier version of the file left (a skipped note or an older copy).
  await renditions()
    .put({ ...copy, status: 'ready' })
    .go();
};

/** A file left out of the set, with the reason the photographer reads. */
export const recordSkippedFile = async (skipped: {
  orderId: string;
  longEdge: MlsLongEdge;
  editedKey: string;
  sourceSize: number;
  reason: string;
}) => {
  await renditions()
    .put({ ...skipped, status: 'skipped' })
    .go();
};

/** Whether every one of these files has a copy or a skipped note at this long edge, for its current version. */
export const isSetComplete = (
  records: readonly RenditionRecord[],
  images: readonly { key: string; size: number }[],
) => {
  const byKey = new Map(records.map((record) => [record.editedKey, record]));
  return images.every((image) => isCurrentFor(byKey.get(image.key), image));
};

/** Forgets the record of a copy whose edited file is no longer delivered (the copy itself is deleted first). */
export const forgetRendition = (record: Pick<RenditionRecord, 'orderId' | 'longEdge' | 'editedKey'>) =>
  renditions().delete({ orderId: record.orderId, longEdge: record.longEdge, editedKey: record.editedKey }).go();

/** A listed photo's MLS-ready copy: made, left out (with the record saying why), or still to make. */
export type CopyOf<Photo> =
  | { photo: Photo; state: 'ready' | 'skipped'; record: RenditionRecord }
  | { photo: Photo; state: 'pending' };

/**
 * Each photo of a listing against the order's copies at one long edge, in the listing's order,
 * with the records read (one Query). The order page, the MLS zip and the share page all count
 * from this, so they cannot disagree about which copies are current.
 */
export const copiesOf = async <Photo extends { image: { key: string; size: number } }>(
  orderId: string,
  longEdge: MlsLongEdge,
  photos: readonly Photo[],
) => {
  const records = await listRenditions(orderId, longEdge);
  const byKey = new Map(records.map((record) => [record.editedKey, record]));
  const copies = photos.map((photo): CopyOf<Photo> => {
    const record = byKey.get(photo.image.key);
    return record && isCurrentFor(record, photo.image)
      ? { photo, state: record.status, record }
      : { photo, state: 'pending' };
  });
  return { copies, records };
};
