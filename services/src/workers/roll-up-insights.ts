import type { OrderEventMessage } from '@marketplace/events/order-events';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { logger } from '../adapters/logger';
import { batchGetAll } from '../data/batch-get';
import { getRecords, models, queryAll } from '../data/direct-reads';
import {
  addToHour,
  type Contribution,
  contributionOf,
  hourOf,
  type InsightOrder,
  isPoolEvent,
  needsOrder,
  samplePool,
} from '../data/insights';
import { flagOfPoolCounter, OPEN_POOL, poolCounterScope } from '../data/order-pool';
import { orderEventFromStreamRecord } from './outbox-message';

/**
 * The admin's Insights: adds each forwarded order event to the rollup of its UTC hour
 * (data/insights.ts), once however often it is delivered, and after each move of the open pool
 * records the pool's depth for that hour. A batch's events are added one transaction per hour
 * they fall in (their marks and the hour's update), so a busy hour takes one write per batch, not
 * one per event. An event whose order cannot be read, or an hour whose write fails, fails only
 * its own messages; a message that is no order event is logged and let go.
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const failed = new Set<string>();
  const delivered: { messageId: string; event: OrderEventMessage }[] = [];
  for (const record of event.Records) {
    const orderEvent = orderEventFromStreamRecord(record.body);
    if (orderEvent) delivered.push({ messageId: record.messageId, event: orderEvent });
    else logger.error('dropping a message that is no order event', { messageId: record.messageId });
  }
  const messagesOf = (eventId: string) => delivered.filter((d) => d.event.eventId === eventId).map((d) => d.messageId);
  const fail = (eventIds: readonly string[], error: unknown, what: string) => {
    logger.error(what, { eventIds, error: error as Error });
    for (const eventId of eventIds) for (const messageId of messagesOf(eventId)) failed.add(messageId);
  };

  let orders: Map<string, InsightOrder>;
  try {
    orders = await ordersOf(delivered.map((d) => d.event));
  } catch (error) {
    fail(
      delivered.map((d) => d.event.eventId),
      error,
      'reading the orders of an insights batch failed',
    );
    return { batchItemFailures: [...failed].map((itemIdentifier) => ({ itemIdentifier })) };
  }

  const byHour = new Map<string, Contribution[]>();
  for (const { event: orderEvent } of delivered) {
    try {
      const totals = contributionOf(orderEvent, orders.get(orderEvent.orderId));
      if (!totals) continue;
      const hour = hourOf(orderEvent.occurredAt);
      byHour.set(hour, [...(byHour.get(hour) ?? []), { eventId: orderEvent.eventId, totals }]);
    } catch (error) {
      fail([orderEvent.eventId], error, 'an insights event could not be counted');
    }
  }
  for (const [hour, contributions] of byHour) {
    try {
      await addToHour(hour, contributions);
    } catch (error) {
      fail(
        contributions.map((c) => c.eventId),
        error,
        'adding events to their hour failed',
      );
    }
  }

  // The pool's depth after the latest pool event of each hour in the batch, read once.
  const latestPoolEvent = new Map<string, OrderEventMessage>();
  for (const { event: orderEvent } of delivered) {
    if (!isPoolEvent(orderEvent.eventType)) continue;
    const hour = hourOf(orderEvent.occurredAt);
    const latest = latestPoolEvent.get(hour);
    if (!latest || latest.occurredAt < orderEvent.occurredAt) latestPoolEvent.set(hour, orderEvent);
  }
  if (latestPoolEvent.size) {
    try {
      const depth = await openPoolDepth();
      for (const [hour, latest] of latestPoolEvent) {
        await samplePool(hour, { depth, sampledAt: latest.occurredAt });
      }
    } catch (error) {
      fail(
        [...latestPoolEvent.values()].map((e) => e.eventId),
        error,
        'sampling the open pool failed',
      );
    }
  }
  return { batchItemFailures: [...failed].map((itemIdentifier) => ({ itemIdentifier })) };
};

/** The orders the batch's events need, by id: one BatchGet. */
const ordersOf = async (events: readonly OrderEventMessage[]) => {
  const ids = [...new Set(events.filter((e) => needsOrder(e.eventType)).map((e) => e.orderId))];
  if (!ids.length) return new Map<string, InsightOrder>();
  const found = await batchGetAll<{ orderId: string }, InsightOrder>(
    (keys) => getRecords<InsightOrder>(models.order, keys),
    ids.map((orderId) => ({ orderId })),
  );
  return new Map(found.map((order) => [order.orderId, order]));
};

/** Paid orders open to every editor now: the open pool's counters, every shard's (order-pool.ts). */
const openPoolDepth = async () => {
  const data = await queryAll<{ value: number }>(models.counter, 'byScope', { scope: poolCounterScope(OPEN_POOL) });
  const depth = (data as { name: string; value: number }[])
    .filter((counter) => flagOfPoolCounter(counter.name) !== undefined)
    .reduce((sum, counter) => sum + counter.value, 0);
  return Math.max(0, depth);
};
