import { Group, Paper, Stack, Text } from '@mantine/core';
import { type OrderSummaryView, orderDisplayName } from '@marketplace/events/orders';
import { DueTime } from '../../../components/DueTime';
import { OrderActions } from '../../../components/OrderActions';
import { OrderStatusBadge } from '../../../components/OrderStatusBadge';
import { formatDate } from '../../../lib/format-date';
import { formatMoney } from '../../../lib/format-money';

/** The phone view of a page of orders: one card each, actions full width for thumbs. */
export function OrderCards({ orders }: { orders: OrderSummaryView[] }) {
  return (
    <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Orders">
      {orders.map((order) => (
        <Paper component="li" key={order.id} withBorder p="md" radius="md">
          <Stack gap="xs">
            <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
              <Text fw={650} style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                {orderDisplayName(order)}
              </Text>
              <OrderStatusBadge status={order.status} size="sm" />
            </Group>
            <Text fz="sm" c="gray.7">
              {order.jobTypeName}
            </Text>
            <Text fz="sm">
              {order.photoCount} {order.photoCount === 1 ? 'photo' : 'photos'} · {formatMoney(order.totalAmountCents)} ·{' '}
              <time dateTime={order.createdAt}>{formatDate(order.createdAt)}</time>
            </Text>
            <DueTime order={order} />
            <OrderActions order={order} fullWidth />
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
