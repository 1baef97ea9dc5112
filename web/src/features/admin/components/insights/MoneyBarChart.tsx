import { BarChart, type BarChartSeries } from '@mantine/charts';
import { formatMoney } from '../../../../lib/format-money';
import { CHART_HEIGHT, readableChartText } from './ChartCard';
import { formatCompactMoney } from './insight-figures';

/**
 * Bars of money per period (cents; dollars on the axis and in the tooltip) with the legend below:
 * the revenue chart's grouped bars and the platform's take's stacked ones look alike this way.
 */
export function MoneyBarChart({
  data,
  series,
  stacked = false,
}: {
  data: Record<string, string | number>[];
  series: BarChartSeries[];
  stacked?: boolean;
}) {
  return (
    <BarChart
      h={CHART_HEIGHT}
      type={stacked ? 'stacked' : 'default'}
      data={data}
      dataKey="label"
      series={series}
      valueFormatter={formatMoney}
      yAxisProps={{ tickFormatter: formatCompactMoney, width: 56 }}
      style={readableChartText}
      withLegend
      legendProps={{ verticalAlign: 'bottom', height: 36 }}
      maxBarWidth={28}
    />
  );
}
