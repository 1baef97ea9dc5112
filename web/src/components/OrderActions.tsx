import { Button, Group } from '@mantine/core';
import type { OrderStatus } from '@marketplace/events/orders';
import { IconCreditCard, IconEye } from '@tabler/icons-react';
import { Link } from 'react-router';
import { listedEditedPhotosZip, OrderZipDownloadButton } from './OrderZipDownloadButton';

interface OrderActionsProps {
  order: { id: string; name: string | null; orderNumber: number; status: OrderStatus };
  fullWidth?: boolean;
}

/** What a photographer can do with an order in a list: view it, download it when completed, or pay for it. */
export function OrderActions({ order, fullWidth }: OrderActionsProps) {
  return (
    <Group gap="xs" align="flex-start" wrap="wrap" grow={fullWidth}>
      <Button
        component={Link}
        to={`/orders/${order.id}`}
        size="xs"
        variant="default"
        leftSection={<IconEye size={16} aria-hidden="true" />}
      >
        View
      </Button>
      {order.status === 'completed' && (
        <OrderZipDownloadButton
          orderId={order.id}
          zip={listedEditedPhotosZip(order)}
          label="Download"
          size="xs"
          fullWidth={fullWidth}
        />
      )}
      {order.status === 'pending_payment' && (
        <Button
          component={Link}
          to={`/orders/${order.id}/payment`}
          size="xs"
          color="red.9"
          leftSection={<IconCreditCard size={16} aria-hidden="true" />}
        >
          Complete Payment
        </Button>
      )}
    </Group>
  );
}
