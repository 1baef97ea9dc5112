import type { EarningHoldReason } from '@marketplace/events/payouts';
import { logger } from '../adapters/logger';
import {
  findEarningTransfer,
  isRefusedByStripe,
  logStripeRefusal,
  stripeFailureText,
  transferEarning,
} from '../adapters/stripe-connect';
import { getRecord, models, query } from './direct-reads';
import {
  type EarningRecord,
  earningEditorScope as editorScope,
  HAND_PAID_CREDIT,
  isConditionFailed,
  payoutOutboxWrite,
  RELEASE_LEASE_MS,
  RELEASE_QUEUE,
  retryDelayMs,
  TRANSFER_LEDGER,
} from './earnings';
import { commitAll } from './transactions';

/**
 * The release of earnings whose revision window has closed: each is transferred to its editor's
 * Stripe account (data/earnings.ts has the earning's life; this, the part that talks to Stripe).
 */

export type ReleaseOutcome = 'transferred' | 'refused' | 'held' | 'paid-by-hand' | 'skipped';

export interface ReleaseSummary {
  transferred: number;
  refused: number;
  held: number;
  'paid-by-hand': number;
  skipped: number;
}

interface PayoutAccountFields {
  userId: string;
  stripeAccountId?: string;
  payoutStatus?: string;
  payoutRequirements?: string[];
}

const readEditor = async (editorId: string) => {
  return getRecord<PayoutAccountFields>(models.user, { userId: editorId });
};

const readCredit = async (editorId: string) => {
  const data = await getRecord(models.counter, { scope: editorScope(editorId), name: HAND_PAID_CREDIT });
  return Math.max(0, (data as { value: number } | null)?.value ?? 0);
};

/**
 * An editor without payout account, or whose account cannot take transfers yet, keeps the earning
 * held: out of the release queue, listed for the account's next change (account.updated puts it
 * back). The user record's condition makes sure the account did not become able meanwhile.
 */
const holdForAccount = async (earning: EarningRecord, reason: EarningHoldReason, now: number) => {
  try {
    await commitAll((e) => [
      e.earning
        .patch({ orderId: earning.orderId })
        .set({ state: 'held', holdReason: reason, awaitingAccountOf: earning.editorId })
        .remove(['releaseQueue', 'nextAttemptAt', 'lastError'])
        .where(
          ({ nextAttemptAt, state, releasingUntil }, { eq, lt, notExists }) =>
            `${eq(nextAttemptAt, earning.nextAttemptAt)} AND (${eq(state, 'held')} OR ${eq(state, 'due')}) AND (${notExists(releasingUntil)} OR ${lt(releasingUntil, now)})`,
        )
        .commit(),
      e.user
        .check({ userId: earning.editorId })
        .where(
          ({ payoutStatus }, { notExists, ne }) => `(${notExists(payoutStatus)} OR ${ne(payoutStatus, 'enabled')})`,
        )
        .commit(),
    ]);
    return 'held' as const;
  } catch (error) {
    if (isConditionFailed(error)) return 'skipped' as const;
    throw error;
  }
};

/**
 * Takes the earning for this release: due, leased until RELEASE_LEASE_MS from now, one more
 * attempt. Its first attempt also takes what admins paid the editor by hand (the credit) off it,
 * once. A release that finds it taken (by another, or moved on since it was read) leaves it.
 */
const lease = async (earning: EarningRecord, now: number): Promise<EarningRecord | null> => {
  const credit = earning.creditApplied ? 0 : Math.min(await readCredit(earning.editorId), earning.amountCents);
  const leased = {
    state: 'due' as const,
    releasingUntil: now + RELEASE_LEASE_MS,
    ...(earning.creditApplied ? {} : { creditApplied: true, paidByHandCents: credit }),
  };
  try {
    await commitAll((e) => [
      e.earning
        .patch({ orderId: earning.orderId })
        .set(leased)
        .add({ attempts: 1 })
        .where(
          ({ nextAttemptAt, state, releasingUntil, attempts }, { eq, lt, notExists }) =>
            `${eq(nextAttemptAt, earning.nextAttemptAt)} AND ${eq(attempts, earning.attempts)} AND (${eq(state, 'held')} OR ${eq(state, 'due')}) AND (${notExists(releasingUntil)} OR ${lt(releasingUntil, now)})`,
        )
        .commit(),
      ...(credit > 0
        ? [
            e.counter
              .update({ scope: editorScope(earning.editorId), name: HAND_PAID_CREDIT })
              .add({ value: -credit })
              .where(({ value }, { gte }) => gte(value, credit))
              .commit(),
          ]
        : []),
    ]);
  } catch (error) {
    if (isConditionFailed(error)) return null;
    throw error;
  }
  return { ...earning, ...leased, attempts: earning.attempts + 1 };
};

/** Paid in full by hand before the editor had Stripe payouts: nothing to transfer. */
const recordPaidByHand = async (earning: EarningRecord, now: Date) => {
  try {
    await commitAll((e) => [
      e.earning
        .patch({ orderId: earning.orderId })
        .set({ state: 'paid_out', paidOutAt: now.toISOString() })
        .remove(['releaseQueue', 'nextAttemptAt', 'releasingUntil', 'lastError', 'holdReason'])
        .where(({ state }, { eq }) => eq(state, 'due'))
        .commit(),
      payoutOutboxWrite(e, {
        editorId: earning.editorId,
        eventType: 'earning_paid_by_hand',
        description: `The earning of order ${earning.orderNumber ?? earning.orderId} was paid by hand`,
        metadata: { orderId: earning.orderId, amountCents: earning.amountCents },
      }),
    ]);
    return 'paid-by-hand' as const;
  } catch (error) {
    if (isConditionFailed(error)) return 'skipped' as const;
    throw error;
  }
};

/** A refused transfer stays due, with Stripe's reason, and is tried again after a pause that grows with each attempt. */
const recordRefusal = async (earning: EarningRecord, reason: string, asOf: Date) => {
  const nextAttemptAt = new Date(asOf.getTime() + retryDelayMs(earning.attempts)).toISOString();
  try {
    await commitAll((e) => [
      e.earning
        .patch({ orderId: earning.orderId })
        .set({ lastError: reason, releaseQueue: RELEASE_QUEUE, nextAttemptAt })
        .remove(['releasingUntil'])
        .where(({ state, attempts }, { eq }) => `${eq(state, 'due')} AND ${eq(attempts, earning.attempts)}`)
        .commit(),
    ]);
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
  return 'refused' as const;
};

/** The transfer made: the earning is in the editor's Stripe balance, with its event, in one transaction. */
const recordTransfer = async (
  earning: EarningRecord,
  transfer: { id: string; amount: number },
  accountId: string,
  now: Date,
) => {
  try {
    await commitAll((e) => [
      e.earning
        .patch({ orderId: earning.orderId })
        .set({
          state: 'transferred',
          transferId: transfer.id,
          transferAmountCents: transfer.amount,
          transferredAt: now.toISOString(),
          inTransitOf: earning.editorId,
          transferLedger: TRANSFER_LEDGER,
        })
        .remove(['releaseQueue', 'nextAttemptAt', 'releasingUntil', 'lastError', 'holdReason'])
        // Whoever recorded it first wins; a transfer Stripe made is recorded whatever else happened meanwhile.
        .where(({ state }, { eq }) => `(${eq(state, 'due')} OR ${eq(state, 'held')})`)
        .commit(),
      payoutOutboxWrite(e, {
        editorId: earning.editorId,
        eventType: 'earning_transferred',
        description: `${(transfer.amount / 100).toFixed(2)} USD for order ${earning.orderNumber ?? earning.orderId} sent to the editor's Stripe account`,
        metadata: { orderId: earning.orderId, amountCents: transfer.amount, transferId: transfer.id, accountId },
      }),
    ]);
    return 'transferred' as const;
  } catch (error) {
    if (isConditionFailed(error)) return 'skipped' as const;
    throw error;
  }
};

/**
 * Releases one earning whose time has come (its nextAttemptAt at or before `asOf`): to the editor's
 * account by a Transfer keyed by the earning, so that however many releases run at once, or again,
 * Stripe makes one transfer. A release that took the earning before and lost Stripe's answer looks
 * for the transfer by its order's transfer group first.
 */
export const releaseEarning = async (earning: EarningRecord, asOf = new Date()): Promise<ReleaseOutcome> => {
  const now = Date.now();
  if (earning.state !== 'held' && earning.state !== 'due') return 'skipped';
  if (!earning.nextAttemptAt || earning.nextAttemptAt > asOf.toISOString()) return 'skipped';
  if (earning.releasingUntil && earning.releasingUntil > now) return 'skipped';
  const editor = await readEditor(earning.editorId);
  if (!editor?.stripeAccountId) return holdForAccount(earning, 'no_payout_account', now);
  if (editor.payoutStatus !== 'enabled') return holdForAccount(earning, 'payouts_not_enabled', now);
  const leased = await lease(earning, now);
  if (!leased) return 'skipped';
  const amountCents = leased.amountCents - (leased.paidByHandCents ?? 0);
  const when = new Date(Math.max(now, asOf.getTime()));
  if (amountCents <= 0) return recordPaidByHand(leased, when);
  let transfer: { id: string; amount: number };
  try {
    transfer =
      (leased.attempts > 1 ? await findEarningTransfer(leased.orderId) : null) ??
      (await transferEarning({
        orderId: leased.orderId,
        editorId: leased.editorId,
        accountId: editor.stripeAccountId,
        amountCents,
        orderNumber: leased.orderNumber,
      }));
  } catch (error) {
    const fromStripe = String((error as { type?: string })?.type ?? '').startsWith('Stripe');
    if (!fromStripe) throw error;
    logStripeRefusal(
      isRefusedByStripe(error) ? 'transfer refused by stripe' : 'stripe unavailable for a transfer',
      { orderId: leased.orderId, editorId: leased.editorId, attempt: leased.attempts },
      error,
    );
    return recordRefusal(leased, stripeFailureText(error), asOf);
  }
  return recordTransfer(leased, transfer, editor.stripeAccountId, when);
};

/** How many earnings one run releases at most: the schedule comes round again for the rest. */
export const RELEASE_BATCH = 500;
const RELEASE_PAGE = 25;
const RELEASE_CONCURRENCY = 5;

/**
 * Every earning due at `asOf`, read from the release queue (a Query of what is due, never a Scan
 * of the earnings), released a few at a time. `npm run ops -- release-earnings --as-of <time>`
 * runs it as if at that time; the scheduled worker runs it now.
 */
export const releaseDueEarnings = async ({ asOf = new Date(), limit = RELEASE_BATCH } = {}) => {
  const summary: ReleaseSummary = { transferred: 0, refused: 0, held: 0, 'paid-by-hand': 0, skipped: 0 };
  let cursor: string | null = null;
  let seen = 0;
  do {
    const page: { data: unknown[]; cursor: string | null } = await dueEarningsPage({
      asOf,
      cursor,
      limit: RELEASE_PAGE,
    });
    const earnings = page.data as EarningRecord[];
    for (let i = 0; i < earnings.length; i += RELEASE_CONCURRENCY) {
      const outcomes = await Promise.all(
        earnings.slice(i, i + RELEASE_CONCURRENCY).map((earning) =>
          releaseEarning(earning, asOf).catch((error: unknown) => {
            logger.error('release of an earning failed', { orderId: earning.orderId, error: error as Error });
            return 'skipped' as const;
          }),
        ),
      );
      for (const outcome of outcomes) summary[outcome] += 1;
    }
    seen += earnings.length;
    cursor = page.cursor;
  } while (cursor && seen < limit);
  return summary;
};

/** One page of the release queue: the earnings whose next attempt is at or before `asOf`, soonest first. */
export const dueEarningsPage = ({ asOf, cursor, limit }: { asOf: Date; cursor: string | null; limit: number }) =>
  query<EarningRecord>(models.earning, 'releaseQueue', { releaseQueue: RELEASE_QUEUE })
    .lte({ nextAttemptAt: asOf.toISOString() })
    .go({ cursor, limit, order: 'asc' });

/**
 * When the editor's account can take transfers (account.updated), the earnings that waited for it
 * go back into the release queue, due now (their window closed before they were held for it).
 */
export const requeueAwaitingEarnings = async (editorId: string, now = new Date()) => {
  let cursor: string | null = null;
  let requeued = 0;
  do {
    const page = await query<EarningRecord>(models.earning, 'awaitingAccount', { awaitingAccountOf: editorId }).go({
      cursor,
      limit: 50,
    });
    for (const earning of page.data) {
      const at = earning.releaseAt && earning.releaseAt > now.toISOString() ? earning.releaseAt : now.toISOString();
      try {
        await commitAll((e) => [
          e.earning
            .patch({ orderId: earning.orderId })
            .set({ releaseQueue: RELEASE_QUEUE, nextAttemptAt: at })
            .remove(['awaitingAccountOf', 'holdReason'])
            .where(({ awaitingAccountOf }, { eq }) => eq(awaitingAccountOf, editorId))
            .commit(),
        ]);
        requeued += 1;
      } catch (error) {
        if (!isConditionFailed(error)) throw error;
      }
    }
    cursor = page.cursor;
  } while (cursor);
  return requeued;
};
