import type { MlsSetView, SequenceView } from '@marketplace/events/delivery';
import { imageUrls } from '../../adapters/image-urls';
import { getDelivery, listingOf } from '../../data/delivery';
import { getOwnOrder, listImages } from '../../data/orders';
import { isCurrentFor, listRenditions } from '../../data/renditions';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { orderParams } from './order-params';

/**
 * The photographer's listing order of the delivered photos (cover first), with their names in the
 * zips and their pictures, and how far the MLS-ready set at the order's long edge is.
 */
export const handler = http({ params: orderParams }, async ({ params, user }) => {
  const order = await getOwnOrder(params.id, user.userId);
  const [images, delivery] = await Promise.all([listImages(order.orderId), getDelivery(order.orderId)]);
  const listing = await listingOf(order, { images, delivery });
  const records = new Map(images.map((image) => [image.key, image]));
  const copies = new Map(
    (await listRenditions(order.orderId, listing.mlsLongEdge)).map((copy) => [copy.editedKey, copy]),
  );
  const mls: MlsSetView = { longEdge: listing.mlsLongEdge, ready: 0, pending: 0, skipped: [] };
  for (const { image } of listing.photos) {
    const copy = copies.get(image.key);
    if (!copy || !isCurrentFor(copy, image)) mls.pending += 1;
    else if (copy.status === 'ready') mls.ready += 1;
    else mls.skipped.push({ key: image.key, filename: image.filename, reason: copy.reason ?? 'Left out of the set' });
  }
  const photos = await Promise.all(
    listing.photos.map(async (photo) => ({
      key: photo.image.key,
      position: photo.position,
      entryName: photo.fullEntryName,
      filename: photo.image.filename,
      ...(await imageUrls(records.get(photo.image.key) ?? {})),
    })),
  );
  const view: SequenceView = {
    photos,
    version: listing.version,
    isDefault: listing.isDefault,
    updatedAt: listing.updatedAt,
    mlsLongEdge: listing.mlsLongEdge,
    mls,
  };
  return ok(view);
});
