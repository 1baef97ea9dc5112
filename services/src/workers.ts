import type { OrderEventType, QueueName } from '@marketplace/events/order-events';
import type { UserEventType } from '@marketplace/events/user-events';

/** The outbox's event types: an order's, or a change of a user's standing. */
export type OutboxEventType = OrderEventType | UserEventType;

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
  /**
   * Outbox events the event-log worker forwards to this queue (order events once it has stored
   * them). The table's stream serves two pipes at most, so consumers beyond the two pipes hang off
   * the event log: the forwarded message is the outbox's stream record itself, as a pipe would send it.
   */
  forwardedEvents?: readonly OutboxEventType[];
  /** Packages with native code the handler imports: the Lambda bundle carries their linux-arm64 build. */
  nativeModules?: readonly string[];
  /**
   * Its bundle keeps arrow functions: a package in it uses `super` inside one, which esbuild
   * cannot lower to a `function` (infra/lib/bundling/options.ts, eagerlyCompiledModules).
   */
  keepArrowFunctions?: true;
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
  {
    // Thumbnails and screen-sized previews of every uploaded original and edited file (sharp).
    queue: 'thumbnails',
    handler: 'make-thumbnails',
    batchSize: 1,
    visibilityTimeoutSeconds: 180,
    maxReceiveCount: 3,
    timeoutSeconds: 120,
    memoryMb: 1536,
    // And the sizes of a profile's image and a photographer's logo (user events).
    forwardedEvents: ['image_uploaded', 'edited_image_uploaded', 'profile_image_uploaded', 'business_logo_uploaded'],
    nativeModules: ['sharp'],
  },
  {
    // Email to the photographer and the editor at each step of an order, once per event.
    queue: 'notifications',
    handler: 'send-notifications',
    batchSize: 10,
    visibilityTimeoutSeconds: 120,
    maxReceiveCount: 5,
    timeoutSeconds: 60,
    memoryMb: 256,
    forwardedEvents: ['order_paid', 'order_claimed', 'order_completed', 'order_assigned', 'revision_requested'],
  },
  {
    // Firebase follows each user's standing: sign-in off while suspended or deleted, on again when
    // reactivated. A Firebase outage is retried for about twenty minutes (visibility timeout x
    // receives) before the dead-letter queue; the API refuses such a user meanwhile either way.
    // One account a message, so a provider that hangs times out one change, not ten.
    queue: 'identity',
    handler: 'sync-sign-in',
    // firebase-admin's proxy agent calls `super` from an arrow function.
    keepArrowFunctions: true,
    batchSize: 1,
    visibilityTimeoutSeconds: 120,
    maxReceiveCount: 10,
    timeoutSeconds: 30,
    memoryMb: 256,
    forwardedEvents: ['user_suspended', 'user_deleted', 'user_reactivated', 'email_changed', 'signed_out_everywhere'],
  },
  {
    // The MLS-ready JPEG of each edited photo (sharp), on delivery, re-delivery and a new size; one
    // order a message, its files one at a time. A copy peaks under 500 MB (bench/mls-rendition.ts);
    // 2 GB buys more than one vCPU (Lambda gives one at 1,769 MB), which is what a copy's time
    // follows. 15 minutes makes 100 photos of 25 MB several times over; a larger order goes on
    // from its records at the next receive.
    queue: 'renditions',
    handler: 'make-renditions',
    batchSize: 1,
    visibilityTimeoutSeconds: 960,
    maxReceiveCount: 3,
    timeoutSeconds: 900,
    memoryMb: 2048,
    forwardedEvents: ['order_completed', 'mls_size_changed'],
    nativeModules: ['sharp'],
  },
  {
    // Live updates: tells each signed-in tab that may see a change what changed (never the data),
    // over its WebSocket. Redelivery pushes again, which screens take as one more revalidation.
    // Every order event a screen shows, and a change of standing (a suspended user's sockets close).
    queue: 'live-updates',
    handler: 'push-updates',
    batchSize: 10,
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 3,
    timeoutSeconds: 30,
    memoryMb: 256,
    forwardedEvents: [
      'order_created',
      'order_paid',
      'order_assigned',
      'order_unassigned',
      'order_claimed',
      'image_uploaded',
      'edited_image_uploaded',
      'order_completed',
      'order_rated',
      'order_cancelled',
      'revision_requested',
      'edited_image_paired',
      'listing_sequence_saved',
      'mls_size_changed',
      'share_link_created',
      'share_link_revoked',
      // Marks on the photos: the other party's order page reads the marks again.
      'marks_saved',
      'mark_ticked',
      // Add-ons changed: the order's price, on any open page of it.
      'add_ons_saved',
      'user_suspended',
      'user_deleted',
      // 'Sign out of all other devices': the user's open sockets close (tokens from before are refused).
      'signed_out_everywhere',
    ],
  },
  {
    // The admin's Insights: each event that moves revenue, turnaround, ratings or the open pool is
    // added to its UTC hour's rollup once (an idempotency mark in the same transaction), so a
    // redelivery counts nothing twice. A batch is one transaction per hour it touches.
    queue: 'insights',
    handler: 'roll-up-insights',
    batchSize: 10,
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
    timeoutSeconds: 30,
    memoryMb: 256,
    forwardedEvents: [
      'order_paid',
      'order_assigned',
      'order_unassigned',
      'order_claimed',
      'order_completed',
      'order_rated',
      'order_cancelled',
      'revision_requested',
    ],
  },
  {
    // A PDF receipt of each payment and refund (pdf-lib), put under receipts/ in the photos bucket
    // and named on its billing entry; a redelivered event finds it made. A receipt is one page.
    queue: 'receipts',
    handler: 'make-receipts',
    batchSize: 5,
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
    timeoutSeconds: 30,
    memoryMb: 512,
    forwardedEvents: ['order_paid', 'order_refunded'],
  },
  {
    // A delivery (or a revision's re-delivery) after its due time: the photographer's credit as a
    // partial refund through Stripe, keyed by the order and the round, recorded once (decision 0111).
    queue: 'late-credits',
    handler: 'credit-late-delivery',
    batchSize: 5,
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
    timeoutSeconds: 30,
    memoryMb: 256,
    forwardedEvents: ['order_completed'],
  },
  {
    // 'Download my data': the account's records, a page at a time by its own keys, streamed into a
    // zip under exports/ (photos as links), then the link emailed. One account a message; an
    // account with thousands of orders is a few thousand Queries, well inside the 15 minutes.
    queue: 'account-exports',
    handler: 'export-account-data',
    batchSize: 1,
    visibilityTimeoutSeconds: 960,
    maxReceiveCount: 3,
    timeoutSeconds: 900,
    memoryMb: 512,
    forwardedEvents: ['data_export_requested'],
  },
];

/**
 * Workers run on a schedule rather than fed by a queue: an EventBridge schedule in the cloud, an
 * interval of the local stack. `handler` is a module under src/workers exporting `handler`.
 */
export interface ScheduleDefinition {
  name: string;
  handler: string;
  everyMinutes: number;
  timeoutSeconds: number;
  memoryMb: number;
}

export const schedules: readonly ScheduleDefinition[] = [
  {
    // Earnings whose revision window has closed go to their editors' Stripe accounts, a batch a run.
    name: 'release-earnings',
    handler: 'release-earnings',
    everyMinutes: 15,
    timeoutSeconds: 300,
    memoryMb: 256,
  },
  {
    // Accounts deleted by their owners lose their personal fields, pictures, data downloads, saved
    // cards and email guard once the retention has passed (data/account-deletion.ts), a batch a run.
    name: 'purge-deleted-accounts',
    handler: 'purge-deleted-accounts',
    everyMinutes: 30,
    timeoutSeconds: 300,
    memoryMb: 256,
  },
];

/** The queues the event-log worker forwards an event of this type to. */
export const forwardingQueues = (eventType: OutboxEventType): QueueName[] =>
  workers.filter((w) => w.forwardedEvents?.includes(eventType)).map((w) => w.queue);
