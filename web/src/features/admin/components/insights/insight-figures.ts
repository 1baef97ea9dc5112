import type { InsightDay, InsightPoolHour, InsightsView, InsightWeek } from '@marketplace/events/insights';
import { RATING_MAX } from '@marketplace/events/orders';
import { format } from 'date-fns';
import { formatDate } from '../../../../lib/format-date';

/** A YYYY-MM-DD day of the admin's zone as a local calendar date, so formatting never shifts it by the browser's offset. */
const calendarDate = (day: string) => {
  const [year = 1970, month = 1, date = 1] = day.split('-').map(Number);
  return new Date(year, month - 1, date);
};

/** 'Mar 5, 2025', as dates read everywhere in the app. */
export const formatDay = (day: string) => formatDate(calendarDate(day));

/** 'Mar 5': an axis tick has no room for the year. */
export const formatShortDay = (day: string) => format(calendarDate(day), 'MMM d');

/** Where a figure has nothing to measure (no completions, no ratings). */
export const NO_FIGURE = '—';

const oneDecimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
const percent = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });
const compactUsd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  notation: 'compact',
  maximumFractionDigits: 1,
});

export const formatHours = (hours: number | null) => (hours === null ? NO_FIGURE : `${oneDecimal.format(hours)} h`);
export const formatShare = (share: number | null) => (share === null ? NO_FIGURE : percent.format(share));
/** '8.4/10', as the editor's own stats show a rating. */
export const formatRating = (rating: number | null) =>
  rating === null ? NO_FIGURE : `${rating.toFixed(1)}/${RATING_MAX}`;
export const formatCount = (count: number) => count.toLocaleString('en-US');
/** '$1.2K': money on an axis, where the full figure would take half the chart's width. */
export const formatCompactMoney = (cents: number) => compactUsd.format(cents / 100);

/** The Monday of a day's week, or the range's first day for a partial first week (as the route counts weeks). */
export const weekStartOf = (day: string, rangeStart: string) => {
  const date = new Date(`${day}T00:00:00Z`);
  const daysSinceMonday = (date.getUTCDay() + 6) % 7;
  date.setUTCDate(date.getUTCDate() - daysSinceMonday);
  const monday = date.toISOString().slice(0, 10);
  return monday < rangeStart ? rangeStart : monday;
};

export interface RevenuePeriod {
  /** YYYY-MM-DD: the day, or the week's first day in the range. */
  start: string;
  grossCents: number;
  refundsCents: number;
  netCents: number;
  ordersPaid: number;
  ordersCompleted: number;
}

/** The days summed into the weeks the turnaround figures use (Monday first). */
export function revenueByWeek(days: InsightDay[], rangeStart: string): RevenuePeriod[] {
  const weeks = new Map<string, RevenuePeriod>();
  for (const day of days) {
    const start = weekStartOf(day.date, rangeStart);
    const week = weeks.get(start) ?? {
      start,
      grossCents: 0,
      refundsCents: 0,
      netCents: 0,
      ordersPaid: 0,
      ordersCompleted: 0,
    };
    week.grossCents += day.grossCents;
    week.refundsCents += day.refundsCents;
    week.netCents += day.netCents;
    week.ordersPaid += day.ordersPaid;
    week.ordersCompleted += day.ordersCompleted;
    weeks.set(start, week);
  }
  return [...weeks.values()].sort((a, b) => a.start.localeCompare(b.start));
}

export const revenueByDay = (days: InsightDay[]): RevenuePeriod[] =>
  days.map(({ date, ...day }) => ({ start: date, ...day }));

/** One row of the weeks table: the week's money and orders beside its turnaround. */
export interface WeekFigures extends RevenuePeriod {
  completed: number;
  turnaroundP50Hours: number | null;
  turnaroundP90Hours: number | null;
  withinPromiseShare: number | null;
}

export function weekFigures(view: InsightsView): WeekFigures[] {
  const revenue = new Map(revenueByWeek(view.days, view.from).map((week) => [week.start, week]));
  const turnaround = new Map<string, InsightWeek>(view.weeks.map((week) => [week.weekStart, week]));
  const starts = [...new Set([...revenue.keys(), ...turnaround.keys()])].sort();
  return starts.map((start) => {
    const money = revenue.get(start);
    const week = turnaround.get(start);
    return {
      start,
      grossCents: money?.grossCents ?? 0,
      refundsCents: money?.refundsCents ?? 0,
      netCents: money?.netCents ?? 0,
      ordersPaid: money?.ordersPaid ?? 0,
      ordersCompleted: money?.ordersCompleted ?? 0,
      completed: week?.completed ?? 0,
      turnaroundP50Hours: week?.turnaroundP50Hours ?? null,
      turnaroundP90Hours: week?.turnaroundP90Hours ?? null,
      withinPromiseShare: week?.withinPromiseShare ?? null,
    };
  });
}

export interface PoolHourOfDay {
  /** 0..23 in the admin's zone. */
  hour: number;
  /** '08:00' */
  label: string;
  averageDepth: number;
  peakDepth: number;
}

/**
 * The pool's depth through the admin's day: for each hour of the day, the average and the peak
 * over the range's days. When in the day the pool grows is the capacity signal; a line over
 * every hour of 90 days (2,160 points) hides it.
 */
export function poolByHourOfDay(pool: InsightPoolHour[], timeZone: string): PoolHourOfDay[] {
  const hourOf = new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', hourCycle: 'h23' });
  const buckets = new Map<number, { total: number; samples: number; peak: number }>();
  for (const { hour, depth } of pool) {
    // A zone with a half-hour offset puts a UTC hour at :30; it counts in the local hour it starts in.
    const local = Number(hourOf.format(new Date(hour))) % 24;
    const bucket = buckets.get(local) ?? { total: 0, samples: 0, peak: 0 };
    bucket.total += depth;
    bucket.samples += 1;
    bucket.peak = Math.max(bucket.peak, depth);
    buckets.set(local, bucket);
  }
  return [...buckets.entries()]
    .sort(([a], [b]) => a - b)
    .map(([hour, { total, samples, peak }]) => ({
      hour,
      label: `${String(hour).padStart(2, '0')}:00`,
      averageDepth: Math.round((total / samples) * 10) / 10,
      peakDepth: peak,
    }));
}

/** Nothing was paid, completed or refunded, and the pool stayed empty: there is nothing to chart. */
export const isQuietRange = (view: InsightsView) =>
  view.totals.ordersPaid === 0 &&
  view.totals.ordersCompleted === 0 &&
  view.totals.grossCents === 0 &&
  view.totals.refundsCents === 0 &&
  view.poolDepth.every((hour) => hour.depth === 0);

/** 'Last 30 days' */
export const rangeLabel = (range: string) => `Last ${range} days`;
