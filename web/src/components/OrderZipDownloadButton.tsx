import { editedZipFilename } from '@marketplace/events/orders';
import { waitForReadyZip } from '../lib/download-completed';
import { ZipDownloadButton, type ZipDownloadButtonProps } from './ZipDownloadButton';

/** One of an order's zips: the route under /api/orders/{id}/ that builds it, its name, and what the toasts say. */
export interface OrderZip {
  /** e.g. 'download-completed'; the route answers ready with a link, or building with progress. */
  route: string;
  /** Saved under this name when the server names no file. */
  filename: string;
  successMessage: string;
  /** Shown when the download fails and neither the server nor the timeout says why. */
  failureMessage: string;
}

/** The photographer's edited photos at full resolution (the dashboard and the order page offer it). */
export const editedPhotosZip = (order: { name: string | null; orderNumber: number }): OrderZip => ({
  route: 'download-completed',
  filename: editedZipFilename(order),
  successMessage: 'Completed photos downloaded successfully!',
  failureMessage: 'Failed to download photos',
});

interface OrderZipDownloadButtonProps
  extends Pick<ZipDownloadButtonProps, 'size' | 'variant' | 'fullWidth' | 'disabled' | 'align'> {
  orderId: string;
  zip: OrderZip;
  label: string;
}

/** Downloads one of an order's zips (edited photos, MLS-ready copies, originals) from its route under the order. */
export function OrderZipDownloadButton({ orderId, zip, ...buttonProps }: OrderZipDownloadButtonProps) {
  return (
    <ZipDownloadButton
      {...buttonProps}
      waitForZip={(options) => waitForReadyZip(`/api/orders/${encodeURIComponent(orderId)}/${zip.route}`, options)}
      filename={zip.filename}
      successMessage={zip.successMessage}
      failureMessage={zip.failureMessage}
    />
  );
}
