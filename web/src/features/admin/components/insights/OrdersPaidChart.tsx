import { BarChart } from '@mantine/charts';
import type { InsightsView } from '@marketplace/events/insights';
import { CHART_HEIGHT, ChartCard, readableChartText } from './ChartCard';
import { formatCount, formatDay, formatShortDay } from './insight-figures';

/** Orders paid per day, with the day's completions in the table. */
export function OrdersPaidChart({ view }: { view: InsightsView }) {
  return (
    <ChartCard
      title="Orders paid per day"
      chart={
        <BarChart
          h={CHART_HEIGHT}
          data={view.days.map((day) => ({ label: formatShortDay(day.date), paid: day.ordersPaid }))}
          dataKey="label"
          series={[{ name: 'paid', label: 'Orders paid', color: 'harbor.7' }]}
          valueFormatter={formatCount}
          yAxisProps={{ allowDecimals: false, width: 40 }}
          style={readableChartText}
          maxBarWidth={28}
        />
      }
      figures={{
        caption: `Orders paid and completed per day, ${formatDay(view.from)} to ${formatDay(view.to)} (${view.timeZone})`,
        headers: ['Day', 'Orders paid', 'Orders completed'],
        rows: view.days.map((day) => ({
          key: day.date,
          cells: [formatDay(day.date), formatCount(day.ordersPaid), formatCount(day.ordersCompleted)],
        })),
      }}
    />
  );
}
