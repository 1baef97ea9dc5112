import type { OrderEventMessage } from '@marketplace/events/order-events';
import type { SQSRecord } from 'aws-lambda';
import { publish } from '../adapters/queue-publisher';
import { isConditionFailure } from '../data/conditional-write';
import { writers } from '../data/direct-writes';
import { forwardingQueues } from '../workers';
import { outboxConsumer } from './outbox-message';

/**
 * Stores each order event from the outbox in the order's activity log, then forwards it to the
 * queues that consume its type (thumbnails, notifications; see the worker table). The event id is
 * the record's key and the write is conditional, so a redelivered message stores nothing twice;
 * it is forwarded again, because the delivery before may have stored it and failed to forward,
 * and the consumers are idempotent. User events (a change of standing) have no order to log:
 * they are only forwarded (to the identity worker). Failures are reported per message so one bad
 * message does not make SQS redeliver the whole batch.
 */
export const handler = outboxConsumer('storing an order event', {
  order: async (orderEvent, record) => {
    await storeOnce(orderEvent);
    await forward(orderEvent.eventType, record);
  },
  user: (userEvent, record) => forward(userEvent.eventType, record),
});

const storeOnce = async (orderEvent: OrderEventMessage) => {
  try {
    await writers().orderEvent.create(orderEvent).go();
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
};

const forward = async (eventType: Parameters<typeof forwardingQueues>[0], record: SQSRecord) => {
  for (const queue of forwardingQueues(eventType)) {
    await publish(queue, [JSON.parse(record.body)]);
  }
};
