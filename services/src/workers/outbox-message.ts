import { unmarshall } from '@aws-sdk/util-dynamodb';
import { type OrderEventMessage, orderEventMessage } from '@marketplace/events/order-events';
import { type UserEventMessage, userEventMessage } from '@marketplace/events/user-events';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '../adapters/logger';

/** The outbox item a stream record carries, or null when the message is none. */
const outboxItemOf = (body: string) => {
  const record = JSON.parse(body) as { dynamodb?: { NewImage?: Record<string, unknown> } };
  const image = record.dynamodb?.NewImage;
  // biome-ignore lint/suspicious/noExplicitAny: the stream's attribute-value map, as DynamoDB sends it
  return image ? unmarshall(image as any) : null;
};

/**
 * A queue message carried from the outbox by a pipe is the DynamoDB stream record itself (what
 * an EventBridge Pipe sends by default, and what the local stream poller sends). This reads the
 * order event out of it; null when the message is not an outbox record of an order event.
 */
export const orderEventFromStreamRecord = (body: string): OrderEventMessage | null => {
  const item = outboxItemOf(body);
  if (!item) return null;
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

/** The user event (a change of standing) in an outbox stream record; null when it holds none. */
export const userEventFromStreamRecord = (body: string): UserEventMessage | null => {
  const item = outboxItemOf(body);
  if (!item) return null;
  const parsed = userEventMessage.safeParse({
    eventId: item.eventId,
    userId: item.userId,
    eventType: item.eventType,
    actorId: item.actorId,
    occurredAt: item.occurredAt,
  });
  return parsed.success ? parsed.data : null;
};

/** What a consumer of outbox records does with each kind of event it takes. */
export interface OutboxHandlers {
  order?: (event: OrderEventMessage, record: SQSRecord) => Promise<unknown>;
  user?: (event: UserEventMessage, record: SQSRecord) => Promise<unknown>;
}

/**
 * An SQS handler for queues of outbox records: each message's event goes to the handler of its
 * kind in turn. A message that is no event this consumer takes will never succeed, so it is logged
 * and let go rather than retried; a message whose handling throws is reported on its own, so SQS
 * redelivers only it.
 */
export const outboxConsumer =
  (name: string, handlers: OutboxHandlers) =>
  async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
    for (const record of event.Records) {
      try {
        const orderEvent = handlers.order && orderEventFromStreamRecord(record.body);
        const userEvent = !orderEvent && handlers.user && userEventFromStreamRecord(record.body);
        if (orderEvent) await handlers.order?.(orderEvent, record);
        else if (userEvent) await handlers.user?.(userEvent, record);
        else
          logger.error('dropping a message that is no event this queue takes', { messageId: record.messageId, name });
      } catch (error) {
        logger.error(`${name} failed`, { messageId: record.messageId, error: error as Error });
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    }
    return { batchItemFailures };
  };

/** A consumer of order events only (see outboxConsumer). */
export const orderEventConsumer = (name: string, handle: NonNullable<OutboxHandlers['order']>) =>
  outboxConsumer(name, { order: handle });
