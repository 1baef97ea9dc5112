import { DeleteItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { OrderEventMessage } from '@marketplace/events/order-events';
import { batchGetAll } from '../data/batch-get';
import { dynamo } from '../data/client';
import { marketplace } from '../data/entities';
import {
  addTotals,
  COUNTED_EVENTS,
  contributionOf,
  emptyTotals,
  HOUR_MS,
  type HourRollup,
  type HourTotals,
  hourOf,
  hourStart,
  type InsightOrder,
  itemFromRollup,
  needsOrder,
  readHours,
} from '../data/insights';

/**
 * `npm run ops -- rebuild-insights`: every hour of the admin's Insights counted again from the
 * stored order event log and written whole, the same items the rollup worker keeps (the same
 * arithmetic, data/insights.ts contributionOf). An offline job: it scans the event log a page at a
 * time and reads each page's orders in one BatchGet, so it runs from the ops command and the
 * tests, never on a request.
 *
 * The open pool's depth is a reading of the pool's counters when an event was rolled up, not a
 * sum of events: the log cannot say what it was, so each hour keeps the sample it has. Like a
 * counter repair it is for a quiet table: an event rolled up for a rebuilt hour while the rebuild
 * runs may be overwritten. By default it stops at the start of the current hour, which the worker
 * is still filling.
 */
const entities = () => marketplace().entities;

/** Orders remembered between pages of the scan (an order's events are spread over the table). */
const ORDERS_REMEMBERED = 5_000;
/** Hours written at once. */
const PARALLEL_WRITES = 8;

export interface InsightsRange {
  /** The first instant counted (default: the beginning of the log). */
  from?: Date;
  /** The first instant not counted (default: the start of the current hour). */
  to?: Date;
}

const countedTypes: readonly string[] = COUNTED_EVENTS;

const startOfThisHour = () => new Date(hourStart(hourOf(Date.now())));

/**
 * The rollups the stored event log implies for the hours of [from, to): each hour's totals, the
 * events counted, and the ids of orders an event needed but the table no longer holds.
 */
export const recountInsights = async ({ from, to = startOfThisHour() }: InsightsRange = {}) => {
  const hours = new Map<string, HourTotals>();
  const orders = new Map<string, InsightOrder | null>();
  const missingOrders = new Set<string>();
  let events = 0;
  let cursor: string | null = null;
  do {
    const page: { data: unknown[]; cursor: string | null } = await entities()
      .orderEvent.scan.where(({ occurredAt, eventType }, { gte, lt, eq }) =>
        [
          ...(from ? [gte(occurredAt, from.toISOString())] : []),
          lt(occurredAt, to.toISOString()),
          `(${countedTypes.map((type) => eq(eventType, type)).join(' OR ')})`,
        ].join(' AND '),
      )
      .go({ cursor });
    const found = page.data as OrderEventMessage[];
    const unread = [...new Set(found.filter((e) => needsOrder(e.eventType)).map((e) => e.orderId))].filter(
      (orderId) => !orders.has(orderId),
    );
    if (orders.size + unread.length > ORDERS_REMEMBERED) orders.clear();
    if (unread.length) {
      const read = await batchGetAll<{ orderId: string }, InsightOrder>(
        (keys) => entities().order.get(keys).go(),
        unread.map((orderId) => ({ orderId })),
      );
      for (const orderId of unread) orders.set(orderId, null);
      for (const order of read) orders.set(order.orderId, order);
    }
    for (const event of found) {
      const order = orders.get(event.orderId) ?? undefined;
      if (needsOrder(event.eventType) && !order) {
        missingOrders.add(event.orderId);
        continue;
      }
      const totals = contributionOf({ ...event, metadata: event.metadata ?? {} }, order);
      if (!totals) continue;
      const hour = hourOf(event.occurredAt);
      hours.set(hour, addTotals(hours.get(hour) ?? emptyTotals(), totals));
      events += 1;
    }
    cursor = page.cursor;
  } while (cursor);
  return { hours, events, missingOrders: [...missingOrders] };
};

/**
 * Recounts the hours of [from, to) from the event log and writes each one whole (keeping its pool
 * sample); an hour stored with nothing to count and no sample is deleted.
 */
export const rebuildInsights = async ({ from, to = startOfThisHour() }: InsightsRange = {}) => {
  const { hours: counted, events, missingOrders } = await recountInsights({ from, to });
  const lastHour = hourOf(to.getTime() - HOUR_MS);
  const stored = new Map(
    (await readHours(from ? hourOf(from) : '0000-01-01T00', lastHour)).map((rollup) => [rollup.hour, rollup]),
  );
  const hours = [...new Set([...counted.keys(), ...stored.keys()])].sort();
  let written = 0;
  let removed = 0;
  const rebuild = async (hour: string) => {
    const pool = stored.get(hour)?.pool;
    const totals = counted.get(hour);
    if (!totals && !pool) {
      const { Key, TableName } = entities().insightHour.delete({ hour }).params<{
        Key: Record<string, unknown>;
        TableName: string;
      }>();
      await dynamo().send(new DeleteItemCommand({ TableName, Key: marshall(Key) }));
      removed += 1;
      return;
    }
    const rollup: HourRollup = { hour, ...(totals ?? emptyTotals()), ...(pool ? { pool } : {}) };
    await dynamo().send(
      new PutItemCommand({
        TableName: entities().insightHour.get({ hour }).params<{ TableName: string }>().TableName,
        Item: marshall(itemFromRollup(rollup), { removeUndefinedValues: true }),
      }),
    );
    written += 1;
  };
  for (let next = 0; next < hours.length; next += PARALLEL_WRITES) {
    await Promise.all(hours.slice(next, next + PARALLEL_WRITES).map(rebuild));
  }
  return { hoursWritten: written, hoursRemoved: removed, eventsCounted: events, ordersMissing: missingOrders };
};

/** Marks a table whose rollups were counted from its log once (a local start does it, as for the list indexes). */
const REBUILT_MARK = { source: 'rebuild', messageId: 'insights-v1' } as const;
const NEVER = 253_402_300_799;

/**
 * The rollups of a table that held orders before the rollup worker existed: counted from its log
 * once per table (a local start calls it, on a quiet table before the workers run); null when done before.
 */
export const rebuildInsightsOnce = async () => {
  const { data } = await entities().processedMessage.get(REBUILT_MARK).go({ consistent: true });
  if (data) return null;
  const report = await rebuildInsights();
  await entities()
    .processedMessage.put({ ...REBUILT_MARK, expiresAt: NEVER, state: 'done' })
    .go();
  return report;
};
