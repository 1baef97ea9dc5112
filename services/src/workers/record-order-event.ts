import { orderEventMessage } from '@marketplace/events/order-events';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { logger } from '../adapters/logger';
import { isConditionFailure } from '../data/conditional-write';
import { marketplace } from '../data/entities';

/**
 * Stores each order event in the order's activity log. The event id is the record's key and the
 * write is conditional, so a redelivered message changes nothing. Failures are reported per
 * message so one bad message does not make SQS redeliver the whole batch.
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    try {
      const parsed = orderEventMessage.safeParse(JSON.parse(record.body));
      if (!parsed.success) {
        // A malformed message will never succeed: log it and let it go rather than retry forever.
        logger.error('dropping malformed order event', { messageId: record.messageId, issues: parsed.error.issues });
        continue;
      }
      await marketplace().entities.orderEvent.create(parsed.data).go();
    } catch (error) {
      if (isConditionFailure(error)) continue;
      logger.error('order event not stored', { messageId: record.messageId, error: error as Error });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
};
