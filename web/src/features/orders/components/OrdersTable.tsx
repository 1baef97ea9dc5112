import { Paper, Stack, Table, Text } from '@mantine/core';
import { type OrderSummaryView, orderDisplayName } from '@marketplace/events/orders';
import { DueTime } from '../../../components/DueTime';
import { OrderActions } from '../../../components/OrderActions';
import { OrderStatusBadge } from '../../../components/OrderStatusBadge';
import { formatDate } from '../../../lib/format-date';
import { formatMoney } from '../../../lib/format-money';

/** The desktop view of a page of orders. */
export function OrdersTable({ orders }: { orders: OrderSummaryView[] }) {
  return (
    <Paper withBorder radius="lg" style={{ overflow: 'hidden' }}>
      <Table.ScrollContainer minWidth={760}>
        <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Order</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
              <Table.Th scope="col">Photos</Table.Th>
              <Table.Th scope="col">Total</Table.Th>
              <Table.Th scope="col">Created</Table.Th>
              <Table.Th scope="col">Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {orders.map((order) => (
              <Table.Tr key={order.id}>
                <Table.Th scope="row" fw={600}>
                  <Stack gap={2}>
                    <span>{orderDisplayName(order)}</span>
                    <Text component="span" fz="xs" fw={400} c="gray.7">
                      {order.jobTypeName}
                    </Text>
                    <DueTime order={order} fz="xs" />
                  </Stack>
                </Table.Th>
                <Table.Td>
                  <OrderStatusBadge status={order.status} size="sm" />
                </Table.Td>
                <Table.Td>{order.photoCount}</Table.Td>
                <Table.Td>{formatMoney(order.totalAmountCents)}</Table.Td>
                <Table.Td>
                  <time dateTime={order.createdAt}>{formatDate(order.createdAt)}</time>
                </Table.Td>
                <Table.Td>
                  <OrderActions order={order} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
