import { SegmentedControl } from '@mantine/core';
import type { InsightsView } from '@marketplace/events/insights';
import { useId } from 'react';
import { formatMoney } from '../../../../lib/format-money';
import { ChartCard } from './ChartCard';
import { formatDay, formatShortDay, type RevenuePeriod, revenueByDay, revenueByWeek } from './insight-figures';
import { MoneyBarChart } from './MoneyBarChart';

export type RevenuePeriodKind = 'day' | 'week';

const periodOptions = [
  { value: 'day', label: 'Per day' },
  { value: 'week', label: 'Per week' },
];

/** Gross, refunds and net per day or per week, as grouped bars. */
export function RevenueChart({
  view,
  per,
  onPerChange,
}: {
  view: InsightsView;
  per: RevenuePeriodKind;
  onPerChange: (per: RevenuePeriodKind) => void;
}) {
  const toggleLabelId = useId();
  const periods: RevenuePeriod[] = per === 'day' ? revenueByDay(view.days) : revenueByWeek(view.days, view.from);
  const title = per === 'day' ? 'Revenue per day' : 'Revenue per week';
  return (
    <ChartCard
      title={title}
      description="Gross is what was paid; refunds are what went back; net is what stays."
      actions={
        <>
          <span id={toggleLabelId} hidden>
            Revenue period
          </span>
          <SegmentedControl
            size="xs"
            aria-labelledby={toggleLabelId}
            data={periodOptions}
            value={per}
            onChange={(value) => onPerChange(value as RevenuePeriodKind)}
          />
        </>
      }
      chart={
        <MoneyBarChart
          data={periods.map((period) => ({
            label: formatShortDay(period.start),
            gross: period.grossCents,
            refunds: period.refundsCents,
            net: period.netCents,
          }))}
          series={[
            { name: 'gross', label: 'Gross', color: 'harbor.4' },
            { name: 'refunds', label: 'Refunds', color: 'orange.6' },
            { name: 'net', label: 'Net', color: 'harbor.9' },
          ]}
        />
      }
      figures={{
        caption: `${title}, ${formatDay(view.from)} to ${formatDay(view.to)} (${view.timeZone})`,
        headers: [per === 'day' ? 'Day' : 'Week starting', 'Gross', 'Refunds', 'Net'],
        rows: periods.map((period) => ({
          key: period.start,
          cells: [
            formatDay(period.start),
            formatMoney(period.grossCents),
            formatMoney(period.refundsCents),
            formatMoney(period.netCents),
          ],
        })),
      }}
    />
  );
}
