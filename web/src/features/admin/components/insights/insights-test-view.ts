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

/** A day's money and orders, with nothing delivered (the platform's take 0). */
const aDay = (date: string, grossCents: number, refundsCents: number, ordersPaid: number, ordersCompleted: number) => ({
  date,
  grossCents,
  refundsCents,
  netCents: grossCents - refundsCents,
  ordersPaid,
  ordersCompleted,
  deliveredCents: 0,
  editorEarningsCents: 0,
  takeCents: 0,
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
    takeCents: 41_000,
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
    { ...aDay('2025-03-05', 48_000, 0, 5, 4), deliveredCents: 30_000, editorEarningsCents: 12_000, takeCents: 18_000 },
    { ...aDay('2025-03-06', 0, 0, 0, 2), deliveredCents: 16_000, editorEarningsCents: 5_000, takeCents: 11_000 },
    aDay('2025-03-07', 0, 0, 0, 0),
    aDay('2025-03-08', 0, 0, 0, 0),
    aDay('2025-03-09', 0, 8_000, 0, 0),
    { ...aDay('2025-03-10', 80_000, 0, 7, 6), deliveredCents: 10_000, editorEarningsCents: 4_000, takeCents: 6_000 },
    { ...aDay('2025-03-11', 0, 0, 0, 4), deliveredCents: 9_000, editorEarningsCents: 3_000, takeCents: 6_000 },
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
  addOns: [
    { addOnId: 'virtual-staging', name: 'Virtual staging', photos: 5, revenueCents: 12_000 },
    { addOnId: 'sky-replacement', name: 'Sky replacement', photos: 9, revenueCents: 1_800 },
  ],
  onTimeByTier: [
    { tier: 'standard', delivered: 12, onTime: 11, onTimeShare: 11 / 12 },
    { tier: 'express', delivered: 4, onTime: 3, onTimeShare: 0.75 },
    { tier: 'rush', delivered: 0, onTime: 0, onTimeShare: null },
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
