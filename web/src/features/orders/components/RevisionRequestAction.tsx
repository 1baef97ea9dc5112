import { Button, Text } from '@mantine/core';
import type { OrderDetailView } from '@marketplace/events/orders';
import { IconArrowBackUp } from '@tabler/icons-react';
import { useState } from 'react';
import { RevisionRequestModal } from './RevisionRequestModal';

/**
 * 'Request Revision' on an order that can still be sent back; when it cannot, the reason stands
 * where the button was (the window closed, the free rounds used, a round already open).
 */
export function RevisionRequestAction({ order }: { order: OrderDetailView }) {
  const [opened, setOpened] = useState(false);
  if (order.canRequestRevision) {
    return (
      <>
        <Button
          variant="outline"
          color="#9a3c00"
          fullWidth
          leftSection={<IconArrowBackUp size={18} aria-hidden="true" />}
          onClick={() => setOpened(true)}
        >
          Request Revision
        </Button>
        <RevisionRequestModal
          orderId={order.id}
          roundsUsed={order.revisions.length}
          opened={opened}
          onClose={() => setOpened(false)}
        />
      </>
    );
  }
  if (!order.revisionUnavailableReason) return null;
  return (
    <Text fz="sm" c="gray.7" data-testid="revision-unavailable">
      {order.revisionUnavailableReason}
    </Text>
  );
}
