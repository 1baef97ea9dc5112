import type Stripe from 'stripe';
import { logger } from '../adapters/logger';
import { isRefusedByStripe, reverseEarningTransfer, stripeFailureText } from '../adapters/stripe-connect';
import { HttpError } from '../http/errors';
import { getRecord, models } from './direct-reads';
import { writers } from './direct-writes';
import {
  type EarningRecord,
  earningEditorScope,
  getEarning,
  HAND_PAID_CREDIT,
  isConditionFailed,
  payoutOutboxWrite,
} from './earnings';
import { commitAll } from './transactions';

/**
 * A refund of a delivered order takes the editor's share back: once the charge is refunded in
 * full (an admin's refund in Stripe's Dashboard; the console cancels only orders nobody worked
 * on), an earning not sent yet is cancelled, and one sent is reversed by one Transfer Reversal
 * keyed by the earning. A partial refund is the platform's goodwill and leaves the earning as it
 * is. See docs/decisions/0098-refunds-reverse-the-editors-share-once.md.
 */
export type ReversalOutcome = 'partial-refund' | 'no-earning' | 'already-reversed' | 'reversed' | 'refused';

const entities = () => writers();

/** The order a charge paid for: our own payment record of its intent, not what the charge says. */
const orderOfCharge = async (charge: Pick<Stripe.Charge, 'payment_intent'>) => {
  const intentId = typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
  if (!intentId) return null;
  const payment = await getRecord<{ orderId: string }>(models.payment, { paymentIntentId: intentId });
  return payment?.orderId ?? null;
};

/** While a release is sending it: Stripe's retry of the refund event comes back once the release is done. */
const releaseUnderWay = () =>
  new HttpError(503, 'EARNING_BEING_RELEASED', 'The earning of this order is being transferred; try again shortly.');

/** The earning taken back in the table: its state, its event, and the counters it leaves (see 0098). */
const recordReversal = async (earning: EarningRecord, reversal: { id: string } | null, now: Date) => {
  const paidOut = earning.state === 'paid_out' ? (earning.transferAmountCents ?? 0) : 0;
  const credit = earning.paidByHandCents ?? 0;
  const scope = earningEditorScope(earning.editorId);
  await commitAll((e) => [
    e.earning
      .patch({ orderId: earning.orderId })
      .set({ state: 'reversed', reversedAt: now.toISOString(), ...(reversal ? { reversalId: reversal.id } : {}) })
      .remove(['releaseQueue', 'nextAttemptAt', 'awaitingAccountOf', 'inTransitOf', 'lastError', 'reversalError'])
      .where(({ state, releasingUntil }, { eq, lt, notExists }) =>
        [
          eq(state, earning.state),
          `(${notExists(releasingUntil)} OR ${lt(releasingUntil, now.getTime())} OR ${eq(state, 'transferred')} OR ${eq(state, 'paid_out')})`,
        ].join(' AND '),
      )
      .commit(),
    e.counter.update({ scope, name: 'totalEarnings' }).add({ value: -earning.amountCents }).commit(),
    e.counter
      .update({ scope, name: 'pendingPayouts' })
      .add({ value: -(earning.amountCents - paidOut) })
      .commit(),
    ...(paidOut ? [e.counter.update({ scope, name: 'paidOut' }).add({ value: -paidOut }).commit()] : []),
    // What an admin paid by hand for it is owed back: the editor's next transfers are short by it.
    ...(credit ? [e.counter.update({ scope, name: HAND_PAID_CREDIT }).add({ value: credit }).commit()] : []),
    payoutOutboxWrite(e, {
      editorId: earning.editorId,
      eventType: 'earning_reversed',
      description: `The earning of order ${earning.orderNumber ?? earning.orderId} was taken back after a refund`,
      metadata: {
        orderId: earning.orderId,
        amountCents: earning.amountCents,
        ...(reversal ? { reversalId: reversal.id, transferId: earning.transferId } : {}),
      },
    }),
  ]);
};

/** A refunded charge (charge.refunded): the editor's share of its order taken back, once. */
export const reverseEarningOfRefund = async (
  charge: Pick<Stripe.Charge, 'id' | 'amount' | 'amount_refunded' | 'refunded' | 'payment_intent'>,
): Promise<ReversalOutcome> => {
  if (!charge.refunded || charge.amount_refunded < charge.amount) return 'partial-refund';
  const orderId = await orderOfCharge(charge);
  if (!orderId) return 'no-earning';
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    const earning = await getEarning(orderId, { consistent: true });
    if (!earning) return 'no-earning';
    if (earning.state === 'reversed') return 'already-reversed';
    const now = new Date();
    if ((earning.state === 'held' || earning.state === 'due') && (earning.releasingUntil ?? 0) > now.getTime()) {
      throw releaseUnderWay();
    }
    let reversal: { id: string } | null = null;
    if (earning.transferId && (earning.state === 'transferred' || earning.state === 'paid_out')) {
      try {
        reversal = await reverseEarningTransfer(orderId, earning.transferId);
      } catch (error) {
        // Stripe down: the refund event is answered 5xx, and Stripe sends it again later.
        if (!isRefusedByStripe(error)) throw error;
        // Refused (the editor's balance no longer holds it): the admin settles it by hand.
        const reason = stripeFailureText(error);
        logger.warn('transfer reversal refused', { orderId, transferId: earning.transferId, error: error as Error });
        await entities()
          .earning.patch({ orderId })
          .set({ reversalError: reason })
          .go()
          .catch(() => undefined);
        return 'refused';
      }
    }
    try {
      await recordReversal(earning, reversal, now);
      return 'reversed';
    } catch (error) {
      // Moved meanwhile (transferred, paid out): read it again; the reversal's key makes Stripe's part once.
      if (!isConditionFailed(error)) throw error;
    }
  }
  throw releaseUnderWay();
};
