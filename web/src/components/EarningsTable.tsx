import { Badge, Table, Text } from '@mantine/core';
import { orderDisplayName } from '@marketplace/events/orders';
import type { EarningView } from '@marketplace/events/payouts';
import { formatDate } from '../lib/format-date';
import { formatMoney } from '../lib/format-money';

/** An earning's or a payout's order, as lists name orders. */
export const orderTitle = (order: { orderNumber: number | null; orderName?: string | null; orderId: string }) =>
  order.orderNumber === null
    ? order.orderId
    : orderDisplayName({ name: order.orderName ?? null, orderNumber: order.orderNumber });

/** Where an earning is on its way to the editor's bank, in their words. */
export const earningStatus = (
  earning: EarningView,
  who: 'editor' | 'admin' = 'editor',
  now = new Date(),
): { label: string; color: string; detail?: string } => {
  switch (earning.state) {
    case 'held':
    case 'due':
      if (earning.holdReason === 'revision') return { label: 'Held', color: 'yellow', detail: 'A revision is open' };
      if (earning.holdReason === 'no_payout_account') {
        return {
          label: 'Held',
          color: 'yellow',
          detail: who === 'editor' ? 'Set up payouts to be paid' : 'No payout account yet',
        };
      }
      if (earning.holdReason === 'payouts_not_enabled') {
        return {
          label: 'Held',
          color: 'yellow',
          detail: who === 'editor' ? 'Your payout account is not ready yet' : 'Payout account not ready yet',
        };
      }
      if (earning.lastError) {
        return {
          label: 'Due',
          color: 'orange',
          detail: `${earning.lastError}${earning.nextAttemptAt ? ` Tried again after ${formatDate(earning.nextAttemptAt)}.` : ''}`,
        };
      }
      if (earning.releaseAt && Date.parse(earning.releaseAt) > now.getTime()) {
        return { label: 'Held', color: 'gray', detail: `Until ${formatDate(earning.releaseAt)} (revision window)` };
      }
      return {
        label: 'Due',
        color: 'blue',
        detail: who === 'editor' ? 'Being sent to your Stripe account' : "Being sent to the editor's Stripe account",
      };
    case 'transferred':
      return {
        label: 'Sent to Stripe',
        color: 'blue',
        ...(earning.transferredAt ? { detail: formatDate(earning.transferredAt) } : {}),
      };
    case 'paid_out':
      return earning.payoutId
        ? { label: 'Paid out', color: 'green', ...(earning.paidOutAt ? { detail: formatDate(earning.paidOutAt) } : {}) }
        : { label: 'Paid by hand', color: 'green' };
    case 'reversed':
      return {
        label: 'Reversed',
        color: 'red',
        detail: `The order was refunded${earning.reversedAt ? ` on ${formatDate(earning.reversedAt)}` : ''}`,
      };
  }
};

/** Each order's earning with where it is on its way to the editor's bank: the editor's list and an admin's. */
export function EarningsTable({
  earnings,
  label,
  who = 'editor',
}: {
  earnings: EarningView[];
  label: string;
  who?: 'editor' | 'admin';
}) {
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table verticalSpacing="xs" striped aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Order</Table.Th>
            <Table.Th>Completed</Table.Th>
            <Table.Th ta="right">Earning</Table.Th>
            <Table.Th>Status</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {earnings.map((earning) => {
            const status = earningStatus(earning, who);
            return (
              <Table.Tr key={earning.orderId}>
                <Table.Td>{orderTitle(earning)}</Table.Td>
                <Table.Td>{formatDate(earning.bookedAt)}</Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {formatMoney(earning.amountCents)}
                  {earning.paidByHandCents > 0 && (
                    <Text fz="xs" c="gray.7">
                      {formatMoney(earning.paidByHandCents)} paid by hand
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Badge variant="light" color={status.color}>
                    {status.label}
                  </Badge>
                  {status.detail && (
                    <Text fz="xs" c="gray.7">
                      {status.detail}
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
