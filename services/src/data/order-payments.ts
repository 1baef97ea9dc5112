import { type PaymentFacts, paymentProblem } from '../domain/payment-check';
import { Conflict, Unprocessable } from '../http/errors';
import { isConditionFailure } from './conditional-write';
import { marketplace } from './entities';
import { markOrderPaid, type OrderRecord } from './orders';
import { TransactionCancelled } from './transactions';

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
  for (let attempt = 1; ; attempt++) {
    try {
      return await markOrderPaid({
        orderId: order.orderId,
        paymentIntentId: payment.id,
        amountCents: payment.amount,
        via,
      });
    } catch (error) {
      // Simultaneous transactions on one order can cancel each other; a retry reads who won.
      const collided = error instanceof TransactionCancelled && error.reasons.includes('TransactionConflict');
      if (!collided || attempt >= CONFLICT_RETRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, attempt * 20 + Math.random() * 50));
    }
  }
};

/** Stripe redelivers events for days: a handled event id is remembered for longer than that. */
const STRIPE_EVENT_MEMORY_SECONDS = 7 * 24 * 60 * 60;
const STRIPE_EVENTS = 'stripe-webhook';

export const wasStripeEventHandled = async (eventId: string) => {
  const { data } = await marketplace()
    .entities.processedMessage.get({ source: STRIPE_EVENTS, messageId: eventId })
    .go();
  return !!data;
};

export const rememberStripeEvent = async (eventId: string) => {
  try {
    await marketplace()
      .entities.processedMessage.create({
        source: STRIPE_EVENTS,
        messageId: eventId,
        expiresAt: Math.floor(Date.now() / 1000) + STRIPE_EVENT_MEMORY_SECONDS,
      })
      .go();
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
};
