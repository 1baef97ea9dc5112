import type { QueueName } from '@marketplace/events/order-events';

/**
 * THE worker table: which SQS-event handler consumes which queue, and the queue's delivery rules.
 * The CDK app makes one queue (with a dead-letter queue) and one Lambda per entry; the local queue
 * runner applies the same rules in process. `handler` is a module under src/workers exporting `handler`.
 */
export interface WorkerDefinition {
  queue: QueueName;
  handler: string;
  batchSize: number;
  visibilityTimeoutSeconds: number;
  /** Receives before a message moves to the dead-letter queue. */
  maxReceiveCount: number;
  timeoutSeconds: number;
  memoryMb: number;
}

export const workers: readonly WorkerDefinition[] = [
  {
    queue: 'order-events',
    handler: 'record-order-event',
    batchSize: 10,
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
    timeoutSeconds: 10,
    memoryMb: 256,
  },
  {
    // Streams an order's photos into one zip, S3 to S3 in constant memory; one order at a time.
    queue: 'zip-builds',
    handler: 'build-zip',
    batchSize: 1,
    visibilityTimeoutSeconds: 960,
    maxReceiveCount: 3,
    timeoutSeconds: 900,
    memoryMb: 1024,
  },
];
