import type { OrderImageView } from '@marketplace/events/orders';
import Lightbox from 'yet-another-react-lightbox';
import Captions from 'yet-another-react-lightbox/plugins/captions';
import 'yet-another-react-lightbox/styles.css';
import 'yet-another-react-lightbox/plugins/captions.css';

/** What the lightbox shows of a photo: its screen-sized preview, captioned with its name. */
export type LightboxPhoto = Pick<OrderImageView, 'filename' | 'previewUrl'>;

/** The photos a lightbox can show: those with a screen-sized preview. */
export const viewablePhotos = <Photo extends LightboxPhoto>(images: readonly Photo[]) =>
  images.filter((image) => image.previewUrl);

interface PhotoLightboxProps {
  /** Photos with a preview (see `viewablePhotos`), in the order the grid shows them. */
  photos: readonly LightboxPhoto[];
  /** The photo shown; null when closed. */
  index: number | null;
  onClose: () => void;
}

/**
 * Full-size view of an order's photos: the preview rendition, the file name as caption, and the
 * keyboard as the lightbox provides it (Left/Right between photos, Escape to close).
 */
export function PhotoLightbox({ photos, index, onClose }: PhotoLightboxProps) {
  return (
    <Lightbox
      open={index !== null}
      index={index ?? 0}
      close={onClose}
      plugins={[Captions]}
      captions={{ descriptionTextAlign: 'center' }}
      carousel={{ finite: true, preload: 1 }}
      controller={{ closeOnBackdropClick: true }}
      labels={{ Previous: 'Previous photo', Next: 'Next photo', Close: 'Close' }}
      slides={photos.map((photo) => ({
        src: photo.previewUrl ?? '',
        alt: photo.filename,
        title: photo.filename,
      }))}
    />
  );
}
