import type { OrderEventMessage } from '@marketplace/events/order-events';
import { logger } from '../adapters/logger';
import { creditLateDelivery, deliveryRoundOf } from '../data/late-credits';
import { orderEventConsumer } from './outbox-message';

/**
 * A late delivery's credit (decision 0111), from the order_completed event its delivery wrote. An
 * on-time delivery carries no lateness and is let go without a read; a redelivered event finds the
 * refund recorded, and the Stripe key makes a refund made before the record was written the same one.
 */
export const creditOnce = async (event: OrderEventMessage) => {
  if (event.eventType !== 'order_completed') return 'not-a-delivery' as const;
  const minutesLate = event.metadata.minutesLate;
  if (typeof minutesLate !== 'number' || minutesLate <= 0) return 'on-time' as const;
  const round = deliveryRoundOf(event.metadata);
  const outcome = await creditLateDelivery(event.orderId, round);
  logger.info('late delivery credit', { orderId: event.orderId, round, outcome });
  return outcome;
};

export const handler = orderEventConsumer('crediting a late delivery', creditOnce);
