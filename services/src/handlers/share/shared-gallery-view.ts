import type { SharedGalleryView } from '@marketplace/events/delivery';
import { orderDisplayName } from '@marketplace/events/orders';
import type { SharedBusinessView } from '@marketplace/events/profile';
import { imageUrls } from '../../adapters/image-urls';
import { listingOf } from '../../data/delivery';
import { listImages, type OrderRecord } from '../../data/orders';
import { copiesOf } from '../../data/renditions';
import { getUser } from '../../data/users';
import { pictureView } from '../auth/me-view';

/**
 * The photographer's business as their share pages show it: the name and a short-lived URL of the
 * logo's size, and nothing else of the account (no email, phone or id). Null when they set neither.
 */
const sharedBusiness = async (photographerId: string): Promise<SharedBusinessView | null> => {
  const photographer = await getUser(photographerId);
  // A deleted account's business is not shown any more.
  if (!photographer || photographer.deletedAt) return null;
  const logo = await pictureView(photographer, 'logo');
  const name = photographer.businessName ?? null;
  const logoUrl = logo?.state === 'ready' ? logo.largeUrl : null;
  return name || logoUrl ? { name, logoUrl } : null;
};

/**
 * The gallery a share link shows: the order's name, its delivered photos in listing order (the
 * cover first) with their pictures and zip names, how many files each zip holds, and the
 * photographer's business name and logo. Built from a whitelist of fields, so nothing about price,
 * requirements, editor or photographer beyond those two can slip in.
 */
export const sharedGalleryView = async (order: OrderRecord, expiresAt: string): Promise<SharedGalleryView> => {
  const images = await listImages(order.orderId);
  const listing = await listingOf(order, { images });
  const records = new Map(images.map((image) => [image.key, image]));
  const [{ copies }, photos, business] = await Promise.all([
    copiesOf(order.orderId, listing.mlsLongEdge, listing.photos),
    Promise.all(
      listing.photos.map(async (photo) => {
        const record = records.get(photo.image.key);
        const urls = record ? await imageUrls(record) : { thumbnailUrl: null, previewUrl: null };
        return { position: photo.position, entryName: photo.fullEntryName, ...urls };
      }),
    ),
    sharedBusiness(order.photographerId),
  ]);
  const mlsReady = copies.filter((copy) => copy.state === 'ready').length;
  return {
    business,
    title: orderDisplayName(order),
    photos,
    downloads: {
      full: { fileCount: listing.photos.length },
      mls: { fileCount: mlsReady, longEdge: listing.mlsLongEdge },
    },
    expiresAt,
  };
};
