import { AreaChart } from '@mantine/charts';
import type { InsightsView } from '@marketplace/events/insights';
import { CHART_HEIGHT, ChartCard, readableChartText } from './ChartCard';
import { formatDay, poolByHourOfDay } from './insight-figures';

const depthFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
const formatDepth = (depth: number) => depthFormat.format(depth);

/** The open pool through the admin's day: when paid orders pile up faster than editors take them. */
export function PoolDepthChart({ view }: { view: InsightsView }) {
  const hours = poolByHourOfDay(view.poolDepth, view.timeZone);
  const busiest = hours.reduce<(typeof hours)[number] | undefined>(
    (peak, hour) => (!peak || hour.peakDepth > peak.peakDepth ? hour : peak),
    undefined,
  );
  return (
    <ChartCard
      title="Open pool through the day"
      description={
        busiest && busiest.peakDepth > 0
          ? `Paid orders waiting for an editor at the end of each hour (${view.timeZone}). Deepest: ${busiest.peakDepth} at ${busiest.label}.`
          : `Paid orders waiting for an editor at the end of each hour (${view.timeZone}).`
      }
      chart={
        <AreaChart
          h={CHART_HEIGHT}
          data={hours}
          dataKey="label"
          series={[
            { name: 'averageDepth', label: 'Average', color: 'harbor.7' },
            { name: 'peakDepth', label: 'Peak', color: 'orange.7' },
          ]}
          curveType="linear"
          xAxisProps={{ padding: { left: 8, right: 16 } }}
          withDots={false}
          fillOpacity={0.15}
          valueFormatter={formatDepth}
          yAxisProps={{ allowDecimals: false, width: 40 }}
          style={readableChartText}
          withLegend
          legendProps={{ verticalAlign: 'bottom', height: 36 }}
        />
      }
      figures={{
        caption: `Open pool by hour of day (${view.timeZone}), ${formatDay(view.from)} to ${formatDay(view.to)}`,
        headers: ['Hour', 'Average depth', 'Peak depth'],
        rows: hours.map((hour) => ({
          key: hour.label,
          cells: [hour.label, formatDepth(hour.averageDepth), String(hour.peakDepth)],
        })),
      }}
    />
  );
}
