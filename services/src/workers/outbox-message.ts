import { unmarshall } from '@aws-sdk/util-dynamodb';
import { type OrderEventMessage, orderEventMessage } from '@marketplace/events/order-events';

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
