import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { logger } from '../adapters/logger';
import { publish } from '../adapters/queue-publisher';
import { isConditionFailure } from '../data/conditional-write';
import { marketplace } from '../data/entities';
import { forwardingQueues } from '../workers';
import { orderEventFromStreamRecord } from './outbox-message';

/**
 * Stores each order event from the outbox in the order's activity log, then forwards it to the
 * queues that consume its type (thumbnails, notifications; see the worker table). The event id is
 * the record's key and the write is conditional, so a redelivered message stores nothing twice;
 * it is forwarded again, because the delivery before may have stored it and failed to forward,
 * and the consumers are idempotent. Failures are reported per message so one bad message does
 * not make SQS redeliver the whole batch.
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    try {
      const orderEvent = orderEventFromStreamRecord(record.body);
      if (!orderEvent) {
        // A malformed message will never succeed: log it and let it go rather than retry forever.
        logger.error('dropping a message that is not an order event', { messageId: record.messageId });
        continue;
      }
      await storeOnce(orderEvent);
      for (const queue of forwardingQueues(orderEvent.eventType)) {
        await publish(queue, [JSON.parse(record.body)]);
      }
    } catch (error) {
      logger.error('order event not stored', { messageId: record.messageId, error: error as Error });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
};

const storeOnce = async (orderEvent: NonNullable<ReturnType<typeof orderEventFromStreamRecord>>) => {
  try {
    await marketplace().entities.orderEvent.create(orderEvent).go();
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
};
