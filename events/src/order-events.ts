import * as z from './zod';

/** Every event an order can go through; the event log worker stores them, the zip worker reacts to some. */
export const orderEventTypes = [
  'order_created',
  'order_paid',
  'order_assigned',
  'order_unassigned',
  'order_claimed',
  'image_uploaded',
  'edited_image_uploaded',
  'image_downloaded',
  'order_completed',
  'order_rated',
  'order_cancelled',
  /** The photographer sent a completed order back to its editor (a revision round). */
  'revision_requested',
  /** The editor matched an edited file to a different original than the name rule did. */
  'edited_image_paired',
  /** The photographer saved the listing order of the edited photos (the first is the cover). */
  'listing_sequence_saved',
  /** The photographer chose another long edge for the MLS-ready copies. */
  'mls_size_changed',
  /** The photographer made a share link for their client, or revoked one. */
  'share_link_created',
  'share_link_revoked',
  /** A cancelled order's payment was given back through Stripe (its receipt follows). */
  'order_refunded',
  /** The photographer saved the marks on one photo (shapes with notes for the editor). */
  'marks_saved',
  /** The order's editor ticked a mark done, or took the tick back. */
  'mark_ticked',
  /** The photographer changed the add-ons ticked on the photos of an order awaiting payment (decision 0109). */
  'add_ons_saved',
] as const;

export const orderEventType = /* @__PURE__ */ z.schema(() => z.enum(orderEventTypes));
export type OrderEventType = z.infer<typeof orderEventType>;

export const orderEventMessage = /* @__PURE__ */ z.schema(() =>
  z.object({
    eventId: z.string().check(z.minLength(1)),
    orderId: z.string().check(z.minLength(1)),
    eventType: orderEventType,
    description: z.string().check(z.maxLength(500)),
    actorId: z.optional(z.string()),
    occurredAt: z.iso.datetime(),
    metadata: z._default(z.record(z.string(), z.unknown()), {}),
  }),
);
export type OrderEventMessage = z.infer<typeof orderEventMessage>;

/** Queues the workers consume; the names are logical, each maps to one SQS queue in the cloud. */
export const queueNames = [
  'order-events',
  'zip-builds',
  'thumbnails',
  'notifications',
  'identity',
  'renditions',
  /** Live updates: who may see each change hears of it over their WebSocket (the push worker). */
  'live-updates',
  /** The admin's Insights: hourly rollups of the events that move revenue, turnaround and the pool. */
  'insights',
  /** A PDF receipt of each payment and refund, kept in S3. */
  'receipts',
  /** 'Download my data': an account's records gathered into a zip, and the link emailed. */
  'account-exports',
  /** A late delivery's credit: a partial refund through Stripe, once per delivery round. */
  'late-credits',
] as const;
export type QueueName = (typeof queueNames)[number];

export const zipBuildMessage = /* @__PURE__ */ z.schema(() =>
  z.object({
    orderId: z.string().check(z.minLength(1)),
    kind: z.enum(['edited', 'originals', 'mls']),
    requestedAt: z.iso.datetime(),
  }),
);
export type ZipBuildMessage = z.infer<typeof zipBuildMessage>;

/**
 * A download that found an order's MLS-ready copies missing, with nothing making them (an order
 * completed before copies were made, or a worker that gave up), asks the rendition worker directly.
 */
export const mlsCopiesRequest = /* @__PURE__ */ z.schema(() =>
  z.object({
    request: z.literal('mls-copies'),
    orderId: z.string().check(z.minLength(1)),
    requestedAt: z.iso.datetime(),
  }),
);
export type MlsCopiesRequest = z.infer<typeof mlsCopiesRequest>;
