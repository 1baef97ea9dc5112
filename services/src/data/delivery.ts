import {
  DEFAULT_MLS_LONG_EDGE,
  fullResolutionExtension,
  listingEntryName,
  MLS_LONG_EDGES,
  type MlsLongEdge,
  sequenceChangedMessage,
} from '@marketplace/events/delivery';
import type { OrderImageView } from '@marketplace/events/orders';
import { BadRequest, Conflict } from '../http/errors';
import { getRecord, models } from './direct-reads';
import { listImages, type OrderImageRecord, type OrderRecord, toImageView } from './orders';
import { withPairings } from './pairings';
import { commitAll, outboxWrite, TransactionCancelled } from './transactions';

/**
 * The photographer's delivery of a completed order: the edited photos in listing order (the first
 * is the cover), named for the listing, and the long edge of the MLS-ready copies. The zips, the
 * order page and the share page all read the listing from `listingOf`, so they cannot disagree.
 */
export interface DeliveryRecord {
  orderId: string;
  sequence?: string[];
  /** Absent while only a size was chosen: no sequence saved yet. */
  version?: number;
  mlsLongEdge?: number;
  updatedBy?: string;
  createdAt: string;
  updatedAt: string;
}

export const getDelivery = async (orderId: string) => {
  return getRecord<DeliveryRecord>(models.orderDelivery, { orderId });
};

export const mlsLongEdgeOf = (delivery: DeliveryRecord | null): MlsLongEdge =>
  (MLS_LONG_EDGES as readonly number[]).includes(delivery?.mlsLongEdge ?? 0)
    ? (delivery?.mlsLongEdge as MlsLongEdge)
    : DEFAULT_MLS_LONG_EDGE;

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The originals in capture order: by the HDR scene the browser grouped each into (scenes are
 * numbered in capture order), then by the file's time, then by name; originals with no scene last.
 */
export const captureOrder = (originals: readonly OrderImageView[]) =>
  [...originals].sort(
    (a, b) =>
      (a.scene ?? Number.MAX_SAFE_INTEGER) - (b.scene ?? Number.MAX_SAFE_INTEGER) ||
      compare(a.lastModified, b.lastModified) ||
      compare(a.filename, b.filename) ||
      compare(a.key, b.key),
  );

/**
 * The default listing: each edited photo at the place of the original it is paired with, in the
 * originals' capture order; edits paired with no original after them, by file name.
 */
export const defaultSequence = (images: readonly OrderImageView[]) => {
  const paired = withPairings([...images]);
  const place = new Map(captureOrder(paired.filter((i) => i.kind === 'original')).map((o, index) => [o.key, index]));
  const rank = (image: OrderImageView) =>
    image.pairedOriginalKey !== null && place.has(image.pairedOriginalKey)
      ? (place.get(image.pairedOriginalKey) ?? 0)
      : Number.MAX_SAFE_INTEGER;
  return paired
    .filter((i) => i.kind === 'edited')
    .sort((a, b) => rank(a) - rank(b) || compare(a.filename, b.filename) || compare(a.key, b.key))
    .map((i) => i.key);
};

/**
 * The saved sequence applied to the files the order has now: saved keys that are no longer
 * delivered drop out, and files delivered since the save (a revision) follow in default order.
 */
export const effectiveSequence = (saved: readonly string[] | undefined, images: readonly OrderImageView[]) => {
  const fallback = defaultSequence(images);
  if (!saved?.length) return fallback;
  const current = new Set(fallback);
  const kept = saved.filter((key) => current.has(key));
  const keptSet = new Set(kept);
  return [...kept, ...fallback.filter((key) => !keptSet.has(key))];
};

export interface ListedPhoto {
  image: OrderImageView;
  /** 1-based; 1 is the cover. */
  position: number;
  /** The original this edit is paired with, if any (its name names the photo in the zips). */
  originalFilename: string | null;
  /** Names in the full-resolution zip and in the MLS-ready zip. */
  fullEntryName: string;
  mlsEntryName: string;
}

export interface Listing {
  photos: ListedPhoto[];
  version: number;
  isDefault: boolean;
  updatedAt: string | null;
  mlsLongEdge: MlsLongEdge;
  /** When the photographer last saved a sequence or chose a size (null: never). */
  settingsUpdatedAt: string | null;
}

/** An order's delivered (edited) photos in listing order, with their names in the zips. */
export const listingOf = async (
  order: Pick<OrderRecord, 'orderId' | 'name' | 'orderNumber'>,
  loaded?: { images?: OrderImageRecord[]; delivery?: DeliveryRecord | null },
): Promise<Listing> => {
  const [records, delivery] = await Promise.all([
    loaded?.images ?? listImages(order.orderId),
    loaded?.delivery !== undefined ? loaded.delivery : getDelivery(order.orderId),
  ]);
  const images = withPairings(records.map(toImageView));
  const byKey = new Map(images.map((i) => [i.key, i]));
  const keys = effectiveSequence(delivery?.sequence, images);
  const total = keys.length;
  const photos = keys.map((key, index): ListedPhoto => {
    const image = byKey.get(key) as OrderImageView;
    const originalFilename = image.pairedOriginalKey ? (byKey.get(image.pairedOriginalKey)?.filename ?? null) : null;
    const naming = { position: index + 1, total, order, originalFilename, editedFilename: image.filename };
    return {
      image,
      position: index + 1,
      originalFilename,
      fullEntryName: listingEntryName({ ...naming, extension: fullResolutionExtension(image.filename) }),
      mlsEntryName: listingEntryName({ ...naming, extension: 'jpg' }),
    };
  });
  return {
    photos,
    version: delivery?.version ?? 0,
    isDefault: !delivery?.sequence?.length,
    updatedAt: delivery?.sequence?.length ? delivery.updatedAt : null,
    mlsLongEdge: mlsLongEdgeOf(delivery),
    settingsUpdatedAt: delivery?.updatedAt ?? null,
  };
};

/** The statuses in which the photographer arranges the delivery: completed, or back for a revision. */
const arrangeableStatuses = ['completed', 'revision_requested'] as const;

const assertArrangeable = (order: OrderRecord) => {
  if (!(arrangeableStatuses as readonly string[]).includes(order.status)) {
    throw new Conflict('The listing order can be arranged once the order is completed', undefined, 'NOT_COMPLETED');
  }
};

/**
 * Saves the listing order: exactly the order's delivered photos, each once. One conditional
 * write on the version the page loaded (so of two tabs, the second learns the first saved, with
 * the version to save over it), and its event, in one transaction.
 */
export const saveSequence = async ({
  order,
  userId,
  keys,
  version,
  replace = false,
}: {
  order: OrderRecord;
  userId: string;
  keys: string[];
  version: number;
  replace?: boolean;
}) => {
  assertArrangeable(order);
  const { orderId } = order;
  const [records, delivery] = await Promise.all([listImages(orderId, 'edited'), getDelivery(orderId)]);
  const delivered = new Set(records.map((r) => r.key));
  const unique = new Set(keys);
  if (unique.size !== keys.length) {
    throw new BadRequest('Each photo can appear only once in the listing order', undefined, 'DUPLICATE_PHOTO');
  }
  if (keys.length !== delivered.size || keys.some((key) => !delivered.has(key))) {
    throw new BadRequest(
      'The listing order must hold every delivered photo of this order, and only those',
      undefined,
      'SEQUENCE_MISMATCH',
    );
  }
  const current = delivery?.version ?? 0;
  if (current !== version && !replace) {
    throw new Conflict(sequenceChangedMessage, { version: current }, 'SEQUENCE_CHANGED');
  }
  // `replace` saves over whatever is there, but still in one conditional write on what was read.
  const expected = replace ? current : version;
  const next = expected + 1;
  try {
    await commitAll((e) => [
      // An upsert: the item may not exist yet, or hold only a size chosen meanwhile (no version).
      e.orderDelivery
        .update({ orderId })
        .set({ sequence: keys, version: next, updatedBy: userId })
        .where(({ version: v }, { eq, notExists }) =>
          expected === 0 ? `${notExists(v)} OR ${eq(v, 0)}` : eq(v, expected),
        )
        .commit(),
      outboxWrite(e, {
        orderId,
        eventType: 'listing_sequence_saved',
        description: `Listing order saved: ${keys.length} photo${keys.length === 1 ? '' : 's'}, cover first`,
        actorId: userId,
        metadata: { version: next, coverKey: keys[0] },
      }),
    ]);
  } catch (error) {
    if (error instanceof TransactionCancelled) {
      const latest = await getDelivery(orderId);
      throw new Conflict(sequenceChangedMessage, { version: latest?.version ?? 0 }, 'SEQUENCE_CHANGED');
    }
    throw error;
  }
  return next;
};

/**
 * Chooses the long edge of the order's MLS-ready copies; its event makes the rendition worker
 * make the set at the new size (copies already made at a size are kept, so switching back is free).
 */
export const setMlsLongEdge = async ({
  order,
  userId,
  longEdge,
}: {
  order: OrderRecord;
  userId: string;
  longEdge: MlsLongEdge;
}) => {
  assertArrangeable(order);
  const { orderId } = order;
  const delivery = await getDelivery(orderId);
  if (delivery?.mlsLongEdge === longEdge) return false;
  await commitAll((e) => [
    // An upsert with no condition: a size choice never conflicts with a sequence saved meanwhile.
    e.orderDelivery
      .update({ orderId })
      .set({ mlsLongEdge: longEdge, updatedBy: userId })
      .commit(),
    outboxWrite(e, {
      orderId,
      eventType: 'mls_size_changed',
      description: `MLS-ready photos set to ${longEdge.toLocaleString('en-US')} px on the long edge`,
      actorId: userId,
      metadata: { longEdge },
    }),
  ]);
  return true;
};
