import { editedZipFilename } from '@marketplace/events/orders';
import { waitForCompletedZip } from '../lib/download-completed';
import { ZipDownloadButton, type ZipDownloadButtonProps } from './ZipDownloadButton';

interface DownloadEditedPhotosButtonProps extends Pick<ZipDownloadButtonProps, 'size' | 'variant' | 'fullWidth'> {
  order: { id: string; name: string | null; orderNumber: number };
  label?: string;
}

/** The photographer's download of a completed order's edited photos, as one zip. */
export function DownloadEditedPhotosButton({
  order,
  label = 'Download',
  ...buttonProps
}: DownloadEditedPhotosButtonProps) {
  return (
    <ZipDownloadButton
      {...buttonProps}
      label={label}
      waitForZip={(options) => waitForCompletedZip(order.id, options)}
      filename={editedZipFilename(order)}
      successMessage="Completed photos downloaded successfully!"
      failureMessage="Failed to download photos"
    />
  );
}
