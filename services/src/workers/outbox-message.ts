import { unmarshall } from '@aws-sdk/util-dynamodb';
import { type OrderEventMessage, orderEventMessage } from '@marketplace/events/order-events';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '../adapters/logger';

/**
 * A queue message carried from the outbox by a pipe is the DynamoDB stream record itself (what
 * an EventBridge Pipe sends by default, and what the local stream poller sends). This reads the
 * order event out of it; null when the message is not an outbox record.
 */
export const orderEventFromStreamRecord = (body: string): OrderEventMessage | null => {
  const record = JSON.parse(body) as { dynamodb?: { NewImage?: Record<string, unknown> } };
  const image = record.dynamodb?.NewImage;
  if (!image) return null;
  // biome-ignore lint/suspicious/noExplicitAny: the stream's attribute-value map, as DynamoDB sends it
  const item = unmarshall(image as any);
  const parsed = orderEventMessage.safeParse({
    eventId: item.eventId,
    orderId: item.orderId,
    eventType: item.eventType,
    description: item.description,
    actorId: item.actorId,
    occurredAt: item.occurredAt,
    metadata: item.metadata ?? {},
  });
  return parsed.success ? parsed.data : null;
};

/**
 * An SQS handler for queues of outbox records: each message's order event goes to `handle` in
 * turn. A message that is no order event will never succeed, so it is logged and let go rather
 * than retried; a message whose handling throws is reported on its own, so SQS redelivers only it.
 */
export const orderEventConsumer =
  (name: string, handle: (event: OrderEventMessage, record: SQSRecord) => Promise<unknown>) =>
  async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
    for (const record of event.Records) {
      try {
        const orderEvent = orderEventFromStreamRecord(record.body);
        if (!orderEvent) {
          logger.error('dropping a message that is not an order event', { messageId: record.messageId });
          continue;
        }
        await handle(orderEvent, record);
      } catch (error) {
        logger.error(`${name} failed`, { messageId: record.messageId, error: error as Error });
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    }
    return { batchItemFailures };
  };
