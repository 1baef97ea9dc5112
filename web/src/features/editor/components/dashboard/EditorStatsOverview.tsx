import { Alert, SimpleGrid, Skeleton } from '@mantine/core';
import { IconCircleCheck, IconClockHour4, IconCurrencyDollar, IconHourglass } from '@tabler/icons-react';
import { StatCard } from '../../../../components/StatCard';
import { formatMoney } from '../../../../lib/format-money';
import { useEditorStats } from '../../api/use-editor-stats';

const iconSize = 22;
// Four across only on wide screens: beside the navigation bar, earnings in the thousands would break mid-number.

/** The editor's four headline numbers: work in hand, work done, money earned and money owed. */
export function EditorStatsOverview() {
  const { data, error, isLoading } = useEditorStats();
  if (isLoading) {
    return (
      <SimpleGrid cols={{ base: 2, xl: 4 }} spacing="md" role="status" aria-label="Loading your totals">
        {[0, 1, 2, 3].map((n) => (
          <Skeleton key={n} height={96} radius="lg" />
        ))}
      </SimpleGrid>
    );
  }
  if (error || !data) {
    return <Alert color="red">Your totals could not be loaded. Please try again later.</Alert>;
  }
  return (
    <SimpleGrid cols={{ base: 2, xl: 4 }} spacing="md">
      <StatCard label="Active Orders" value={String(data.activeOrders)} icon={<IconClockHour4 size={iconSize} />} />
      <StatCard
        label="Completed Orders"
        value={String(data.completedOrders)}
        icon={<IconCircleCheck size={iconSize} />}
      />
      <StatCard
        label="Total Earnings"
        value={formatMoney(data.totalEarnings)}
        icon={<IconCurrencyDollar size={iconSize} />}
      />
      <StatCard
        label="Pending Payouts"
        value={formatMoney(data.pendingPayouts)}
        icon={<IconHourglass size={iconSize} />}
      />
    </SimpleGrid>
  );
}
