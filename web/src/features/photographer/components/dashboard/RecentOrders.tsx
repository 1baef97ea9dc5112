import { Alert, Anchor, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { type OrderSummaryView, orderDisplayName } from '@marketplace/events/orders';
import { IconCirclePlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { DueTime } from '../../../../components/DueTime';
import { EmptyState } from '../../../../components/EmptyState';
import { OrderActions } from '../../../../components/OrderActions';
import { OrderStatusBadge } from '../../../../components/OrderStatusBadge';
import { formatDate } from '../../../../lib/format-date';
import { formatMoney } from '../../../../lib/format-money';
import { useRecentOrders } from '../../api/use-recent-orders';

const photoCountText = (count: number) => `${count} ${count === 1 ? 'photo' : 'photos'}`;

function RecentOrderItem({ order }: { order: OrderSummaryView }) {
  return (
    <Paper component="li" withBorder p="md" radius="md">
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Stack gap={4}>
            <Group gap="xs">
              <Text fw={650}>{orderDisplayName(order)}</Text>
              <OrderStatusBadge status={order.status} size="sm" />
            </Group>
            <Text fz="sm" c="gray.7">
              {photoCountText(order.photoCount)} · {formatMoney(order.totalAmountCents)} ·{' '}
              <time dateTime={order.createdAt}>{formatDate(order.createdAt)}</time>
            </Text>
            <DueTime order={order} />
          </Stack>
          <OrderActions order={order} />
        </Group>
      </Stack>
    </Paper>
  );
}

function RecentOrdersBody() {
  const { data, error, isLoading } = useRecentOrders();
  if (isLoading) {
    return (
      <Stack gap="sm" role="status" aria-label="Loading your recent orders">
        <Skeleton height={88} radius="md" />
        <Skeleton height={88} radius="md" />
      </Stack>
    );
  }
  if (error || !data) {
    return <Alert color="red">Your recent orders could not be loaded. Please try again later.</Alert>;
  }
  if (data.orders.length === 0) {
    return (
      <EmptyState
        title="No orders yet"
        action={
          <Button component={Link} to="/create-order" leftSection={<IconCirclePlus size={18} aria-hidden="true" />}>
            Create your first order
          </Button>
        }
      >
        Upload your listing photos, choose a service and our editors will return them within 24-48 hours.
      </EmptyState>
    );
  }
  return (
    <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Recent orders">
      {data.orders.map((order) => (
        <RecentOrderItem key={order.id} order={order} />
      ))}
    </Stack>
  );
}

/** The photographer's latest orders, each with what can be done with it next. */
export function RecentOrders() {
  return (
    <Stack gap="md" component="section" aria-labelledby="recent-orders-heading">
      <Group justify="space-between" align="baseline">
        <Title order={2} fz="lg" id="recent-orders-heading">
          Recent Orders
        </Title>
        <Anchor component={Link} to="/orders" fw={600} fz="sm">
          View all orders
        </Anchor>
      </Group>
      <RecentOrdersBody />
    </Stack>
  );
}
