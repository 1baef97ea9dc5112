import type { OrderEventType, QueueName } from '@marketplace/events/order-events';

/**
 * THE pipe table: which outbox records the table's stream carries to which queue. In the cloud
 * each entry is an EventBridge Pipe from the table's stream to the queue, with the same filter;
 * locally the stream poller applies the same entries. A DynamoDB stream serves at most two
 * readers per shard, so this table stays at two: a third consumer reads one of these queues.
 */
export interface PipeDefinition {
  name: string;
  target: QueueName;
  /** Only these event types; every outbox record when absent. */
  eventTypes?: readonly OrderEventType[];
}

/** ElectroDB stores each item's entity name in this attribute; the outbox's is 'outboxEvent'. */
export const ENTITY_ATTRIBUTE = '__edb_e__';
export const OUTBOX_ENTITY = 'outboxEvent';

export const pipes: readonly PipeDefinition[] = [
  // Every event, to the activity log.
  { name: 'order-events', target: 'order-events' },
  // Payment and completion, to the zip builder, so the originals and the edited zip are ready before anyone asks.
  { name: 'order-zips', target: 'zip-builds', eventTypes: ['order_paid', 'order_completed'] },
];

/** The EventBridge filter pattern of a pipe, over DynamoDB stream records (new outbox items only). */
export const pipeFilterPattern = (pipe: PipeDefinition) => ({
  eventName: ['INSERT'],
  dynamodb: {
    NewImage: {
      [ENTITY_ATTRIBUTE]: { S: [OUTBOX_ENTITY] },
      ...(pipe.eventTypes ? { eventType: { S: [...pipe.eventTypes] } } : {}),
    },
  },
});

type StreamImage = Record<string, { S?: string } | undefined>;

/** The same filter applied to one stream record, for the local stream poller. */
export const pipeMatches = (
  pipe: PipeDefinition,
  record: { eventName?: string; dynamodb?: { NewImage?: StreamImage } },
) => {
  const image = record.dynamodb?.NewImage;
  if (record.eventName !== 'INSERT' || image?.[ENTITY_ATTRIBUTE]?.S !== OUTBOX_ENTITY) return false;
  return !pipe.eventTypes || pipe.eventTypes.includes(image.eventType?.S as OrderEventType);
};
