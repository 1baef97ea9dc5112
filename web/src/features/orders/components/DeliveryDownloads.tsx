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
 * The delivery as two zips, both in listing order: the edited photos at full resolution, and the
 * MLS-ready copies. While a revision is with the editor, the delivery the photographer already had
 * stays theirs.
 */
export function DeliveryDownloads({ order }: { order: OrderDetailView }) {
  if (order.status !== 'completed' && order.status !== 'revision_requested') return null;
  return (
    <Stack gap={6} role="group" aria-labelledby="delivery-downloads-label">
      <Text fz="sm" fw={600} id="delivery-downloads-label">
        {order.status === 'completed' ? 'Download edited photos' : 'Download last delivery'}
      </Text>
      <OrderZipDownloadButton
        orderId={order.id}
        zip={editedPhotosZip(order)}
        label="Full resolution (zip)"
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
