import type { InsightsView } from '@marketplace/events/insights';
import { formatMoney } from '../../../../lib/format-money';
import { ChartCard } from './ChartCard';
import { formatCompactMoney, formatCount, formatDay } from './insight-figures';
import { NamedBarChart } from './NamedBarChart';

/** The job mix's add-ons (decision 0109): what orders paid in the range paid for each add-on, most first. */
export function AddOnRevenueChart({ view }: { view: InsightsView }) {
  const addOns = [...(view.addOns ?? [])].sort(
    (a, b) => b.revenueCents - a.revenueCents || a.name.localeCompare(b.name),
  );
  if (addOns.length === 0) return null;
  return (
    <ChartCard
      title="Add-on revenue"
      description="What paid orders paid for each add-on (part of gross revenue)."
      chart={
        <NamedBarChart
          rows={addOns.map((addOn) => ({ name: addOn.name, value: addOn.revenueCents }))}
          label="Revenue"
          valueFormatter={formatCompactMoney}
        />
      }
      figures={{
        caption: `Add-on revenue, ${formatDay(view.from)} to ${formatDay(view.to)}`,
        headers: ['Add-on', 'Photos', 'Revenue'],
        rows: addOns.map((addOn) => ({
          key: addOn.addOnId,
          cells: [addOn.name, formatCount(addOn.photos), formatMoney(addOn.revenueCents)],
        })),
      }}
    />
  );
}
