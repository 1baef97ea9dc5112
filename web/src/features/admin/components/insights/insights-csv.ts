import { type CsvValue, csvLines } from '@marketplace/events/csv';
import type { InsightEditor, InsightsView } from '@marketplace/events/insights';
import { RATING_MAX } from '@marketplace/events/orders';
import { poolByHourOfDay, rangeLabel, weekFigures } from './insight-figures';

/** Cents as a plain dollar figure a spreadsheet can add up: 123456 -> 1234.56. */
const dollars = (cents: number) => (cents / 100).toFixed(2);
const hours = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);
const percent = (share: number | null) => (share === null ? null : Math.round(share * 1000) / 10);
const rating = (value: number | null) => (value === null ? null : Math.round(value * 100) / 100);

/**
 * The Insights tab as one CSV file: a section per table shown (totals, days, weeks, job types,
 * the pool through the day, editors in the order on screen), each a title row, a header row and
 * its rows, with a blank line between. Money in dollars, durations in hours, shares in percent.
 */
export function insightsCsv(view: InsightsView, editors: readonly InsightEditor[] = view.editors): string {
  const { totals } = view;
  const jobTypeOrders = view.jobTypes.reduce((sum, jobType) => sum + jobType.orders, 0);
  const sections: CsvValue[][][] = [
    [
      ['Insights', rangeLabel(view.range)],
      ['Time zone', view.timeZone],
      ['From', view.from],
      ['To', view.to],
    ],
    [
      ['Totals'],
      ['Figure', 'Value'],
      ['Gross (USD)', dollars(totals.grossCents)],
      ['Refunds (USD)', dollars(totals.refundsCents)],
      ['Net (USD)', dollars(totals.netCents)],
      ['Orders paid', totals.ordersPaid],
      ['Orders completed', totals.ordersCompleted],
      ['Completed within 48 h', totals.completedWithinPromise],
      ['Within 48 h (%)', percent(totals.withinPromiseShare)],
      ['Turnaround p50 (h)', hours(totals.turnaroundP50Hours)],
      ['Turnaround p90 (h)', hours(totals.turnaroundP90Hours)],
      ['Revision requests', totals.revisionRequests],
      ['Revision rate (%)', percent(totals.revisionRate)],
    ],
    [
      ['Days'],
      ['Date', 'Gross (USD)', 'Refunds (USD)', 'Net (USD)', 'Orders paid', 'Orders completed'],
      ...view.days.map((day) => [
        day.date,
        dollars(day.grossCents),
        dollars(day.refundsCents),
        dollars(day.netCents),
        day.ordersPaid,
        day.ordersCompleted,
      ]),
    ],
    [
      ['Weeks'],
      [
        'Week starting',
        'Gross (USD)',
        'Refunds (USD)',
        'Net (USD)',
        'Orders paid',
        'Orders completed',
        'Turnaround p50 (h)',
        'Turnaround p90 (h)',
        'Within 48 h (%)',
      ],
      ...weekFigures(view).map((week) => [
        week.start,
        dollars(week.grossCents),
        dollars(week.refundsCents),
        dollars(week.netCents),
        week.ordersPaid,
        week.completed,
        hours(week.turnaroundP50Hours),
        hours(week.turnaroundP90Hours),
        percent(week.withinPromiseShare),
      ]),
    ],
    [
      ['Job types'],
      ['Job type', 'Orders paid', 'Share (%)'],
      ...view.jobTypes.map((jobType) => [
        jobType.name,
        jobType.orders,
        jobTypeOrders ? percent(jobType.orders / jobTypeOrders) : null,
      ]),
    ],
    [
      ['Open pool by hour of day'],
      [`Hour (${view.timeZone})`, 'Average depth', 'Peak depth'],
      ...poolByHourOfDay(view.poolDepth, view.timeZone).map((hour) => [hour.label, hour.averageDepth, hour.peakDepth]),
    ],
    [
      ['Editors'],
      [
        'Editor',
        'Completed',
        `Average rating (of ${RATING_MAX})`,
        'Ratings',
        'Average turnaround (h)',
        'Late',
        'Earnings (USD)',
      ],
      ...editors.map((editor) => [
        editor.name,
        editor.completed,
        rating(editor.averageRating),
        editor.ratings,
        hours(editor.averageTurnaroundHours),
        editor.late,
        dollars(editor.earningsCents),
      ]),
    ],
  ];
  // A byte-order mark so a spreadsheet opened by double-click reads names as UTF-8.
  return `\uFEFF${sections.map(csvLines).join('\r\n\r\n')}\r\n`;
}

/** insights-30-days-2025-03-05.csv: the range and the last day shown. */
export const insightsCsvFileName = (view: InsightsView) => `insights-${view.range}-days-${view.to}.csv`;

/** Hands the CSV to the browser as a download; no server round trip, so it is exactly what is on screen. */
export function downloadCsv(fileName: string, csv: string) {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the file over; revoking at once can cancel it in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
