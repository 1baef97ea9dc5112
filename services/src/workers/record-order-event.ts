import type { OrderEventMessage } from '@marketplace/events/order-events';
import { publish } from '../adapters/queue-publisher';
import { isConditionFailure } from '../data/conditional-write';
import { marketplace } from '../data/entities';
import { forwardingQueues } from '../workers';
import { orderEventConsumer } from './outbox-message';

/**
 * Stores each order event from the outbox in the order's activity log, then forwards it to the
 * queues that consume its type (thumbnails, notifications; see the worker table). The event id is
 * the record's key and the write is conditional, so a redelivered message stores nothing twice;
 * it is forwarded again, because the delivery before may have stored it and failed to forward,
 * and the consumers are idempotent. Failures are reported per message so one bad message does
 * not make SQS redeliver the whole batch.
 */
export const handler = orderEventConsumer('storing an order event', async (orderEvent, record) => {
  await storeOnce(orderEvent);
  for (const queue of forwardingQueues(orderEvent.eventType)) {
    await publish(queue, [JSON.parse(record.body)]);
  }
});

const storeOnce = async (orderEvent: OrderEventMessage) => {
  try {
    await marketplace().entities.orderEvent.create(orderEvent).go();
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
};
