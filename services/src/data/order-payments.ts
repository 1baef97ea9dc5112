import { logger } from '../adapters/logger';
import { cancelPaymentIntent, createOrderPaymentIntent } from '../adapters/stripe';
import { cardOfPayment } from '../adapters/stripe-cards';
import { type PaymentFacts, paymentProblem } from '../domain/payment-check';
import { Conflict, Unprocessable } from '../http/errors';
import { isConditionFailure } from './conditional-write';
import { getRecord, models } from './direct-reads';
import { writers } from './direct-writes';
import { getOrder, markOrderPaid, type OrderRecord } from './orders';
import { commitAll, TransactionCancelled } from './transactions';

/**
 * Paying an order from a Stripe payment intent, whoever reports it (the browser or the webhook).
 * The intent is checked first; then markOrderPaid's conditional write lets exactly one report
 * through however many arrive at once.
 */
const CONFLICT_RETRIES = 5;

export const payOrder = async ({
  order,
  payment,
  via,
}: {
  order: OrderRecord;
  payment: PaymentFacts;
  via: 'webhook' | 'client';
}): Promise<'paid' | 'already-paid'> => {
  const problem = paymentProblem(payment, order);
  if (problem?.kind === 'wrong-amount') throw new Unprocessable(problem.message);
  if (problem) throw new Conflict(problem.message);
  // The card's brand and last four for the receipt: asked of Stripe only while the order is unpaid.
  const card =
    order.status === 'pending_payment'
      ? await cardOfPayment((payment as { payment_method?: unknown }).payment_method)
      : null;
  for (let attempt = 1; ; attempt++) {
    try {
      return await markOrderPaid({
        orderId: order.orderId,
        paymentIntentId: payment.id,
        amountCents: payment.amount,
        via,
        card,
      });
    } catch (error) {
      // Simultaneous transactions on one order can cancel each other; a retry reads who won.
      const collided = error instanceof TransactionCancelled && error.reasons.includes('TransactionConflict');
      if (!collided || attempt >= CONFLICT_RETRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, attempt * 20 + Math.random() * 50));
    }
  }
};

/**
 * An unpaid order whose payment intent Stripe no longer knows (its test data deleted, a local
 * Stripe reset) gets a new one, so the photographer can still pay. The lost intent is cancelled
 * first, so a card form still holding it can never charge it; if it had been paid after all, the
 * order is paid with it instead. The new intent's idempotency key names the lost one, so two
 * pages doing this at once get the same intent, and the order takes it with a write conditional
 * on still awaiting payment with the lost intent: one order, one payable intent.
 */
export const startPaymentAgain = async (order: OrderRecord & { stripePaymentIntentId: string }) => {
  const lostId = order.stripePaymentIntentId;
  const stopped = await cancelPaymentIntent(lostId);
  if (stopped.status === 'succeeded') {
    await payOrder({ order, payment: stopped.intent, via: 'client' });
    throw new Conflict('This order is already paid');
  }
  const intent = await createOrderPaymentIntent({
    orderId: order.orderId,
    orderNumber: order.orderNumber,
    amountCents: order.totalAmountCents,
    idempotencyKey: `order-${order.orderId}-payment-intent-replacing-${lostId}`,
  });
  try {
    await commitAll((e) => [
      e.order
        .patch({ orderId: order.orderId })
        .set({ stripePaymentIntentId: intent.id })
        .where(
          ({ status, stripePaymentIntentId }, { eq }) =>
            `${eq(status, 'pending_payment')} AND ${eq(stripePaymentIntentId, lostId)}`,
        )
        .commit(),
      e.payment
        .create({
          paymentIntentId: intent.id,
          orderId: order.orderId,
          amountCents: order.totalAmountCents,
          currency: 'usd',
          status: 'requires_payment',
        })
        .commit(),
    ]);
    logger.warn('payment started again', {
      orderId: order.orderId,
      lostPaymentIntentId: lostId,
      paymentIntentId: intent.id,
    });
  } catch (error) {
    if (!(error instanceof TransactionCancelled && error.conditionFailed)) throw error;
    // Another page started it again first (with this same intent), or the order moved on.
    const now = await getOrder(order.orderId);
    if (now?.status === 'cancelled') throw new Conflict('This order was cancelled');
    if (now?.status !== 'pending_payment') throw new Conflict('This order is already paid');
    if (now.stripePaymentIntentId !== intent.id) {
      throw new Conflict('The payment could not be started again just now. Please reload the page.');
    }
  }
  // The lost intent's record says it will not be paid; an order from before payment records has none.
  await writers()
    .payment.patch({ paymentIntentId: lostId })
    .set({ status: 'failed' })
    .go()
    .catch((error: unknown) => {
      if (!isConditionFailure(error)) throw error;
    });
  return intent;
};

/** Stripe redelivers events for days: a handled event id is remembered for longer than that. */
const STRIPE_EVENT_MEMORY_SECONDS = 7 * 24 * 60 * 60;
const STRIPE_EVENTS = 'stripe-webhook';

export const wasStripeEventHandled = async (eventId: string) => {
  return !!(await getRecord(models.processedMessage, { source: STRIPE_EVENTS, messageId: eventId }));
};

export const rememberStripeEvent = async (eventId: string) => {
  try {
    await writers()
      .processedMessage.create({
        source: STRIPE_EVENTS,
        messageId: eventId,
        expiresAt: Math.floor(Date.now() / 1000) + STRIPE_EVENT_MEMORY_SECONDS,
      })
      .go();
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
};
