import type { MlsSetView, SequenceView } from '@marketplace/events/delivery';
import { imageUrls } from '../../adapters/image-urls';
import { getDelivery, listingOf } from '../../data/delivery';
import { getOwnOrder, listImages } from '../../data/orders';
import { copiesOf } from '../../data/renditions';
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
  const { copies } = await copiesOf(order.orderId, listing.mlsLongEdge, listing.photos);
  const mls: MlsSetView = {
    longEdge: listing.mlsLongEdge,
    ready: copies.filter((copy) => copy.state === 'ready').length,
    pending: copies.filter((copy) => copy.state === 'pending').length,
    skipped: copies.flatMap((copy) =>
      copy.state === 'skipped'
        ? [
            {
              key: copy.photo.image.key,
              filename: copy.photo.image.filename,
              reason: copy.record.reason ?? 'Left out of the set',
            },
          ]
        : [],
    ),
  };
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
