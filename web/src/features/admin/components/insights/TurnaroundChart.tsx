import { BarChart, LineChart } from '@mantine/charts';
import { Stack, Text } from '@mantine/core';
import type { InsightsView } from '@marketplace/events/insights';
import { TURNAROUND_HOURS } from '@marketplace/events/orders';
import { CHART_HEIGHT, ChartCard, readableChartText } from './ChartCard';
import { formatCount, formatDay, formatHours, formatShare, formatShortDay } from './insight-figures';

const hoursTick = (hours: number) => `${hours} h`;
const percentTick = (percent: number) => `${percent}%`;

/**
 * Turnaround from payment to completion per week: the median and the slowest tenth as lines
 * against Standard's 48 hours, and beside them the share of the week's orders delivered by their
 * own due time (an Express or Rush order's is sooner).
 */
export function TurnaroundChart({ view }: { view: InsightsView }) {
  const weeks = view.weeks.map((week) => ({
    label: formatShortDay(week.weekStart),
    p50: week.turnaroundP50Hours,
    p90: week.turnaroundP90Hours,
    within: week.withinPromiseShare === null ? null : Math.round(week.withinPromiseShare * 1000) / 10,
  }));
  return (
    <ChartCard
      title={`Turnaround and the ${TURNAROUND_HOURS} h promise`}
      description="Hours from payment to completion, per week: p50 is the median order, p90 the slowest tenth."
      chart={
        <Stack gap="md">
          <Stack gap={4}>
            <Text fz="sm" fw={600}>
              Turnaround (p50, p90)
            </Text>
            <LineChart
              h={CHART_HEIGHT}
              data={weeks}
              dataKey="label"
              series={[
                { name: 'p50', label: 'p50', color: 'harbor.7' },
                { name: 'p90', label: 'p90', color: 'orange.7' },
              ]}
              referenceLines={[
                {
                  y: TURNAROUND_HOURS,
                  label: `${TURNAROUND_HOURS} h promise`,
                  color: 'red.8',
                  labelPosition: 'insideBottomRight',
                },
              ]}
              connectNulls={false}
              curveType="linear"
              // Room at the ends, so a first or last week's dot is drawn whole.
              xAxisProps={{ padding: { left: 16, right: 16 } }}
              valueFormatter={hoursTick}
              yAxisProps={{
                width: 48,
                domain: [0, (max: number) => Math.ceil(Math.max(max, TURNAROUND_HOURS * 1.25) / 12) * 12],
              }}
              style={readableChartText}
              withLegend
              legendProps={{ verticalAlign: 'bottom', height: 36 }}
            />
          </Stack>
          <Stack gap={4}>
            <Text fz="sm" fw={600}>
              Completed within {TURNAROUND_HOURS} h
            </Text>
            <BarChart
              h={CHART_HEIGHT}
              data={weeks}
              dataKey="label"
              series={[{ name: 'within', label: `Within ${TURNAROUND_HOURS} h`, color: 'teal.8' }]}
              valueFormatter={percentTick}
              yAxisProps={{ width: 48, domain: [0, 100] }}
              style={readableChartText}
              maxBarWidth={36}
            />
          </Stack>
        </Stack>
      }
      figures={{
        caption: `Turnaround per week, ${formatDay(view.from)} to ${formatDay(view.to)} (${view.timeZone})`,
        headers: ['Week starting', 'Completed', 'p50', 'p90', `Within ${TURNAROUND_HOURS} h`],
        rows: view.weeks.map((week) => ({
          key: week.weekStart,
          cells: [
            formatDay(week.weekStart),
            formatCount(week.completed),
            formatHours(week.turnaroundP50Hours),
            formatHours(week.turnaroundP90Hours),
            formatShare(week.withinPromiseShare),
          ],
        })),
      }}
    />
  );
}
