import * as z from './zod';

/**
 * Turnaround tiers: how soon a paid order (and each of its revision rounds) is due, and what the
 * faster ones add per photo (set by the admin per job type). Standard keeps the spec's 24-48 hour
 * promise at no surcharge. See docs/decisions/0110-turnaround-tiers.md.
 */
export const turnaroundTiers = ['standard', 'express', 'rush'] as const;
export type TurnaroundTier = (typeof turnaroundTiers)[number];
export const turnaroundTier = /* @__PURE__ */ z.schema(() =>
  z.enum(turnaroundTiers, { error: 'Please choose Standard, Express or Rush' }),
);

/** Orders made before tiers were standard ones. */
export const DEFAULT_TURNAROUND_TIER: TurnaroundTier = 'standard';

export const turnaroundHours: Record<TurnaroundTier, number> = { standard: 48, express: 24, rush: 12 };

export const turnaroundTierLabel: Record<TurnaroundTier, string> = {
  standard: 'Standard (48 h)',
  express: 'Express (24 h)',
  rush: 'Rush (12 h)',
};

/** A tier a record may lack (older orders): read as standard. */
export const tierOf = (tier: string | null | undefined): TurnaroundTier =>
  (turnaroundTiers as readonly string[]).includes(tier ?? '') ? (tier as TurnaroundTier) : DEFAULT_TURNAROUND_TIER;

/** The tiers that cost more than the base price: the job type's surcharges are named after them. */
export const surchargedTiers = ['express', 'rush'] as const;
export type SurchargedTier = (typeof surchargedTiers)[number];

/** A job type's surcharge per photo for each tier, in cents (standard: always 0). */
export type TierSurcharges = Record<SurchargedTier, number>;

export const tierSurchargeCents = (surcharges: Partial<TierSurcharges> | null | undefined, tier: TurnaroundTier) =>
  tier === 'standard' ? 0 : (surcharges?.[tier] ?? 0);

// ---------------------------------------------------------------- late delivery credit

/**
 * A delivery after its due time credits the photographer: 1% of the order's total per full 15
 * minutes late, at most 50%, in whole cents (rounded down). Decision 0111.
 */
export const LATE_CREDIT_STEP_MINUTES = 15;
export const LATE_CREDIT_PERCENT_PER_STEP = 1;
export const LATE_CREDIT_MAX_PERCENT = 50;

/** Whole minutes between the due time and the delivery; 0 when delivered on time. */
export const minutesLate = (dueAt: string | null | undefined, deliveredAt: Date) =>
  dueAt ? Math.max(0, Math.floor((deliveredAt.getTime() - Date.parse(dueAt)) / 60_000)) : 0;

export const lateCreditCents = (totalCents: number, lateMinutes: number) => {
  const percent = Math.min(
    LATE_CREDIT_MAX_PERCENT,
    Math.floor(lateMinutes / LATE_CREDIT_STEP_MINUTES) * LATE_CREDIT_PERCENT_PER_STEP,
  );
  return Math.floor((totalCents * percent) / 100);
};

/** '3 h' from 180 minutes, '45 min' under an hour, '1 h 30 min' otherwise. */
export const lateDurationText = (lateMinutes: number) => {
  const hours = Math.floor(lateMinutes / 60);
  const minutes = lateMinutes % 60;
  if (hours === 0) return `${minutes} min`;
  return minutes === 0 ? `${hours} h` : `${hours} h ${minutes} min`;
};

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** 'Delivered 3 h late: $2.40 credited' (the order page, the receipt and the email say the same). */
export const lateCreditText = (credit: { minutesLate: number; creditCents: number }) =>
  `Delivered ${lateDurationText(credit.minutesLate)} late: ${dollars(credit.creditCents)} credited`;

/** One delivery round's lateness as the order views show it (round 0: the first delivery). */
export interface LateCreditView {
  round: number;
  minutesLate: number;
  creditCents: number;
  /** Stripe's refund id once the credit has gone through; null while the worker has it. */
  refundId: string | null;
  text: string;
}
