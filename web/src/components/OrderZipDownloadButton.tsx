import type { LiveMessage } from '@marketplace/events/live-updates';
import { editedZipFilename } from '@marketplace/events/orders';
import { useOrderZipWait } from '../lib/live-updates';
import { ZipDownloadButton, type ZipDownloadButtonProps } from './ZipDownloadButton';

/** One of an order's zips: the route under /api/orders/{id}/ that builds it, its name, and what the toasts say. */
export interface OrderZip {
  /** e.g. 'download-completed'; the route answers ready with a link, or building with progress. */
  route: string;
  /** Which zip.ready message says it is built. */
  kind: Extract<LiveMessage, { type: 'zip.ready' }>['kind'];
  /** Saved under this name when the server names no file. */
  filename: string;
  successMessage: string;
  /** Shown when the download fails and neither the server nor the timeout says why. */
  failureMessage: string;
}

/**
 * The photographer's edited photos at full resolution, as the order page's 'Download Edited Photos'
 * offers them: the spec's photographer-page toasts.
 */
export const editedPhotosZip = (order: { name: string | null; orderNumber: number }): OrderZip => ({
  route: 'download-completed',
  kind: 'edited',
  filename: editedZipFilename(order),
  successMessage: 'Photos downloaded successfully!',
  failureMessage: 'Failed to download photos',
});

/**
 * The same zip from an order list's 'Download' (the dashboard's Recent Orders, All Orders): the
 * spec's 'Completed photos downloaded successfully!', and 'Failed to download completed photos'
 * shown as 'Download failed: ...' when the server gives no reason of its own.
 */
export const listedEditedPhotosZip = (order: { name: string | null; orderNumber: number }): OrderZip => ({
  ...editedPhotosZip(order),
  successMessage: 'Completed photos downloaded successfully!',
  failureMessage: 'Download failed: Failed to download completed photos',
});

interface OrderZipDownloadButtonProps
  extends Pick<ZipDownloadButtonProps, 'size' | 'variant' | 'fullWidth' | 'disabled' | 'align'> {
  orderId: string;
  zip: OrderZip;
  label: string;
}

/** Downloads one of an order's zips (edited photos, MLS-ready copies, originals) from its route under the order. */
export function OrderZipDownloadButton({ orderId, zip, ...buttonProps }: OrderZipDownloadButtonProps) {
  const waitForOrderZip = useOrderZipWait();
  return (
    <ZipDownloadButton
      {...buttonProps}
      waitForZip={(options) =>
        waitForOrderZip(`/api/orders/${encodeURIComponent(orderId)}/${zip.route}`, { orderId, kind: zip.kind }, options)
      }
      filename={zip.filename}
      successMessage={zip.successMessage}
      failureMessage={zip.failureMessage}
    />
  );
}
