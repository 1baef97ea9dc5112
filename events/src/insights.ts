import { timeZone } from './time-zone';
import type { TurnaroundTier } from './turnaround';
import * as z from './zod';

/**
 * The admin's Insights tab: what sold, whether the turnaround promises hold (each order's due time,
 * from its tier), which editors are fast and well rated, and whether the open pool grows faster
 * than editors take it. Every figure comes from hourly rollups (UTC) the events keep, never from
 * reading orders; the route sums the hours of the range into the admin's own days.
 */
export const INSIGHT_RANGES = ['7', '30', '90'] as const;
export type InsightRange = (typeof INSIGHT_RANGES)[number];
export const DEFAULT_INSIGHT_RANGE: InsightRange = '30';

export const insightsQuery = /* @__PURE__ */ z.schema(() =>
  z.object({
    range: z._default(z.enum(INSIGHT_RANGES), DEFAULT_INSIGHT_RANGE),
    tz: z._default(timeZone, 'UTC'),
  }),
);
export type InsightsQuery = z.infer<typeof insightsQuery>;

/** One day of the admin's time zone. */
export interface InsightDay {
  /** YYYY-MM-DD in the admin's time zone. */
  date: string;
  grossCents: number;
  refundsCents: number;
  /** gross - refunds */
  netCents: number;
  ordersPaid: number;
  ordersCompleted: number;
  /** What was paid for the orders first delivered that day, their editors' earnings, and the platform's take: the rest. */
  deliveredCents: number;
  editorEarningsCents: number;
  takeCents: number;
}

/** One week (Monday first, the admin's time zone) of completions. */
export interface InsightWeek {
  /** YYYY-MM-DD of the week's Monday (or of the range's first day, for a partial first week). */
  weekStart: string;
  completed: number;
  /** From payment to first completion; null when nothing was completed that week. */
  turnaroundP50Hours: number | null;
  turnaroundP90Hours: number | null;
  /** Share of the week's first completions by the order's due time (its tier's promise) (0..1); null when none. */
  withinPromiseShare: number | null;
}

export interface InsightJobType {
  jobTypeId: string;
  name: string;
  /** Orders paid in the range. */
  orders: number;
}

/** An add-on's revenue in the range (decision 0109): the photos it was paid on and what they paid for it. */
export interface InsightAddOn {
  addOnId: string;
  name: string;
  photos: number;
  revenueCents: number;
}

/** The open pool (paid orders waiting for an editor) at the end of each hour of the range. */
export interface InsightPoolHour {
  /** The hour's start, an ISO instant (UTC). */
  hour: string;
  depth: number;
}

export interface InsightEditor {
  editorId: string;
  name: string;
  /** First completions in the range. */
  completed: number;
  averageRating: number | null;
  ratings: number;
  averageTurnaroundHours: number | null;
  /** Completions after the order's due time. */
  late: number;
  /** Booked at completion: photos x the editor's rate. */
  earningsCents: number;
}

/** One turnaround tier's delivery rounds in the range (first deliveries and re-deliveries with a due time). */
export interface InsightTier {
  tier: TurnaroundTier;
  delivered: number;
  /** Delivered by the round's due time. */
  onTime: number;
  /** onTime / delivered; null when nothing was delivered. */
  onTimeShare: number | null;
}

export interface InsightsView {
  range: InsightRange;
  timeZone: string;
  /** First and last day shown (YYYY-MM-DD, the admin's time zone); the last is today. */
  from: string;
  to: string;
  totals: {
    grossCents: number;
    refundsCents: number;
    netCents: number;
    /** Delivered orders' price less their editors' earnings, over the range. */
    takeCents: number;
    ordersPaid: number;
    ordersCompleted: number;
    completedWithinPromise: number;
    withinPromiseShare: number | null;
    turnaroundP50Hours: number | null;
    turnaroundP90Hours: number | null;
    revisionRequests: number;
    /** Revision requests per completion in the range; null when nothing was completed. */
    revisionRate: number | null;
  };
  days: InsightDay[];
  weeks: InsightWeek[];
  /** 'On time by turnaround': Standard, Express and Rush, in that order. */
  onTimeByTier: InsightTier[];
  jobTypes: InsightJobType[];
  /** Add-on revenue by add-on, highest first (included in grossCents). */
  addOns: InsightAddOn[];
  poolDepth: InsightPoolHour[];
  editors: InsightEditor[];
}
