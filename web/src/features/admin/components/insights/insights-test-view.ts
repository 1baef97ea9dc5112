import type { InsightEditor, InsightsView } from '@marketplace/events/insights';

export const anInsightEditor = (fields: Partial<InsightEditor> = {}): InsightEditor => ({
  editorId: 'editor-ana',
  name: 'Ana Retouch',
  completed: 5,
  averageRating: 4.8,
  ratings: 4,
  averageTurnaroundHours: 20.5,
  late: 0,
  earningsCents: 5_000,
  ...fields,
});

/**
 * Seven of an admin's days in Berlin, Wednesday to Tuesday (so the first week is a partial one),
 * with sales on two days, a refund, three editors and the pool at three hours.
 */
export const anInsightsView = (fields: Partial<InsightsView> = {}): InsightsView => ({
  range: '7',
  timeZone: 'Europe/Berlin',
  from: '2025-03-05',
  to: '2025-03-11',
  totals: {
    grossCents: 128_000,
    refundsCents: 8_000,
    netCents: 120_000,
    ordersPaid: 12,
    ordersCompleted: 16,
    completedWithinPromise: 14,
    withinPromiseShare: 0.875,
    turnaroundP50Hours: 21.5,
    turnaroundP90Hours: 46.25,
    revisionRequests: 2,
    revisionRate: 0.125,
  },
  days: [
    { date: '2025-03-05', grossCents: 48_000, refundsCents: 0, netCents: 48_000, ordersPaid: 5, ordersCompleted: 4 },
    { date: '2025-03-06', grossCents: 0, refundsCents: 0, netCents: 0, ordersPaid: 0, ordersCompleted: 2 },
    { date: '2025-03-07', grossCents: 0, refundsCents: 0, netCents: 0, ordersPaid: 0, ordersCompleted: 0 },
    { date: '2025-03-08', grossCents: 0, refundsCents: 0, netCents: 0, ordersPaid: 0, ordersCompleted: 0 },
    { date: '2025-03-09', grossCents: 0, refundsCents: 8_000, netCents: -8_000, ordersPaid: 0, ordersCompleted: 0 },
    { date: '2025-03-10', grossCents: 80_000, refundsCents: 0, netCents: 80_000, ordersPaid: 7, ordersCompleted: 6 },
    { date: '2025-03-11', grossCents: 0, refundsCents: 0, netCents: 0, ordersPaid: 0, ordersCompleted: 4 },
  ],
  weeks: [
    {
      weekStart: '2025-03-05',
      completed: 6,
      turnaroundP50Hours: 20,
      turnaroundP90Hours: 40,
      withinPromiseShare: 1,
    },
    {
      weekStart: '2025-03-10',
      completed: 10,
      turnaroundP50Hours: 22.5,
      turnaroundP90Hours: 50,
      withinPromiseShare: 0.8,
    },
  ],
  jobTypes: [
    { jobTypeId: 'hdr', name: 'HDR', orders: 9 },
    { jobTypeId: 'twilight', name: 'Virtual Twilight', orders: 3 },
  ],
  poolDepth: [
    { hour: '2025-03-10T02:00:00.000Z', depth: 0 },
    { hour: '2025-03-10T13:00:00.000Z', depth: 3 },
    { hour: '2025-03-11T13:00:00.000Z', depth: 5 },
  ],
  editors: [
    anInsightEditor(),
    anInsightEditor({
      editorId: 'editor-ben',
      name: 'Ben, the "Fixer"',
      completed: 3,
      averageRating: null,
      ratings: 0,
      averageTurnaroundHours: 30,
      late: 1,
      earningsCents: 3_000,
    }),
    anInsightEditor({
      editorId: 'editor-cleo',
      name: 'Cleo Lines',
      completed: 8,
      averageRating: 4.25,
      ratings: 6,
      averageTurnaroundHours: 44.25,
      late: 2,
      earningsCents: 9_000,
    }),
  ],
  ...fields,
});
