import { lateCreditText } from '@marketplace/events/turnaround';
import { logger } from '../adapters/logger';
import { refundPayment } from '../adapters/stripe';
import { billingEntryWrite, newEntryId, orderBillingEntries } from './billing';
import { getOrder, type OrderRecord } from './orders';
import { getRevision } from './revisions';
import { commitAll, counterAdd, outboxWrite, TransactionCancelled } from './transactions';

/**
 * The late-delivery credit (decision 0111): a delivery round that came after its due time gave the
 * photographer a credit, fixed in the delivery's own transaction (minutes late, cents). This pays
 * it: a partial refund through Stripe under a key naming the order and the round, so however often
 * the delivery's event arrives Stripe refunds once, then the refund id recorded on the round once,
 * with a billing entry (its receipt follows) and an event. The marketplace bears it: the editor's
 * earning is left as booked (decision 0098 already treats partial refunds so).
 */
export type LateCreditOutcome = 'on-time' | 'no-payment' | 'credited' | 'credited-before';

export const lateCreditIdempotencyKey = (orderId: string, round: number) => `late-credit-${orderId}-round-${round}`;

/** The round's lateness as the delivery recorded it: the order's own fields for round 0, the revision's after. */
const roundOf = async (order: OrderRecord, round: number) => {
  if (round === 0) return order;
  return getRevision(order.orderId, round);
};

export const creditLateDelivery = async (orderId: string, round: number): Promise<LateCreditOutcome> => {
  const order = await getOrder(orderId);
  if (!order) return 'no-payment';
  const recorded = await roundOf(order, round);
  const creditCents = recorded?.lateCreditCents ?? 0;
  const lateMinutes = recorded?.lateMinutes ?? 0;
  if (!recorded || lateMinutes <= 0 || creditCents <= 0) return 'on-time';
  if (recorded.lateCreditRefundId) return 'credited-before';
  const paymentIntentId = order.stripePaymentIntentId;
  if (!paymentIntentId || !order.paidAt) {
    logger.warn('late order has no payment to credit', { orderId, round });
    return 'no-payment';
  }
  // Stripe down: this throws, the message comes back, and the same key refunds once when it does.
  const refund = await refundPayment({
    paymentIntentId,
    amountCents: creditCents,
    idempotencyKey: lateCreditIdempotencyKey(orderId, round),
  });
  const paid = (await orderBillingEntries(orderId)).find((entry) => entry.kind === 'payment');
  const card = paid?.cardBrand && paid.cardLast4 ? { brand: paid.cardBrand, last4: paid.cardLast4 } : null;
  const creditedAt = new Date();
  const entryId = newEntryId(creditedAt);
  const text = lateCreditText({ minutesLate: lateMinutes, creditCents });
  try {
    await commitAll((e) => [
      round === 0
        ? e.order
            .patch({ orderId })
            .set({ lateCreditRefundId: refund.id })
            .where(({ lateCreditRefundId }, { notExists }) => notExists(lateCreditRefundId))
            .commit()
        : e.orderRevision
            .patch({ orderId, round })
            .set({ lateCreditRefundId: refund.id })
            .where(({ lateCreditRefundId }, { notExists }) => notExists(lateCreditRefundId))
            .commit(),
      counterAdd(e, `photographer#${order.photographerId}`, 'totalSpent', -refund.amount),
      billingEntryWrite(e, order, {
        entryId,
        kind: 'refund',
        amountCents: refund.amount,
        paymentIntentId,
        refundId: refund.id,
        card,
        occurredAt: creditedAt,
        creditNote: text,
      }),
      outboxWrite(e, {
        orderId,
        eventType: 'order_refunded',
        description: `${text} (${round === 0 ? 'delivery' : `revision ${round}`})`,
        metadata: {
          paymentIntentId,
          refundId: refund.id,
          amountCents: refund.amount,
          entryId,
          lateCreditRound: round,
          minutesLate: lateMinutes,
        },
      }),
    ]);
  } catch (error) {
    // The same event handled twice at once: the other recorded the same refund (the key made it one).
    if (error instanceof TransactionCancelled && error.conditionFailed) return 'credited-before';
    throw error;
  }
  return 'credited';
};

/** The round an order_completed event delivered: its revision round, or 0 for the first delivery. */
export const deliveryRoundOf = (metadata: Record<string, unknown>) =>
  typeof metadata.revisionRound === 'number' ? metadata.revisionRound : 0;
