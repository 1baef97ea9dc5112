import type { InsightsView } from '@marketplace/events/insights';
import { ChartCard } from './ChartCard';
import { formatCount, formatDay, formatShare } from './insight-figures';
import { NamedBarChart } from './NamedBarChart';

/** Orders paid per job type, most first, as horizontal bars: names stay readable and lengths compare at a glance. */
export function JobTypeMixChart({ view }: { view: InsightsView }) {
  const jobTypes = [...view.jobTypes].sort((a, b) => b.orders - a.orders || a.name.localeCompare(b.name));
  const total = jobTypes.reduce((sum, jobType) => sum + jobType.orders, 0);
  return (
    <ChartCard
      title="Job type mix"
      description="Orders paid per job type."
      chart={
        <NamedBarChart
          rows={jobTypes.map((jobType) => ({ name: jobType.name, value: jobType.orders }))}
          label="Orders paid"
          valueFormatter={formatCount}
          wholeNumbers
        />
      }
      figures={{
        caption: `Orders paid per job type, ${formatDay(view.from)} to ${formatDay(view.to)}`,
        headers: ['Job type', 'Orders paid', 'Share'],
        rows: jobTypes.map((jobType) => ({
          key: jobType.jobTypeId,
          cells: [jobType.name, formatCount(jobType.orders), formatShare(total ? jobType.orders / total : null)],
        })),
      }}
    />
  );
}
