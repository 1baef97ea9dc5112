import { Alert, SimpleGrid, Skeleton } from '@mantine/core';
import { IconClockHour4, IconCurrencyDollar, IconPhoto, IconReceipt } from '@tabler/icons-react';
import { StatCard } from '../../../../components/StatCard';
import { formatMoney } from '../../../../lib/format-money';
import { usePhotographerStats } from '../../api/use-photographer-stats';

const iconSize = 22;

/** The four headline numbers at the top of the dashboard. */
export function StatsOverview() {
  const { data, error, isLoading } = usePhotographerStats();
  if (isLoading) {
    return (
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md" role="status" aria-label="Loading your totals">
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
    <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md">
      <StatCard label="Total Orders" value={String(data.totalOrders)} icon={<IconReceipt size={iconSize} />} />
      <StatCard label="Total Photos" value={String(data.totalPhotos)} icon={<IconPhoto size={iconSize} />} />
      <StatCard
        label="Total Spent"
        value={formatMoney(data.totalSpent)}
        icon={<IconCurrencyDollar size={iconSize} />}
      />
      <StatCard label="Active Orders" value={String(data.activeOrders)} icon={<IconClockHour4 size={iconSize} />} />
    </SimpleGrid>
  );
}
