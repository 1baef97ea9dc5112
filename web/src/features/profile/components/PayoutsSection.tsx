import { Alert, Badge, Button, Stack, Table, Text, Title } from '@mantine/core';
import type { BankPayoutView, StripePayoutStatus } from '@marketplace/events/payouts';
import { IconAlertCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { SWRInfiniteResponse } from 'swr/infinite';
import { EarningsTable, orderTitle } from '../../../components/EarningsTable';
import { PageLoader } from '../../../components/PageLoader';
import { apiErrorText } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format-date';
import { formatMoney } from '../../../lib/format-money';
import { useBankPayouts, useEarnings } from '../api/payouts';
import { ProfileSection } from './ProfileSection';

const payoutBadges: Record<StripePayoutStatus, { label: string; color: string }> = {
  in_transit: { label: 'On its way', color: 'blue' },
  paid: { label: 'Paid', color: 'green' },
  failed: { label: 'Failed', color: 'red' },
};

/** A list's loading, error and empty states, its table, and 'Show more' by the server's cursor. */
function PagedTable<P extends { nextCursor: string | null }, R>({
  pages,
  rowsOf,
  what,
  empty,
  table,
}: {
  pages: SWRInfiniteResponse<P>;
  rowsOf: (page: P) => R[];
  what: string;
  empty: string;
  table: (rows: R[]) => ReactNode;
}) {
  const rows = pages.data?.flatMap(rowsOf) ?? [];
  const last = pages.data?.at(-1);
  const loadingMore = pages.isValidating && pages.data !== undefined && pages.size > pages.data.length;
  if (pages.isLoading) return <PageLoader label={`Loading your ${what}…`} />;
  if (pages.error && !rows.length) {
    return (
      <Alert
        color="red"
        icon={<IconAlertCircle size={18} aria-hidden="true" />}
        title={`Your ${what} could not be loaded`}
      >
        <Stack gap="xs" align="flex-start">
          <Text fz="sm">{apiErrorText(pages.error, `Failed to load your ${what}. Please try again.`)}</Text>
          <Button variant="light" color="red" size="xs" onClick={() => void pages.mutate()}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (!rows.length) {
    return (
      <Text fz="sm" c="gray.7">
        {empty}
      </Text>
    );
  }
  return (
    <Stack gap="sm">
      {table(rows)}
      {last?.nextCursor && (
        <Button
          variant="default"
          loading={loadingMore}
          onClick={() => void pages.setSize(pages.size + 1)}
          style={{ alignSelf: 'flex-start' }}
          aria-label={`Show more ${what}`}
        >
          Show more
        </Button>
      )}
    </Stack>
  );
}

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
