import { Stack, Text } from '@mantine/core';
import { mlsZipFilename } from '@marketplace/events/delivery';
import type { OrderDetailView } from '@marketplace/events/orders';
import { editedPhotosZip, type OrderZip, OrderZipDownloadButton } from '../../../components/OrderZipDownloadButton';

const mlsReadyZip = (order: OrderDetailView): OrderZip => ({
  route: 'download-mls',
  kind: 'mls',
  filename: mlsZipFilename(order),
  successMessage: 'MLS-ready photos downloaded successfully!',
  failureMessage: 'Failed to download MLS-ready photos',
});

/**
 * The delivery as two zips, both in listing order: the spec's 'Download Edited Photos' (full
 * resolution, `{order name}_edited_photos.zip`) first, and the MLS-ready copies beside it. While a
 * revision is with the editor, the delivery the photographer already had stays theirs, and says so.
 */
export function DeliveryDownloads({ order }: { order: OrderDetailView }) {
  if (order.status !== 'completed' && order.status !== 'revision_requested') return null;
  const lastDelivery = order.status === 'revision_requested';
  return (
    <Stack
      gap={6}
      role="group"
      aria-label={lastDelivery ? 'Last delivery' : 'Delivery downloads'}
      aria-describedby={lastDelivery ? 'last-delivery-note' : undefined}
    >
      {lastDelivery && (
        <Text fz="sm" c="dimmed" id="last-delivery-note">
          Your last delivery stays yours while the revision is with the editor.
        </Text>
      )}
      <OrderZipDownloadButton
        orderId={order.id}
        zip={editedPhotosZip(order)}
        label="Download Edited Photos"
        size="md"
        fullWidth
      />
      <OrderZipDownloadButton
        orderId={order.id}
        zip={mlsReadyZip(order)}
        label="MLS-ready (zip)"
        size="md"
        variant="light"
        fullWidth
      />
    </Stack>
  );
}
