import { Anchor, Checkbox, Group, Paper, Stack, Text } from '@mantine/core';
import type { AdminOrderView, AssignmentFilter } from '@marketplace/events/admin';
import { orderDisplayName } from '@marketplace/events/orders';
import { Link } from 'react-router';
import { OrderStatusBadge } from '../../../../components/OrderStatusBadge';
import { formatDate } from '../../../../lib/format-date';
import { AdminOrderActions } from './AdminOrderActions';
import { UNASSIGNED } from './AdminOrdersTable';
import type { OrderSelection } from './order-selection';

const photoCountText = (count: number) => `${count} ${count === 1 ? 'photo' : 'photos'}`;

/** The phone view of a page of the admin's orders: one card each, the same facts and actions as the table. */
export function AdminOrderCards({
  orders,
  filter,
  selection,
}: {
  orders: AdminOrderView[];
  filter: AssignmentFilter;
  selection: OrderSelection;
}) {
  return (
    <Stack gap="sm">
      <Checkbox
        label="Select all orders on this page"
        checked={selection.allSelected}
        indeterminate={selection.someSelected}
        disabled={!selection.anySelectable}
        onChange={selection.toggleAll}
      />
      <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Orders">
        {orders.map((order) => {
          const name = orderDisplayName(order);
          return (
            <Paper
              component="li"
              key={order.id}
              withBorder
              p="md"
              radius="md"
              bg={selection.isSelected(order.id) ? 'harbor.0' : undefined}
            >
              <Stack gap="xs">
                <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
                  <Group gap="sm" wrap="nowrap" align="flex-start" style={{ minWidth: 0 }}>
                    <Checkbox
                      mt={3}
                      aria-label={`Select ${name}`}
                      checked={selection.isSelectable(order) && selection.isSelected(order.id)}
                      disabled={!selection.isSelectable(order)}
                      onChange={() => selection.toggle(order.id)}
                    />
                    <Anchor component={Link} to={`/orders/${order.id}`} fw={650} style={{ overflowWrap: 'anywhere' }}>
                      {name}
                    </Anchor>
                  </Group>
                  <OrderStatusBadge status={order.status} size="sm" />
                </Group>
                <Text fz="sm" c="gray.7">
                  {order.jobTypeName} · {photoCountText(order.photoCount)} ·{' '}
                  <time dateTime={order.createdAt}>{formatDate(order.createdAt)}</time>
                </Text>
                <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
                  <Text span fz="sm" fw={600}>
                    Photographer:
                  </Text>{' '}
                  {order.photographer.display_name}
                </Text>
                <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
                  <Text span fz="sm" fw={600}>
                    Editor:
                  </Text>{' '}
                  {order.editor ? order.editor.display_name : UNASSIGNED}
                </Text>
                <AdminOrderActions order={order} filter={filter} onAssigned={selection.clear} fullWidth />
              </Stack>
            </Paper>
          );
        })}
      </Stack>
    </Stack>
  );
}
