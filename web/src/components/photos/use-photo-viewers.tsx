import type { OrderImageView } from '@marketplace/events/orders';
import { useState } from 'react';
import { BeforeAfterModal, type PhotoPair } from './BeforeAfterModal';
import { PhotoLightbox, viewablePhotos } from './PhotoLightbox';

/**
 * The two ways to look at an order's photos from a grid: the full-size lightbox and the
 * before/after comparison. A grid asks for an opener per tile (undefined when there is nothing to
 * open) and renders `viewers(pairs)` once.
 */
export function usePhotoViewers() {
  const [lightbox, setLightbox] = useState<{ photos: OrderImageView[]; index: number } | null>(null);
  const [compareIndex, setCompareIndex] = useState<number | null>(null);

  /** Opens the lightbox on `image`, stepping through `list` in the grid's order; undefined without a preview. */
  const lightboxOpener = (list: readonly OrderImageView[], image: OrderImageView) => {
    const photos = viewablePhotos(list);
    const index = photos.indexOf(image);
    return index < 0 ? undefined : () => setLightbox({ photos, index });
  };

  /** Opens the before/after view on the pair of this edited photo; undefined when it has no original. */
  const compareOpener = (pairs: readonly PhotoPair[], image: OrderImageView) => {
    const index = pairs.findIndex((pair) => pair.edited === image);
    return index < 0 ? undefined : () => setCompareIndex(index);
  };

  const viewers = (pairs: PhotoPair[]) => (
    <>
      <PhotoLightbox
        photos={lightbox?.photos ?? []}
        index={lightbox?.index ?? null}
        onClose={() => setLightbox(null)}
      />
      <BeforeAfterModal
        pairs={pairs}
        index={compareIndex}
        onIndexChange={setCompareIndex}
        onClose={() => setCompareIndex(null)}
      />
    </>
  );

  return { lightboxOpener, compareOpener, viewers };
}
