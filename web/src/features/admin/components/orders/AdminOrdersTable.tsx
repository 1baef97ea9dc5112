import { Anchor, Box, Checkbox, Paper, Stack, Table, Text } from '@mantine/core';
import type { AdminOrderView, AssignmentFilter } from '@marketplace/events/admin';
import { orderDisplayName } from '@marketplace/events/orders';
import { Link } from 'react-router';
import { OrderStatusBadge } from '../../../../components/OrderStatusBadge';
import { formatDate } from '../../../../lib/format-date';
import { AdminOrderActions } from './AdminOrderActions';
import type { OrderSelection } from './order-selection';

export const UNASSIGNED = 'Unassigned';

/** The desktop view of a page of the admin's orders. */
export function AdminOrdersTable({
  orders,
  filter,
  selection,
}: {
  orders: AdminOrderView[];
  filter: AssignmentFilter;
  selection: OrderSelection;
}) {
  return (
    <Paper withBorder radius="lg" style={{ overflow: 'hidden' }}>
      <Table.ScrollContainer minWidth={900}>
        <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col" w={48}>
                <Checkbox
                  aria-label="Select all orders on this page"
                  checked={selection.allSelected}
                  indeterminate={selection.someSelected}
                  disabled={!selection.anySelectable}
                  onChange={selection.toggleAll}
                />
              </Table.Th>
              <Table.Th scope="col">Order</Table.Th>
              <Table.Th scope="col">Photographer</Table.Th>
              <Table.Th scope="col">Photos</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
              <Table.Th scope="col">Editor</Table.Th>
              <Table.Th scope="col">Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {orders.map((order) => {
              const name = orderDisplayName(order);
              return (
                <Table.Tr key={order.id} bg={selection.isSelected(order.id) ? 'harbor.0' : undefined}>
                  <Table.Td>
                    <Checkbox
                      aria-label={`Select ${name}`}
                      checked={selection.isSelectable(order) && selection.isSelected(order.id)}
                      disabled={!selection.isSelectable(order)}
                      onChange={() => selection.toggle(order.id)}
                    />
                  </Table.Td>
                  <Table.Th scope="row" fw={600}>
                    <Stack gap={2}>
                      <Anchor component={Link} to={`/orders/${order.id}`} fw={600} style={{ overflowWrap: 'anywhere' }}>
                        {name}
                      </Anchor>
                      <Text component="span" fz="xs" fw={400} c="gray.7">
                        {order.jobTypeName} · <time dateTime={order.createdAt}>{formatDate(order.createdAt)}</time>
                      </Text>
                    </Stack>
                  </Table.Th>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{order.photographer.display_name}</Table.Td>
                  <Table.Td>{order.photoCount}</Table.Td>
                  <Table.Td>
                    {/* A badge's label gives way to an ellipsis; the column keeps the whole word instead. */}
                    <Box w="max-content">
                      <OrderStatusBadge status={order.status} size="sm" />
                    </Box>
                  </Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    {order.editor ? (
                      order.editor.display_name
                    ) : (
                      // The cell breaks long names anywhere; our own one word stays whole ('Unassigne d' at 1280 px).
                      <Text span fz="sm" c="gray.7" style={{ whiteSpace: 'nowrap' }}>
                        {UNASSIGNED}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    <AdminOrderActions order={order} filter={filter} onAssigned={selection.clear} />
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
