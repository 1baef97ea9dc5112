import { Alert } from '@mantine/core';
import { IconClockHour4, IconCurrencyDollar, IconPhoto, IconReceipt } from '@tabler/icons-react';
import { StatCardGrid } from '../../../../components/StatCard';
import { formatMoney } from '../../../../lib/format-money';
import { usePhotographerStats } from '../../api/use-photographer-stats';

const iconSize = 22;

/** The four headline numbers at the top of the dashboard. */
export function StatsOverview() {
  const { data, error, isLoading } = usePhotographerStats();
  return (
    <StatCardGrid
      loading={isLoading}
      loadingLabel="Loading your totals"
      fallback={<Alert color="red">Your totals could not be loaded. Please try again later.</Alert>}
      cards={
        data && !error
          ? [
              { label: 'Total Orders', value: String(data.totalOrders), icon: <IconReceipt size={iconSize} /> },
              { label: 'Total Photos', value: String(data.totalPhotos), icon: <IconPhoto size={iconSize} /> },
              {
                label: 'Total Spent',
                value: formatMoney(data.totalSpent),
                icon: <IconCurrencyDollar size={iconSize} />,
              },
              { label: 'Active Orders', value: String(data.activeOrders), icon: <IconClockHour4 size={iconSize} /> },
            ]
          : undefined
      }
    />
  );
}
