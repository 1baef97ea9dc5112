import { BarChart } from '@mantine/charts';
import { readableChartText } from './ChartCard';

/**
 * Horizontal bars, one per named thing (a job type, an add-on): names stay readable and lengths
 * compare at a glance. The height grows with the rows.
 */
export function NamedBarChart({
  rows,
  label,
  valueFormatter,
  wholeNumbers = false,
}: {
  rows: { name: string; value: number }[];
  /** What a bar's value is ('Orders paid', 'Revenue'). */
  label: string;
  valueFormatter: (value: number) => string;
  wholeNumbers?: boolean;
}) {
  return (
    <BarChart
      h={Math.max(120, 44 * rows.length + 40)}
      data={rows}
      dataKey="name"
      orientation="vertical"
      series={[{ name: 'value', label, color: 'harbor.6' }]}
      valueFormatter={valueFormatter}
      {...(wholeNumbers ? { xAxisProps: { allowDecimals: false } } : {})}
      yAxisProps={{ width: 120 }}
      gridAxis="y"
      style={readableChartText}
      maxBarWidth={28}
    />
  );
}
