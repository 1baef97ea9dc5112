import { isConditionFailure } from './conditional-write';
import { getRecord, models } from './direct-reads';
import { writers } from './direct-writes';
import type { OrderImageRecord } from './orders';

/** The thumbnail worker's reads and writes of an image record. */
const entities = () => writers();

export interface ImageRef {
  orderId: string;
  kind: 'original' | 'edited';
  key: string;
}

export type ThumbnailResult =
  | { thumbnail: 'ready'; thumbnailKey: string; previewKey: string }
  | { thumbnail: 'placeholder' };

export const getImage = async ({ orderId, kind, key }: ImageRef) => {
  return getRecord<OrderImageRecord>(models.orderImage, { orderId, kind, key });
};

/**
 * Records what the worker made of an image, once: the image must exist and have no thumbnail
 * yet, so of two deliveries of the same event running at once only the first result is kept.
 * False when another delivery got there first.
 */
export const recordThumbnail = async ({ orderId, kind, key }: ImageRef, result: ThumbnailResult) => {
  try {
    await entities()
      .orderImage.patch({ orderId, kind, key })
      .set(result)
      .where(({ thumbnail }, { notExists }) => notExists(thumbnail))
      .go();
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};
