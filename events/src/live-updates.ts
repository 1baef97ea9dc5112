import { orderStatuses } from './orders';
import * as z from './zod';

/**
 * Live updates: what the push worker tells a signed-in tab over its WebSocket. A message names the
 * kind of change and the ids it concerns, never the data: the tab reads the data again through the
 * API, so who may see what is decided in one place (the routes), not twice.
 */

/** The browser's socket path on the site's own origin; locally the dev and preview servers pass it on. */
export const LIVE_PATH = '/live';
/** The connect URL's query parameter holding the Firebase ID token (a browser cannot set headers on a WebSocket). */
export const LIVE_TOKEN_PARAMETER = 'token';
/**
 * API Gateway closes a WebSocket idle for 10 minutes; a tab sends this message every
 * LIVE_PING_INTERVAL_MS to keep it open. The gateway answers it itself (no function runs).
 */
export const LIVE_PING = JSON.stringify({ action: 'ping' });
export const LIVE_PING_INTERVAL_MS = 5 * 60 * 1000;
/** How long a connection item lives without a disconnect (API Gateway ends a connection after 2 hours). */
export const LIVE_CONNECTION_TTL_SECONDS = 3 * 60 * 60;

const orderId = /* @__PURE__ */ z.schema(() => z.string().check(z.minLength(1)));

export const liveMessage = /* @__PURE__ */ z.schema(() =>
  z.discriminatedUnion('type', [
    /** The order's status, timeline, notes, files or delivery changed: read the order and the lists again. */
    z.object({ type: z.literal('order.changed'), orderId, status: z.optional(z.enum(orderStatuses)) }),
    /** An order entered or left the open pool (paid, claimed, assigned, unassigned, cancelled): editors read the pool again. */
    z.object({ type: z.literal('pool.changed') }),
    /** A thumbnail or preview of the order's files was made, or a file was added: read the order's images again. */
    z.object({ type: z.literal('images.ready'), orderId }),
    /** A zip of the order was built: the download button can hand it over. */
    z.object({ type: z.literal('zip.ready'), orderId, kind: z.enum(['edited', 'originals', 'mls']) }),
    /** The order's MLS-ready copies were made: read the listing view again. */
    z.object({ type: z.literal('copies.ready'), orderId }),
  ]),
);
export type LiveMessage = z.infer<typeof liveMessage>;
export type LiveMessageType = LiveMessage['type'];

/**
 * A worker's own news for the push queue (a thumbnail, a zip, a set of copies made), beside the
 * outbox records the event-log worker forwards there.
 */
export const pushRequest = /* @__PURE__ */ z.schema(() => z.object({ push: liveMessage }));
export type PushRequest = z.infer<typeof pushRequest>;
