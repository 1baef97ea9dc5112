import { Badge, Stack, Table, Text, Title } from '@mantine/core';
import type { BankPayoutView, StripePayoutStatus } from '@marketplace/events/payouts';
import { EarningsTable, orderTitle } from '../../../components/EarningsTable';
import { PagedTable } from '../../../components/PagedTable';
import { formatDate } from '../../../lib/format-date';
import { formatMoney } from '../../../lib/format-money';
import { useBankPayouts, useEarnings } from '../api/payouts';
import { ProfileSection } from './ProfileSection';

const payoutBadges: Record<StripePayoutStatus, { label: string; color: string }> = {
  in_transit: { label: 'On its way', color: 'blue' },
  paid: { label: 'Paid', color: 'green' },
  failed: { label: 'Failed', color: 'red' },
};

function BankPayoutsTable({ payouts }: { payouts: BankPayoutView[] }) {
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table verticalSpacing="xs" striped aria-label="Payouts to your bank">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Date</Table.Th>
            <Table.Th ta="right">Amount</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Orders</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {payouts.map((payout) => {
            const badge = payoutBadges[payout.status];
            return (
              <Table.Tr key={payout.id}>
                <Table.Td>{formatDate(payout.arrivalDate ?? payout.createdAt)}</Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {formatMoney(payout.amountCents)}
                </Table.Td>
                <Table.Td>
                  <Badge variant="light" color={badge.color}>
                    {badge.label}
                  </Badge>
                  {payout.failureMessage && (
                    <Text fz="xs" c="red.8">
                      {payout.failureMessage}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  {payout.orders.length ? (
                    <Text fz="sm">{payout.orders.map((order) => orderTitle(order)).join(', ')}</Text>
                  ) : (
                    <Text fz="sm" c="gray.7">
                      —
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

/**
 * /profile's 'Payouts', for editors: the payouts Stripe made to their bank with the orders each
 * paid, and every order's earning on its way there (held, due, sent, paid out), newest first.
 */
export function PayoutsSection() {
  const payouts = useBankPayouts();
  const earnings = useEarnings();
  return (
    <ProfileSection
      title="Payouts"
      description="What Stripe paid to your bank, and each order's earning on its way there."
    >
      <Stack gap="xs">
        <Title order={3} fz="md">
          Payouts to your bank
        </Title>
        <PagedTable
          pages={payouts}
          rowsOf={(page) => page.payouts}
          what="payouts"
          empty="No payouts yet. Stripe pays your balance out to your bank on its schedule."
          table={(rows) => <BankPayoutsTable payouts={rows} />}
        />
      </Stack>
      <Stack gap="xs">
        <Title order={3} fz="md">
          Earnings
        </Title>
        <PagedTable
          pages={earnings}
          rowsOf={(page) => page.earnings}
          what="earnings"
          empty="No earnings yet. Each order you complete earns its rate for every photo."
          table={(rows) => <EarningsTable earnings={rows} label="Earnings" />}
        />
      </Stack>
    </ProfileSection>
  );
}
