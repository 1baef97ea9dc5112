import { describe, expect, it } from 'vitest';
import {
  formatDay,
  formatHours,
  formatShare,
  isQuietRange,
  poolByHourOfDay,
  revenueByWeek,
  weekStartOf,
} from './insight-figures';
import { anInsightsView } from './insights-test-view';

describe('The figures behind the charts', () => {
  it('starts weeks on Monday, the first one on the range’s first day', () => {
    expect(weekStartOf('2025-03-12', '2025-03-05')).toBe('2025-03-10');
    expect(weekStartOf('2025-03-16', '2025-03-05')).toBe('2025-03-10');
    expect(weekStartOf('2025-03-10', '2025-03-05')).toBe('2025-03-10');
    expect(weekStartOf('2025-03-07', '2025-03-05')).toBe('2025-03-05');
    expect(weekStartOf('2025-03-09', '2025-02-01')).toBe('2025-03-03');
  });

  it('sums the days into those weeks', () => {
    const view = anInsightsView();
    expect(revenueByWeek(view.days, view.from)).toEqual([
      {
        start: '2025-03-05',
        grossCents: 48_000,
        refundsCents: 8_000,
        netCents: 40_000,
        ordersPaid: 5,
        ordersCompleted: 6,
      },
      {
        start: '2025-03-10',
        grossCents: 80_000,
        refundsCents: 0,
        netCents: 80_000,
        ordersPaid: 7,
        ordersCompleted: 10,
      },
    ]);
  });

  it('shows a day of the admin’s zone as that calendar day, whatever the browser’s offset', () => {
    expect(formatDay('2025-03-05')).toBe('Mar 5, 2025');
    expect(formatDay('2025-12-31')).toBe('Dec 31, 2025');
  });

  it('averages and peaks the pool by the hour of the admin’s day', () => {
    const pool = [
      { hour: '2025-03-10T13:00:00.000Z', depth: 3 },
      { hour: '2025-03-11T13:00:00.000Z', depth: 4 },
      { hour: '2025-03-11T23:00:00.000Z', depth: 1 },
    ];
    expect(poolByHourOfDay(pool, 'America/New_York')).toEqual([
      { hour: 9, label: '09:00', averageDepth: 3.5, peakDepth: 4 },
      { hour: 19, label: '19:00', averageDepth: 1, peakDepth: 1 },
    ]);
    // Half an hour ahead of a whole hour: the UTC hour counts in the local hour it starts in.
    expect(poolByHourOfDay(pool, 'Asia/Kolkata').map((hour) => hour.label)).toEqual(['04:00', '18:00']);
  });

  it('follows the zone’s clock change: the same UTC hour is an hour later in summer', () => {
    const pool = [
      { hour: '2025-03-29T12:00:00.000Z', depth: 1 },
      { hour: '2025-03-31T12:00:00.000Z', depth: 2 },
    ];
    expect(poolByHourOfDay(pool, 'Europe/Berlin').map((hour) => hour.label)).toEqual(['13:00', '14:00']);
  });

  it('formats hours, shares and the lack of a figure', () => {
    expect(formatHours(21.25)).toBe('21.3 h');
    expect(formatHours(null)).toBe('—');
    expect(formatShare(0.875)).toBe('87.5%');
    expect(formatShare(1)).toBe('100%');
    expect(formatShare(null)).toBe('—');
  });

  it('calls a range quiet only when nothing was paid, completed or refunded and the pool stayed empty', () => {
    const quiet = anInsightsView({
      totals: {
        ...anInsightsView().totals,
        grossCents: 0,
        refundsCents: 0,
        netCents: 0,
        ordersPaid: 0,
        ordersCompleted: 0,
      },
      poolDepth: [{ hour: '2025-03-10T13:00:00.000Z', depth: 0 }],
    });
    expect(isQuietRange(quiet)).toBe(true);
    expect(isQuietRange({ ...quiet, poolDepth: [{ hour: '2025-03-10T13:00:00.000Z', depth: 1 }] })).toBe(false);
    expect(isQuietRange(anInsightsView())).toBe(false);
  });
});
