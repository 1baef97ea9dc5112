import { createHash } from 'node:crypto';
import { zipEntryNames } from '../adapters/zip-downloads';
import { listingOf } from './delivery';
import type { DownloadKind } from './downloads';
import { listImages, type OrderRecord } from './orders';
import { copiesOf } from './renditions';

/**
 * What one of an order's zips holds, entry by entry, in order:
 * - 'originals': the photographer's uploads by file name, under the names they were uploaded with;
 * - 'edited': the delivery at full resolution, in listing order (cover first), named for the
 *   listing (`01_Oak_Street_IMG_0012.jpg`);
 * - 'mls': the MLS-ready copies of the same photos in the same order and names; photos whose copy
 *   is not made yet are `pending`, files left out of the set are not in it.
 * The fingerprint names exactly these entries (object, size, name, place), so a new sequence, a
 * revision or a new copy makes a new zip, and the same files in the same order reuse the one built.
 */
export interface ZipEntrySource {
  key: string;
  name: string;
  size: number;
  lastModified: Date;
}

export interface ZipSources {
  entries: ZipEntrySource[];
  /** Photos that belong in the zip but whose MLS-ready copy is still to be made (always 0 but for 'mls'). */
  pending: number;
  /** The photos the zip will hold when nothing is pending. */
  total: number;
  fingerprint: string;
  /** 'mls' only: the last sign of the copies moving (a copy made, a size chosen); null when none. */
  lastProgressAt: string | null;
}

export const entriesFingerprint = (entries: readonly ZipEntrySource[]) =>
  createHash('sha256')
    .update(entries.map((e) => `${e.key}\t${e.size}\t${e.name}`).join('\n'))
    .digest('hex')
    .slice(0, 20);

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const withFingerprint = (
  entries: ZipEntrySource[],
  pending = 0,
  total = entries.length,
  lastProgressAt: string | null = null,
): ZipSources => ({
  entries,
  pending,
  total,
  fingerprint: entriesFingerprint(entries),
  lastProgressAt,
});

/** The latest of some ISO times; null when none is given. */
export const latest = (times: readonly (string | null | undefined)[]) =>
  times.reduce<string | null>((last, time) => (time && (!last || time > last) ? time : last), null);

export const zipSources = async (
  order: Pick<OrderRecord, 'orderId' | 'name' | 'orderNumber'>,
  kind: DownloadKind,
): Promise<ZipSources> => {
  if (kind === 'originals') {
    const images = (await listImages(order.orderId, 'original')).sort(
      (a, b) => compare(a.filename, b.filename) || compare(a.key, b.key),
    );
    const names = zipEntryNames(images.map((image) => image.filename));
    return withFingerprint(
      images.map((image, i) => ({
        key: image.key,
        name: names[i] as string,
        size: image.size,
        lastModified: new Date(image.lastModified),
      })),
    );
  }
  const listing = await listingOf(order);
  if (kind === 'edited') {
    return withFingerprint(
      listing.photos.map((photo) => ({
        key: photo.image.key,
        name: photo.fullEntryName,
        size: photo.image.size,
        lastModified: new Date(photo.image.lastModified),
      })),
    );
  }
  const { copies, records } = await copiesOf(order.orderId, listing.mlsLongEdge, listing.photos);
  const entries: ZipEntrySource[] = [];
  for (const copy of copies) {
    if (copy.state !== 'ready' || !copy.record.renditionKey) continue;
    entries.push({
      key: copy.record.renditionKey,
      name: copy.photo.mlsEntryName,
      size: copy.record.bytes ?? 0,
      lastModified: new Date(copy.record.updatedAt),
    });
  }
  const pending = copies.filter((copy) => copy.state === 'pending').length;
  const lastProgressAt = latest([listing.settingsUpdatedAt, ...records.map((record) => record.updatedAt)]);
  return withFingerprint(entries, pending, entries.length + pending, lastProgressAt);
};
