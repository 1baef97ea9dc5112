import { type LiveMessage, type PushRequest, pushRequest } from '@marketplace/events/live-updates';
import type { OrderEventMessage, OrderEventType } from '@marketplace/events/order-events';
import type { UserEventMessage } from '@marketplace/events/user-events';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { closeConnection, postToConnection } from '../adapters/live-updates';
import { logger } from '../adapters/logger';
import { publish } from '../adapters/queue-publisher';
import { connectionPages, deleteConnection, type LiveAudience, takePoolPushTurn } from '../data/live-connections';
import { getOrder, type OrderRecord } from '../data/orders';
import { orderEventFromStreamRecord, userEventFromStreamRecord } from './outbox-message';

/**
 * The push worker: for each change, finds the tabs that may see it and tells them what changed
 * (never the data; the tab reads that again through the API). Its messages are order events the
 * event-log worker forwards (see the worker table), the other workers' own news (a thumbnail, a
 * zip, a set of copies made: `pushRequest`), and a change of a user's standing (a suspended or
 * deleted user's sockets are closed).
 *
 * Who hears an order's change: its photographer, its editor (and the one it was just taken from),
 * and every admin. Editors hear `pool.changed`, with no ids, when an order enters or leaves the
 * open pool, so no editor learns of an order that is not offered to them. A connection API
 * Gateway says is gone (410) is deleted. A redelivered message is pushed again, which a tab takes
 * as one more revalidation.
 */

/** Events that put an order into the open pool or take it out. */
const POOL_EVENTS: ReadonlySet<OrderEventType> = new Set([
  'order_paid',
  'order_claimed',
  'order_assigned',
  'order_unassigned',
  'order_cancelled',
]);

/** Events that add or re-pair files: the order's image list changed. */
const IMAGE_EVENTS: ReadonlySet<OrderEventType> = new Set([
  'image_uploaded',
  'edited_image_uploaded',
  'edited_image_paired',
]);

/** Posts in flight at once: API Gateway's management API is throttled per account, not per connection. */
const POST_CONCURRENCY = 32;

interface Delivery {
  audience: LiveAudience;
  messages: LiveMessage[];
}

const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

/** The photographer, the editors (now and just before) and the admins of an order. */
const orderAudiences = (order: OrderRecord, metadata: Record<string, unknown> = {}): LiveAudience[] => {
  const userIds = new Set(
    [order.photographerId, order.editorId, text(metadata.editorId), text(metadata.previousEditorId)].filter(
      (id): id is string => Boolean(id),
    ),
  );
  return [...[...userIds].map((userId) => ({ userId })), { role: 'admin' as const }];
};

/** What an order event tells its order's listeners (the pool's editors are decided apart, below). */
export const deliveriesForOrderEvent = (event: OrderEventMessage, order: OrderRecord | null): Delivery[] => {
  const deliveries: Delivery[] = [];
  if (order) {
    const messages: LiveMessage[] = [{ type: 'order.changed', orderId: order.orderId, status: order.status }];
    if (IMAGE_EVENTS.has(event.eventType)) messages.push({ type: 'images.ready', orderId: order.orderId });
    for (const audience of orderAudiences(order, event.metadata)) deliveries.push({ audience, messages });
  }
  return deliveries;
};

const POOL_CHANGED: Delivery = { audience: { role: 'editor' }, messages: [{ type: 'pool.changed' }] };

/**
 * Whether every connected editor hears of this pool change now. Each `pool.changed` makes every
 * editor's open dashboard read the pool again; at the peak (docs/scale.md) pool changes come
 * several a second, and telling 2,000 editors of each would read the pool's shards faster than a
 * partition serves. So one push goes out at once at most every POOL_PUSH_WINDOW_MS, and a change
 * inside that window schedules one trailing push at its end (a delayed message of this queue),
 * which covers every change until then: a quiet pool is told at once, a busy one about once a
 * second (SQS delays are whole seconds; a trailing push the queue delivers late can land beside
 * the next window's leading one), and no change is left untold.
 */
const POOL_PUSH_WINDOW_MS = 1_000;

const poolPushNow = async (now = Date.now()) => {
  if (await takePoolPushTurn('leading', now, POOL_PUSH_WINDOW_MS)) return true;
  if (await takePoolPushTurn('trailing', now, POOL_PUSH_WINDOW_MS)) {
    const trailing: PushRequest = { push: { type: 'pool.changed' } };
    await publish('live-updates', [trailing], { delaySeconds: POOL_PUSH_WINDOW_MS / 1000 });
  }
  // Otherwise a trailing push is already on its way, and will be sent after this change.
  return false;
};

/** Posts each delivery's messages to its audience's connections, once a connection and message. */
const push = async (deliveries: readonly Delivery[]) => {
  const sent = new Set<string>();
  const counts = { sent: 0, gone: 0 };
  for (const { audience, messages } of deliveries) {
    for await (const page of connectionPages(audience)) {
      const posts: (() => Promise<void>)[] = [];
      for (const { connectionId } of page) {
        for (const message of messages) {
          const key = `${connectionId} ${JSON.stringify(message)}`;
          if (sent.has(key)) continue;
          sent.add(key);
          posts.push(async () => {
            if ((await postToConnection(connectionId, message)) === 'sent') counts.sent++;
            else {
              counts.gone++;
              await deleteConnection(connectionId);
            }
          });
        }
      }
      await runAll(posts, POST_CONCURRENCY);
    }
  }
  return counts;
};

/** Runs the tasks, a few at a time; the first failure fails the whole (after the others settle). */
const runAll = async (tasks: readonly (() => Promise<void>)[], concurrency: number) => {
  let next = 0;
  const failures: unknown[] = [];
  const lane = async () => {
    while (next < tasks.length) {
      const task = tasks[next++]!;
      await task().catch((error: unknown) => failures.push(error));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, tasks.length) }, lane));
  if (failures.length) throw failures[0];
};

const onOrderEvent = async (event: OrderEventMessage) => {
  const order = await getOrder(event.orderId);
  const deliveries = deliveriesForOrderEvent(event, order);
  if (POOL_EVENTS.has(event.eventType) && (await poolPushNow())) deliveries.push(POOL_CHANGED);
  return push(deliveries);
};

const onPushRequest = async ({ push: message }: PushRequest) => {
  // The trailing push of a busy window: sent as it is, and it starts a new window.
  if (!('orderId' in message)) {
    await takePoolPushTurn('leading', Date.now(), 0);
    return push([POOL_CHANGED]);
  }
  const order = await getOrder(message.orderId);
  if (!order) return { sent: 0, gone: 0 };
  return push(orderAudiences(order).map((audience) => ({ audience, messages: [message] })));
};

/** A suspended or deleted user hears nothing more: their sockets are closed and forgotten. */
const onUserEvent = async (event: UserEventMessage) => {
  if (event.eventType === 'user_reactivated') return { closed: 0 };
  let closed = 0;
  for await (const page of connectionPages({ userId: event.userId })) {
    for (const { connectionId } of page) {
      await closeConnection(connectionId);
      await deleteConnection(connectionId);
      closed++;
    }
  }
  return { closed };
};

const pushRequestOf = (body: string): PushRequest | null => {
  try {
    const parsed = pushRequest.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
};

const handle = async (record: SQSRecord) => {
  const request = pushRequestOf(record.body);
  if (request) return { kind: request.push.type, ...(await onPushRequest(request)) };
  const orderEvent = orderEventFromStreamRecord(record.body);
  if (orderEvent)
    return { kind: orderEvent.eventType, orderId: orderEvent.orderId, ...(await onOrderEvent(orderEvent)) };
  const userEvent = userEventFromStreamRecord(record.body);
  if (userEvent) return { kind: userEvent.eventType, ...(await onUserEvent(userEvent)) };
  return null;
};

export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    try {
      const outcome = await handle(record);
      // A message that is no change at all will never succeed: logged, not retried.
      if (!outcome) logger.error('dropping a message that is no change to push', { messageId: record.messageId });
      else logger.info('live update pushed', { ...outcome, messageId: record.messageId });
    } catch (error) {
      logger.error('live update not pushed', { messageId: record.messageId, error: error as Error });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
};
