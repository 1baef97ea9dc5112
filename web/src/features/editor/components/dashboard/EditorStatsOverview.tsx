import { Alert } from '@mantine/core';
import { IconCircleCheck, IconClockHour4, IconCurrencyDollar, IconHourglass } from '@tabler/icons-react';
import { StatCardGrid } from '../../../../components/StatCard';
import { formatMoney } from '../../../../lib/format-money';
import { useEditorStats } from '../../api/use-editor-stats';

const iconSize = 22;

/** The editor's four headline numbers: work in hand, work done, money earned and money owed. */
export function EditorStatsOverview() {
  const { data, error, isLoading } = useEditorStats();
  return (
    <StatCardGrid
      // Four across only on wide screens: beside the navigation bar, earnings in the thousands would break mid-number.
      wideFrom="xl"
      loading={isLoading}
      loadingLabel="Loading your totals"
      fallback={<Alert color="red">Your totals could not be loaded. Please try again later.</Alert>}
      cards={
        data && !error
          ? [
              { label: 'Active Orders', value: String(data.activeOrders), icon: <IconClockHour4 size={iconSize} /> },
              {
                label: 'Completed Orders',
                value: String(data.completedOrders),
                icon: <IconCircleCheck size={iconSize} />,
              },
              {
                label: 'Total Earnings',
                value: formatMoney(data.totalEarnings),
                icon: <IconCurrencyDollar size={iconSize} />,
              },
              {
                label: 'Pending Payouts',
                value: formatMoney(data.pendingPayouts),
                icon: <IconHourglass size={iconSize} />,
              },
            ]
          : undefined
      }
    />
  );
}
