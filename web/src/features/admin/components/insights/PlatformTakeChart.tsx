import type { InsightsView } from '@marketplace/events/insights';
import { formatMoney } from '../../../../lib/format-money';
import { ChartCard } from './ChartCard';
import { formatDay, formatShortDay } from './insight-figures';
import { MoneyBarChart } from './MoneyBarChart';

/**
 * The platform's take per day: what photographers paid for the orders first delivered that day,
 * split into their editors' earnings and the rest, which the platform keeps (stacked bars).
 */
export function PlatformTakeChart({ view }: { view: InsightsView }) {
  const title = "Platform's take per day";
  return (
    <ChartCard
      title={title}
      description="Each day's delivered orders: what their editors earned, and what the platform keeps."
      chart={
        <MoneyBarChart
          stacked
          data={view.days.map((day) => ({
            label: formatShortDay(day.date),
            editors: day.editorEarningsCents,
            take: day.takeCents,
          }))}
          series={[
            { name: 'editors', label: "Editors' earnings", color: 'orange.6' },
            { name: 'take', label: "Platform's take", color: 'harbor.9' },
          ]}
        />
      }
      figures={{
        caption: `${title}, ${formatDay(view.from)} to ${formatDay(view.to)} (${view.timeZone})`,
        headers: ['Day', 'Delivered orders paid', "Editors' earnings", "Platform's take"],
        rows: view.days.map((day) => ({
          key: day.date,
          cells: [
            formatDay(day.date),
            formatMoney(day.deliveredCents),
            formatMoney(day.editorEarningsCents),
            formatMoney(day.takeCents),
          ],
        })),
      }}
    />
  );
}
