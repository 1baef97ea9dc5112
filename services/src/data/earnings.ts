import {
  EARNING_HOLD_DAYS,
  type EarningHoldReason,
  type EarningState,
  type EarningsPage,
  type EarningsQuery,
  type EarningView,
} from '@marketplace/events/payouts';
import type { UserEventType } from '@marketplace/events/user-events';
import * as z from '@marketplace/events/zod';
import { ulid } from 'ulid';
import { getRecord, models, query } from './direct-reads';
import { decodePageCursor, encodePageCursor } from './page-cursors';
import { type commitAll, TransactionCancelled } from './transactions';

export const isConditionFailed = (error: unknown) => error instanceof TransactionCancelled && error.conditionFailed;

/**
 * Each completed order's earning, from its booking to the editor's bank. It is booked, held, in
 * the transaction that completes the order; once the revision window has closed with no revision
 * open, the release (a scheduled worker, or `npm run ops -- release-earnings`) transfers it to the
 * editor's Stripe account, and a payout from that account takes it to their bank (bank-payouts.ts).
 * See docs/decisions/0096-earnings-as-items-released-after-the-revision-window.md.
 */
export interface EarningRecord {
  orderId: string;
  editorId: string;
  amountCents: number;
  orderNumber?: number;
  orderName?: string;
  orderAmountCents?: number;
  state: EarningState;
  holdReason?: EarningHoldReason;
  bookedAt: string;
  releaseAt?: string;
  releaseQueue?: string;
  nextAttemptAt?: string;
  attempts: number;
  releasingUntil?: number;
  lastError?: string;
  awaitingAccountOf?: string;
  paidByHandCents?: number;
  creditApplied?: boolean;
  transferId?: string;
  transferAmountCents?: number;
  transferredAt?: string;
  inTransitOf?: string;
  transferLedger?: string;
  payoutId?: string;
  paidOutAt?: string;
  reversalId?: string;
  reversedAt?: string;
  reversalError?: string;
}

export type Entities = Parameters<Parameters<typeof commitAll>[0]>[0];

const DAY_MS = 24 * 60 * 60 * 1000;
/** The release queue's one partition: only earnings waiting for their transfer are in it. */
export const RELEASE_QUEUE = 'due';
export const TRANSFER_LEDGER = 'transfers';
/** How long a release holds an earning it is transferring; well beyond a release's run (the Stripe call's retries included). */
export const RELEASE_LEASE_MS = 5 * 60 * 1000;
/** The editor-scope counter of what admins paid by hand before the editor's transfers began: later transfers are short by it. */
export const HAND_PAID_CREDIT = 'handPaidCredit';

/** The first retry after a refusal, doubling up to the longest pause. */
const FIRST_RETRY_MS = 15 * 60 * 1000;
const LONGEST_RETRY_MS = 12 * 60 * 60 * 1000;
export const retryDelayMs = (attempts: number) =>
  Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_MS);

export const releaseAtFor = (deliveredAt: Date) => new Date(deliveredAt.getTime() + EARNING_HOLD_DAYS * DAY_MS);

export const earningEditorScope = (editorId: string) => `editor#${editorId}`;

export const getEarning = async (orderId: string, { consistent = false } = {}) => {
  return getRecord<EarningRecord>(models.earning, { orderId }, { consistent });
};

/** An editor-money event in the outbox, on the editor's record (user events carry no order). */
export const payoutOutboxWrite = (
  e: Entities,
  event: { editorId: string; eventType: UserEventType; description: string; metadata: Record<string, unknown> },
  occurredAt = new Date(),
) =>
  e.outboxEvent
    .create({
      eventId: ulid(occurredAt.getTime()),
      userId: event.editorId,
      eventType: event.eventType,
      description: event.description,
      metadata: event.metadata,
      occurredAt: occurredAt.toISOString(),
      expiresAt: Math.floor(occurredAt.getTime() / 1000) + 24 * 60 * 60,
    })
    .commit();

// ---------------------------------------------------------------- booking and revisions

/**
 * The earning's booking, for the transaction of an order's first completion: held, in the release
 * queue from the end of the revision window. Nothing is booked for an order that earns nothing.
 */
export const earningBookingWrites = (
  e: Entities,
  order: { orderId: string; orderNumber: number; name?: string; totalAmountCents: number },
  { editorId, amountCents, completedAt }: { editorId: string; amountCents: number; completedAt: Date },
) => {
  if (amountCents <= 0) return [];
  const releaseAt = releaseAtFor(completedAt).toISOString();
  return [
    e.earning
      .create({
        orderId: order.orderId,
        editorId,
        amountCents,
        orderNumber: order.orderNumber,
        ...(order.name ? { orderName: order.name } : {}),
        orderAmountCents: order.totalAmountCents,
        state: 'held',
        bookedAt: completedAt.toISOString(),
        releaseAt,
        releaseQueue: RELEASE_QUEUE,
        nextAttemptAt: releaseAt,
        attempts: 0,
      })
      .commit(),
  ];
};

/** Why a revision cannot be asked once the earning has gone to the editor (its window closed meanwhile). */
export const EARNING_ALREADY_RELEASED = 'The revision window of this order has closed.';

/**
 * A revision request holds the earning: out of the release queue (and off any wait for the
 * account), whatever its window said. Only while it has not been transferred, and no release is
 * at work on it (the condition); an earning not booked yet (an order older than earnings) has none.
 */
export const earningHeldForRevisionWrites = (e: Entities, earning: EarningRecord | null, now = Date.now()) =>
  earning
    ? [
        e.earning
          .patch({ orderId: earning.orderId })
          .set({ state: 'held', holdReason: 'revision' })
          .remove(['releaseAt', 'releaseQueue', 'nextAttemptAt', 'awaitingAccountOf', 'lastError'])
          .where(
            ({ state, releasingUntil }, { eq, lt, notExists }) =>
              `(${eq(state, 'held')} OR ${eq(state, 'due')}) AND (${notExists(releasingUntil)} OR ${lt(releasingUntil, now)})`,
          )
          .commit(),
      ]
    : [];

/** The re-delivery of a revision starts the window again: back in the release queue from its end. */
export const earningWindowRestartWrites = (e: Entities, earning: EarningRecord | null, deliveredAt: Date) => {
  if (!earning) return [];
  const releaseAt = releaseAtFor(deliveredAt).toISOString();
  return [
    e.earning
      .patch({ orderId: earning.orderId })
      .set({ state: 'held', releaseAt, releaseQueue: RELEASE_QUEUE, nextAttemptAt: releaseAt })
      .remove(['holdReason'])
      .where(({ state, holdReason }, { eq }) => `${eq(state, 'held')} AND ${eq(holdReason, 'revision')}`)
      .commit(),
  ];
};

// ---------------------------------------------------------------- the editor's list

const earningsCursor = z.object({
  bookedAt: z.string().check(z.minLength(1), z.maxLength(64)),
  orderId: z.string().check(z.minLength(1), z.maxLength(64)),
});

export const toEarningView = (earning: EarningRecord): EarningView => ({
  orderId: earning.orderId,
  orderNumber: earning.orderNumber ?? null,
  orderName: earning.orderName ?? null,
  amountCents: earning.amountCents,
  state: earning.state,
  releaseAt: earning.releaseAt ?? null,
  holdReason: earning.holdReason ?? null,
  lastError: earning.lastError ?? null,
  nextAttemptAt: earning.lastError ? (earning.nextAttemptAt ?? null) : null,
  transferId: earning.transferId ?? null,
  transferredAt: earning.transferredAt ?? null,
  payoutId: earning.payoutId ?? null,
  paidOutAt: earning.paidOutAt ?? null,
  paidByHandCents: earning.paidByHandCents ?? 0,
  reversedAt: earning.reversedAt ?? null,
  bookedAt: earning.bookedAt,
});

/** An editor's earnings, newest first, a page at a time (after a cursor: a key range, one Query). */
export const listEarnings = async (editorId: string, { limit, cursor }: EarningsQuery): Promise<EarningsPage> => {
  const earnings = query<EarningRecord>(models.earning, 'byEditor', { editorId });
  const after = cursor ? decodePageCursor(cursor, earningsCursor) : undefined;
  const { data } = await (after ? earnings.lt(after) : earnings).go({ order: 'desc', limit: limit + 1 });
  const rows = data.slice(0, limit);
  const last = rows.at(-1);
  return {
    earnings: rows.map(toEarningView),
    nextCursor:
      data.length > limit && last ? encodePageCursor({ bookedAt: last.bookedAt, orderId: last.orderId }) : null,
  };
};
