import type { SharedGalleryView } from '@marketplace/events/delivery';
import { orderDisplayName } from '@marketplace/events/orders';
import { imageUrls } from '../../adapters/image-urls';
import { listingOf } from '../../data/delivery';
import { listImages, type OrderRecord } from '../../data/orders';
import { copiesOf } from '../../data/renditions';

/**
 * The gallery a share link shows: the order's name, its delivered photos in listing order (the
 * cover first) with their pictures and zip names, and how many files each zip holds. Built from
 * a whitelist of fields, so nothing about price, requirements, editor or photographer can slip in.
 */
export const sharedGalleryView = async (order: OrderRecord, expiresAt: string): Promise<SharedGalleryView> => {
  const images = await listImages(order.orderId);
  const listing = await listingOf(order, { images });
  const records = new Map(images.map((image) => [image.key, image]));
  const [{ copies }, photos] = await Promise.all([
    copiesOf(order.orderId, listing.mlsLongEdge, listing.photos),
    Promise.all(
      listing.photos.map(async (photo) => {
        const record = records.get(photo.image.key);
        const urls = record ? await imageUrls(record) : { thumbnailUrl: null, previewUrl: null };
        return { position: photo.position, entryName: photo.fullEntryName, ...urls };
      }),
    ),
  ]);
  const mlsReady = copies.filter((copy) => copy.state === 'ready').length;
  return {
    title: orderDisplayName(order),
    photos,
    downloads: {
      full: { fileCount: listing.photos.length },
      mls: { fileCount: mlsReady, longEdge: listing.mlsLongEdge },
    },
    expiresAt,
  };
};
