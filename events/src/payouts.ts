import { REVISION_WINDOW_DAYS } from './orders';
import * as z from './zod';

/**
 * Editors paid through Stripe Connect: each editor's payout account (an Express connected
 * account), the earning of each completed order as an item that is held, then due, transferred to
 * the editor's account and paid out to their bank, and the payouts Stripe makes from that account.
 */

/**
 * Days after the last delivery an earning is held: the photographer's revision window. A revision
 * request holds the earning again; the re-delivery starts the window anew.
 */
export const EARNING_HOLD_DAYS = REVISION_WINDOW_DAYS;

/**
 * held: inside the revision window, back for a revision, or waiting for the editor's payout
 * account; due: the window closed and the transfer is being made (or retried); transferred: in
 * the editor's Stripe balance; paid_out: in the editor's bank (or paid by hand); reversed: taken
 * back after the order was refunded.
 */
export const earningStates = ['held', 'due', 'transferred', 'paid_out', 'reversed'] as const;
export type EarningState = (typeof earningStates)[number];

/** Why an earning is held beyond its window, or why its last transfer was refused. */
export const earningHoldReasons = ['revision', 'no_payout_account', 'payouts_not_enabled'] as const;
export type EarningHoldReason = (typeof earningHoldReasons)[number];

/**
 * not_set_up: no connected account yet; onboarding: made, its details not submitted; needs_info:
 * Stripe still needs something (`requirements`); pending: nothing due, Stripe is verifying;
 * enabled: transfers and payouts work; restricted: Stripe disabled the account.
 */
export const payoutAccountStatuses = [
  'not_set_up',
  'onboarding',
  'needs_info',
  'pending',
  'enabled',
  'restricted',
] as const;
export type PayoutAccountStatus = (typeof payoutAccountStatuses)[number];

export interface PayoutAccountView {
  status: PayoutAccountStatus;
  /** What Stripe still needs, in words ('bank account', 'date of birth'); empty when nothing is due. */
  requirements: string[];
  /** Stripe's reason for a restricted account, in words; null otherwise. */
  disabledReason: string | null;
  /** When the status was last read from Stripe; null before the account exists. */
  updatedAt: string | null;
}

/** Where onboarding sends the editor back to: the profile page or the editor dashboard. */
export const payoutReturnPages = ['profile', 'editor'] as const;

/** POST /api/payout-account/link: make the account if need be and a one-time onboarding link. */
export const payoutAccountLinkInput = /* @__PURE__ */ z.schema(() =>
  z.object({
    returnTo: z.enum(payoutReturnPages, { error: 'returnTo must be profile or editor' }),
  }),
);
export type PayoutAccountLinkInput = z.infer<typeof payoutAccountLinkInput>;

export interface PayoutAccountLinkView {
  /** Stripe's hosted onboarding; it works once and for a few minutes. */
  url: string;
  account: PayoutAccountView;
}

/** POST /api/payout-account/refresh: read the account from Stripe again (on return from onboarding). */
export const payoutAccountRefreshInput = /* @__PURE__ */ z.schema(() =>
  z.object({
    returnedFrom: z.enum(['onboarding'], { error: 'returnedFrom must be onboarding' }),
  }),
);

export interface EarningView {
  orderId: string;
  orderNumber: number | null;
  orderName: string | null;
  amountCents: number;
  state: EarningState;
  /** When the revision window closes (or closed); null while a revision is open. */
  releaseAt: string | null;
  holdReason: EarningHoldReason | null;
  /** Why the last transfer was refused (Stripe's words or ours), while it is being retried. */
  lastError: string | null;
  /** When the transfer will be tried again, after a refusal. */
  nextAttemptAt: string | null;
  transferId: string | null;
  transferredAt: string | null;
  /** The Stripe payout that took it to the bank; null when paid by hand or not yet paid out. */
  payoutId: string | null;
  paidOutAt: string | null;
  /** Part of it an admin paid by hand before the editor had a payout account. */
  paidByHandCents: number;
  reversedAt: string | null;
  bookedAt: string;
}

export const EARNINGS_PAGE_SIZE = 20;

/** GET /api/earnings (and an admin's /api/admin/editors/{id}/earnings): newest first, a page at a time. */
export const earningsQuery = /* @__PURE__ */ z.schema(() =>
  z.object({
    limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), EARNINGS_PAGE_SIZE),
    cursor: z.optional(z.string().check(z.trim(), z.maxLength(500))),
  }),
);
export type EarningsQuery = z.infer<typeof earningsQuery>;

export interface EarningsPage {
  earnings: EarningView[];
  /** Pass as `cursor` for older earnings; null on the last page. */
  nextCursor: string | null;
}

export const stripePayoutStatuses = ['in_transit', 'paid', 'failed'] as const;
export type StripePayoutStatus = (typeof stripePayoutStatuses)[number];

export interface BankPayoutView {
  id: string;
  amountCents: number;
  status: StripePayoutStatus;
  /** When Stripe expects it in the bank (or it arrived). */
  arrivalDate: string | null;
  failureMessage: string | null;
  /** The orders whose earnings it paid out. */
  orders: { orderId: string; orderNumber: number | null; orderName: string | null; amountCents: number }[];
  createdAt: string;
}

export const BANK_PAYOUTS_PAGE_SIZE = 20;

/** GET /api/payouts: the payouts Stripe made to the editor's bank, newest first. */
export const bankPayoutsQuery = earningsQuery;

export interface BankPayoutsPage {
  payouts: BankPayoutView[];
  nextCursor: string | null;
}

/** Stripe's requirement names (`individual.dob.day`) in words an editor understands. */
const requirementWords: [RegExp, string][] = [
  [/^external_account$/, 'bank account'],
  [/dob\./, 'date of birth'],
  [/ssn_last_4$|id_number$/, 'tax ID'],
  [/\.address\./, 'address'],
  [/(first_name|last_name)$/, 'legal name'],
  [/\.email$/, 'email address'],
  [/\.phone$/, 'phone number'],
  [/^tos_acceptance\./, "acceptance of Stripe's terms"],
  [/^business_profile\./, 'business details'],
  [/^business_type$/, 'business type'],
  [/verification\.document$/, 'identity document'],
];

/** The things Stripe still needs, in words, each once, in Stripe's order. */
export const requirementsInWords = (due: readonly string[]) => {
  const words = due.map((field) => requirementWords.find(([pattern]) => pattern.test(field))?.[1] ?? 'other details');
  return [...new Set(words)];
};
