import type {
  AttributeValue,
  QueryCommandInput,
  QueryCommandOutput,
  TransactWriteItemsCommandInput,
} from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type {
  InsightAddOn,
  InsightDay,
  InsightEditor,
  InsightJobType,
  InsightPoolHour,
  InsightsQuery,
  InsightsView,
  InsightWeek,
} from '@marketplace/events/insights';
import type { OrderEventMessage, OrderEventType } from '@marketplace/events/order-events';
import { tierOf, turnaroundTiers } from '@marketplace/events/turnaround';
import { editorEarningCents } from '../domain/orders';
import { compareText } from '../domain/text-order';
import { tableName } from './client';
import { isConditionFailure } from './conditional-write';
import { keyOf, models, query } from './direct-reads';
import { writers } from './direct-writes';
import type { OrderRecord } from './orders';
import { tableRequest } from './table-requests';

/**
 * The admin's Insights, from hourly rollups (docs/decisions/0068-insights-from-hourly-rollups.md).
 * Each order event that moves a figure is added to the item of its UTC hour once: its idempotency
 * mark and the hour's update are one transaction. The tab reads the hours covering its days and
 * sums them in the admin's time zone. The same arithmetic (contributionOf) serves the worker, the
 * rebuild from the event log and its tests.
 */
const entities = () => writers();

export const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The UTC hour an instant falls in, as the rollup's sort key: 'YYYY-MM-DDTHH'. */
export const hourOf = (instant: string | number | Date) => new Date(instant).toISOString().slice(0, 13);
export const hourStart = (hour: string) => Date.parse(`${hour}:00:00.000Z`);

// ---------------------------------------------------------------- what one hour holds

/**
 * Upper bounds (hours) of the turnaround histogram's buckets: an hour wide up to the 48-hour
 * promise, wider beyond it; later than the last bound is one open bucket. Fine enough for a p50
 * and p90 within an hour where it matters, and a fixed, small number of counters per hour.
 */
export const TURNAROUND_BUCKET_HOURS: readonly number[] = [
  ...Array.from({ length: 48 }, (_, i) => i + 1),
  54,
  60,
  72,
  96,
  120,
  168,
  240,
  336,
];
const OPEN_BUCKET = 'more';
const turnaroundBuckets = [...TURNAROUND_BUCKET_HOURS.map(String), OPEN_BUCKET];

/** The bucket a turnaround of `hours` is counted in. */
export const turnaroundBucket = (hours: number) =>
  String(TURNAROUND_BUCKET_HOURS.find((upper) => hours <= upper) ?? OPEN_BUCKET);

export interface EditorHour {
  name: string;
  /** First completions. */
  completed: number;
  /** First completions after the order's due time. */
  late: number;
  /** Photos x the editor's rate, as completion books it. */
  earningsCents: number;
  /** Claim to first delivery, summed (what the editor controls; the admin's editor stats agree). */
  turnaroundSeconds: number;
  ratingSum: number;
  ratings: number;
}

export interface JobTypeHour {
  name: string;
  /** Orders paid. */
  orders: number;
}

/** An add-on's share of the orders paid (decision 0109): photos it was on, and what they paid for it. */
export interface AddOnHour {
  name: string;
  photos: number;
  revenueCents: number;
}

/** One turnaround tier's delivery rounds that had a due time (first deliveries and re-deliveries). */
export interface TierHour {
  delivered: number;
  /** Delivered by the round's due time. */
  onTime: number;
}

export interface HourTotals {
  ordersPaid: number;
  grossCents: number;
  refunds: number;
  refundsCents: number;
  ordersCompleted: number;
  completedWithinPromise: number;
  revisionRequests: number;
  /** The price of the orders first completed: the platform keeps it less their editors' earnings. */
  deliveredCents: number;
  /** First completions by payment-to-delivery time: the bucket's upper bound (hours) -> count. */
  turnaround: Record<string, number>;
  /** Deliveries per turnaround tier (decision 0111): tier -> delivered, on time. */
  tiers: Record<string, TierHour>;
  jobTypes: Record<string, JobTypeHour>;
  addOns: Record<string, AddOnHour>;
  editors: Record<string, EditorHour>;
}

export interface PoolSample {
  depth: number;
  /** occurredAt of the event after which it was read. */
  sampledAt: string;
}

export interface HourRollup extends HourTotals {
  hour: string;
  pool?: PoolSample;
}

const SCALARS = [
  'ordersPaid',
  'grossCents',
  'refunds',
  'refundsCents',
  'ordersCompleted',
  'completedWithinPromise',
  'revisionRequests',
  'deliveredCents',
] as const satisfies readonly (keyof HourTotals)[];
const EDITOR_NUMBERS = [
  'completed',
  'late',
  'earningsCents',
  'turnaroundSeconds',
  'ratingSum',
  'ratings',
] as const satisfies readonly (keyof EditorHour)[];

export const emptyTotals = (): HourTotals => ({
  ordersPaid: 0,
  grossCents: 0,
  refunds: 0,
  refundsCents: 0,
  ordersCompleted: 0,
  completedWithinPromise: 0,
  revisionRequests: 0,
  deliveredCents: 0,
  turnaround: {},
  tiers: {},
  jobTypes: {},
  addOns: {},
  editors: {},
});

const emptyEditor = (name: string): EditorHour => ({
  name,
  completed: 0,
  late: 0,
  earningsCents: 0,
  turnaroundSeconds: 0,
  ratingSum: 0,
  ratings: 0,
});

/** Adds `more` into `into` (names: the later one wins when it has one). */
export const addTotals = (into: HourTotals, more: HourTotals) => {
  for (const name of SCALARS) into[name] += more[name];
  for (const [bucket, count] of Object.entries(more.turnaround)) {
    into.turnaround[bucket] = (into.turnaround[bucket] ?? 0) + count;
  }
  for (const [tier, counts] of Object.entries(more.tiers)) {
    const entry = into.tiers[tier] ?? { delivered: 0, onTime: 0 };
    into.tiers[tier] = entry;
    entry.delivered += counts.delivered;
    entry.onTime += counts.onTime;
  }
  for (const [id, jobType] of Object.entries(more.jobTypes)) {
    const entry = into.jobTypes[id] ?? { name: jobType.name, orders: 0 };
    into.jobTypes[id] = entry;
    entry.orders += jobType.orders;
    if (jobType.name) entry.name = jobType.name;
  }
  for (const [id, addOn] of Object.entries(more.addOns)) {
    const entry = into.addOns[id] ?? { name: addOn.name, photos: 0, revenueCents: 0 };
    into.addOns[id] = entry;
    entry.photos += addOn.photos;
    entry.revenueCents += addOn.revenueCents;
    if (addOn.name) entry.name = addOn.name;
  }
  for (const [id, editor] of Object.entries(more.editors)) {
    const entry = into.editors[id] ?? emptyEditor(editor.name);
    into.editors[id] = entry;
    for (const name of EDITOR_NUMBERS) entry[name] += editor[name];
    if (editor.name) entry.name = editor.name;
  }
  return into;
};

// ---------------------------------------------------------------- what each event adds

/** The events whose figures the rollups count (the worker table forwards these and the pool's). */
export const COUNTED_EVENTS = [
  'order_paid',
  'order_completed',
  'order_rated',
  'order_cancelled',
  'revision_requested',
] as const satisfies readonly OrderEventType[];

/** The events that move the open pool: after each, the pool's depth is sampled for its hour. */
export const POOL_EVENTS = [
  'order_paid',
  'order_assigned',
  'order_unassigned',
  'order_claimed',
  'order_cancelled',
] as const satisfies readonly OrderEventType[];

export const isCountedEvent = (type: string) => (COUNTED_EVENTS as readonly string[]).includes(type);
export const isPoolEvent = (type: string) => (POOL_EVENTS as readonly string[]).includes(type);

/** The order's fields the figures need beyond the event's own metadata. */
export type InsightOrder = Pick<
  OrderRecord,
  | 'orderId'
  | 'jobTypeId'
  | 'jobTypeName'
  | 'totalAmountCents'
  | 'paidAt'
  | 'dueAt'
  | 'claimedAt'
  | 'photoCount'
  | 'editorId'
  | 'editorName'
  | 'editorEmail'
  | 'editorRateCents'
  | 'addOns'
  | 'turnaroundTier'
>;

/** Whether an event's figures need its order's record (one read of the order). */
export const needsOrder = (type: string) =>
  type === 'order_paid' || type === 'order_completed' || type === 'order_rated';

const numberIn = (metadata: Record<string, unknown>, name: string) =>
  typeof metadata[name] === 'number' && Number.isFinite(metadata[name]) ? (metadata[name] as number) : undefined;
const textIn = (metadata: Record<string, unknown>, name: string) =>
  typeof metadata[name] === 'string' && metadata[name] ? (metadata[name] as string) : undefined;

type InsightEvent = Pick<OrderEventMessage, 'eventType' | 'occurredAt' | 'metadata'>;

/**
 * What one event adds to its hour, or null when it adds nothing (a re-delivery after a revision,
 * a rating with no editor, a cancel with nothing to refund, an event the tab does not count).
 * `order` is the order's record; events that need it (needsOrder) throw without it.
 */
export const contributionOf = (event: InsightEvent, order: InsightOrder | undefined): HourTotals | null => {
  const metadata = event.metadata ?? {};
  const totals = emptyTotals();
  const requireOrder = () => {
    if (!order) throw new Error(`${event.eventType} needs its order, which was not found`);
    return order;
  };
  switch (event.eventType) {
    case 'order_paid': {
      const paid = requireOrder();
      totals.ordersPaid = 1;
      totals.grossCents = numberIn(metadata, 'amountCents') ?? paid.totalAmountCents;
      totals.jobTypes[paid.jobTypeId] = { name: paid.jobTypeName, orders: 1 };
      // The add-ons as the order priced them when paid (they cannot change after).
      for (const line of paid.addOns ?? []) {
        totals.addOns[line.addOnId] = {
          name: line.name,
          photos: line.photoCount,
          revenueCents: line.photoCount * line.pricePerPhotoCents,
        };
      }
      return totals;
    }
    case 'order_cancelled': {
      // The whole amount is owed back from the cancel on (a refund Stripe refused is retried by the admin).
      const refund = numberIn(metadata, 'refundDueCents') ?? 0;
      if (refund <= 0) return null;
      totals.refunds = 1;
      totals.refundsCents = refund;
      return totals;
    }
    case 'revision_requested':
      totals.revisionRequests = 1;
      return totals;
    case 'order_completed': {
      // A revision's re-delivery carries its round: the order was completed (and booked) before.
      // It counts only for its tier's on-time share, when the round had a due time (rounds asked
      // for before tiers had none); its lateness is the one its delivery's transaction wrote.
      if (numberIn(metadata, 'revisionRound') !== undefined) {
        if (!textIn(metadata, 'dueAt')) return null;
        const late = (numberIn(metadata, 'minutesLate') ?? 0) > 0;
        totals.tiers[tierOf(textIn(metadata, 'turnaroundTier'))] = { delivered: 1, onTime: late ? 0 : 1 };
        return totals;
      }
      const done = requireOrder();
      const at = Date.parse(event.occurredAt);
      const onTime = !done.dueAt || at <= Date.parse(done.dueAt);
      if (done.dueAt) {
        const tier = tierOf(textIn(metadata, 'turnaroundTier') ?? done.turnaroundTier);
        totals.tiers[tier] = { delivered: 1, onTime: onTime ? 1 : 0 };
      }
      totals.ordersCompleted = 1;
      totals.completedWithinPromise = onTime ? 1 : 0;
      totals.deliveredCents = numberIn(metadata, 'orderAmountCents') ?? done.totalAmountCents;
      if (done.paidAt) totals.turnaround[turnaroundBucket((at - Date.parse(done.paidAt)) / HOUR_MS)] = 1;
      const editorId = textIn(metadata, 'editorId') ?? done.editorId;
      if (editorId) {
        totals.editors[editorId] = {
          ...emptyEditor(done.editorName ?? done.editorEmail ?? ''),
          completed: 1,
          late: onTime ? 0 : 1,
          earningsCents: editorEarningCents(done),
          // As completeOrder books the editor's turnaround: claim to delivery, whole seconds.
          turnaroundSeconds: done.claimedAt ? Math.max(0, Math.round((at - Date.parse(done.claimedAt)) / 1000)) : 0,
        };
      }
      return totals;
    }
    case 'order_rated': {
      const rating = numberIn(metadata, 'rating');
      const editorId = textIn(metadata, 'editorId');
      if (rating === undefined || !editorId) return null;
      const rated = requireOrder();
      totals.editors[editorId] = {
        ...emptyEditor(rated.editorName ?? rated.editorEmail ?? ''),
        ratingSum: rating,
        ratings: 1,
      };
      return totals;
    }
    default:
      return null;
  }
};

// ---------------------------------------------------------------- the item's attributes

const turnaroundAttribute = (bucket: string) => `turnaround#${bucket}`;
const tierDeliveredAttribute = (tier: string) => `tierDelivered#${tier}`;
const tierOnTimeAttribute = (tier: string) => `tierOnTime#${tier}`;
const jobTypeAttribute = (jobTypeId: string) => `jobType#${jobTypeId}`;
const editorAttribute = (editorId: string) => `editor#${editorId}`;
const addOnAttribute = (addOnId: string) => `addOn#${addOnId}`;

/** An hour's item as ElectroDB writes it: its keys and identity, with nothing counted yet. */
const itemBase = (hour: string) =>
  entities().insightHour.put({ hour }).params<{ Item: Record<string, unknown>; TableName: string }>();

const itemKey = (hour: string) => ({ Key: keyOf(models.insightHour, 'byHour', { hour }), TableName: tableName() });

const numberOr0 = (value: unknown) => (typeof value === 'number' ? value : 0);

/** The rollup an item holds (raw attributes, as DynamoDB returns them unmarshalled). */
export const rollupFromItem = (item: Record<string, unknown>): HourRollup => {
  const rollup: HourRollup = { hour: String(item.hour), ...emptyTotals() };
  for (const name of SCALARS) rollup[name] = numberOr0(item[name]);
  for (const [attribute, value] of Object.entries(item)) {
    const [kind, ...rest] = attribute.split('#');
    const id = rest.join('#');
    if (!id) continue;
    if (kind === 'turnaround' && numberOr0(value)) rollup.turnaround[id] = numberOr0(value);
    if (kind === 'tierDelivered' || kind === 'tierOnTime') {
      const entry = rollup.tiers[id] ?? { delivered: 0, onTime: 0 };
      rollup.tiers[id] = entry;
      entry[kind === 'tierDelivered' ? 'delivered' : 'onTime'] = numberOr0(value);
    }
    if (kind === 'jobType') {
      const entry = value as Partial<JobTypeHour>;
      rollup.jobTypes[id] = { name: entry.name ?? '', orders: numberOr0(entry.orders) };
    }
    if (kind === 'addOn') {
      const entry = value as Partial<AddOnHour>;
      rollup.addOns[id] = {
        name: entry.name ?? '',
        photos: numberOr0(entry.photos),
        revenueCents: numberOr0(entry.revenueCents),
      };
    }
    if (kind === 'editor') {
      const entry = value as Partial<EditorHour>;
      const editor = emptyEditor(entry.name ?? '');
      for (const name of EDITOR_NUMBERS) editor[name] = numberOr0(entry[name]);
      rollup.editors[id] = editor;
    }
  }
  if (typeof item.poolDepth === 'number' && typeof item.poolSampledAt === 'string') {
    rollup.pool = { depth: item.poolDepth, sampledAt: item.poolSampledAt };
  }
  return rollup;
};

/** The whole item of an hour's rollup (the rebuild writes it as one Put). */
export const itemFromRollup = (rollup: HourRollup): Record<string, unknown> => {
  const item: Record<string, unknown> = { ...itemBase(rollup.hour).Item };
  for (const name of SCALARS) if (rollup[name]) item[name] = rollup[name];
  for (const [bucket, count] of Object.entries(rollup.turnaround)) {
    if (count) item[turnaroundAttribute(bucket)] = count;
  }
  for (const [tier, counts] of Object.entries(rollup.tiers)) {
    if (counts.delivered) item[tierDeliveredAttribute(tier)] = counts.delivered;
    if (counts.onTime) item[tierOnTimeAttribute(tier)] = counts.onTime;
  }
  for (const [id, jobType] of Object.entries(rollup.jobTypes)) item[jobTypeAttribute(id)] = { ...jobType };
  for (const [id, addOn] of Object.entries(rollup.addOns)) item[addOnAttribute(id)] = { ...addOn };
  for (const [id, editor] of Object.entries(rollup.editors)) item[editorAttribute(id)] = { ...editor };
  if (rollup.pool) Object.assign(item, { poolDepth: rollup.pool.depth, poolSampledAt: rollup.pool.sampledAt });
  return item;
};

/** An update expression's placeholders, named in order (#n0, :v0, ...). */
class Expression {
  readonly names: Record<string, string> = {};
  readonly values: Record<string, unknown> = {};
  private count = 0;

  name(attribute: string) {
    const placeholder = `#n${this.count++}`;
    this.names[placeholder] = attribute;
    return placeholder;
  }

  value(value: unknown) {
    const placeholder = `:v${this.count++}`;
    this.values[placeholder] = value;
    return placeholder;
  }
}

/** The identity ElectroDB gives an item (entity, version, composite attributes), set by every raw write. */
const identitySets = (hour: string, expression: Expression) =>
  Object.entries(itemBase(hour).Item)
    .filter(([attribute]) => attribute !== 'pk' && attribute !== 'sk')
    .map(([attribute, value]) => `${expression.name(attribute)} = ${expression.value(value)}`);

/**
 * The update that adds `totals` to an hour: ADD for the top-level counters; the job type and
 * editor maps are updated inside (they must exist: `entriesInit` makes them the first time).
 */
const addUpdate = (hour: string, totals: HourTotals) => {
  const expression = new Expression();
  const sets = identitySets(hour, expression);
  const adds: string[] = [];
  let zero: string | undefined;
  const addTo = (attribute: string, by: number) => {
    if (by) adds.push(`${expression.name(attribute)} ${expression.value(by)}`);
  };
  const addInside = (map: string, field: string, by: number) => {
    if (!by) return;
    const path = `${map}.${expression.name(field)}`;
    zero ??= expression.value(0);
    sets.push(`${path} = if_not_exists(${path}, ${zero}) + ${expression.value(by)}`);
  };
  for (const name of SCALARS) addTo(name, totals[name]);
  for (const [bucket, count] of Object.entries(totals.turnaround)) addTo(turnaroundAttribute(bucket), count);
  for (const [tier, counts] of Object.entries(totals.tiers)) {
    addTo(tierDeliveredAttribute(tier), counts.delivered);
    addTo(tierOnTimeAttribute(tier), counts.onTime);
  }
  for (const [id, jobType] of Object.entries(totals.jobTypes)) {
    const map = expression.name(jobTypeAttribute(id));
    sets.push(`${map}.${expression.name('name')} = ${expression.value(jobType.name)}`);
    addInside(map, 'orders', jobType.orders);
  }
  for (const [id, addOn] of Object.entries(totals.addOns)) {
    const map = expression.name(addOnAttribute(id));
    sets.push(`${map}.${expression.name('name')} = ${expression.value(addOn.name)}`);
    addInside(map, 'photos', addOn.photos);
    addInside(map, 'revenueCents', addOn.revenueCents);
  }
  for (const [id, editor] of Object.entries(totals.editors)) {
    const map = expression.name(editorAttribute(id));
    if (editor.name) sets.push(`${map}.${expression.name('name')} = ${expression.value(editor.name)}`);
    for (const field of EDITOR_NUMBERS) addInside(map, field, editor[field]);
  }
  return {
    ...itemKey(hour),
    UpdateExpression: `SET ${sets.join(', ')}${adds.length ? ` ADD ${adds.join(', ')}` : ''}`,
    ExpressionAttributeNames: expression.names,
    ExpressionAttributeValues: expression.values,
  };
};

/** Creates, where missing, the maps an update adds inside (an update cannot make a map and write in it at once). */
const entriesInit = (hour: string, totals: HourTotals) => {
  const expression = new Expression();
  const empty = expression.value({});
  const maps = [
    ...Object.keys(totals.jobTypes).map(jobTypeAttribute),
    ...Object.keys(totals.addOns).map(addOnAttribute),
    ...Object.keys(totals.editors).map(editorAttribute),
  ];
  const sets = [
    ...identitySets(hour, expression),
    ...maps.map((attribute) => {
      const map = expression.name(attribute);
      return `${map} = if_not_exists(${map}, ${empty})`;
    }),
  ];
  return {
    ...itemKey(hour),
    UpdateExpression: `SET ${sets.join(', ')}`,
    ExpressionAttributeNames: expression.names,
    ExpressionAttributeValues: expression.values,
  };
};

const marshalled = <T extends { Key?: Record<string, unknown>; ExpressionAttributeValues?: Record<string, unknown> }>(
  params: T,
) => ({
  ...params,
  ...(params.Key ? { Key: marshall(params.Key) } : {}),
  ...(params.ExpressionAttributeValues
    ? { ExpressionAttributeValues: marshall(params.ExpressionAttributeValues, { removeUndefinedValues: true }) }
    : {}),
});

// ---------------------------------------------------------------- adding events to an hour

/** Marks outlive every redelivery: SQS keeps a message 14 days at most, and a dead letter as long again. */
const MARK_MEMORY_SECONDS = 35 * 24 * 60 * 60;
const MARK_SOURCE = 'insights';
const CONFLICT_ATTEMPTS = 5;

const markPut = (eventId: string, now: number) => {
  const put = entities()
    .processedMessage.create({
      source: MARK_SOURCE,
      messageId: eventId,
      state: 'done',
      expiresAt: Math.floor(now / 1000) + MARK_MEMORY_SECONDS,
    })
    .params<{
      Item: Record<string, unknown>;
      TableName: string;
      ConditionExpression: string;
      ExpressionAttributeNames: Record<string, string>;
      ExpressionAttributeValues?: Record<string, unknown>;
    }>();
  return { ...marshalled(put), Item: marshall(put.Item, { removeUndefinedValues: true }) };
};

/** The cancellation reason of each item of a cancelled transaction; undefined for another error. */
const cancellationCodes = (error: unknown) => {
  const reasons = (error as { name?: string; CancellationReasons?: { Code?: string }[] }).CancellationReasons;
  return (error as Error)?.name === 'TransactionCanceledException' && reasons
    ? reasons.map((reason) => reason.Code ?? 'None')
    : undefined;
};

/** An update inside a map that is not there yet (DynamoDB Local says so outright; DynamoDB as a cancellation reason). */
const missingMap = (error: unknown, codes: string[] | undefined) =>
  codes
    ? codes.includes('ValidationError')
    : (error as Error)?.name === 'ValidationException' && /document path/i.test((error as Error).message);

export interface Contribution {
  eventId: string;
  totals: HourTotals;
}

/**
 * Adds these events' figures to one hour, each exactly once: one transaction of every event's
 * mark (conditional on its absence) and the hour's update. Events whose mark exists were counted
 * by an earlier delivery: they are left out and the rest committed. Returns the events added now.
 */
export const addToHour = async (hour: string, contributions: readonly Contribution[], now = Date.now()) => {
  let pending = [...new Map(contributions.map((c) => [c.eventId, c])).values()];
  let mapsMade = false;
  for (let attempt = 1; pending.length; attempt += 1) {
    const totals = pending.reduce((sum, c) => addTotals(sum, c.totals), emptyTotals());
    const input: TransactWriteItemsCommandInput = {
      TransactItems: [
        ...pending.map((c) => ({ Put: markPut(c.eventId, now) })),
        {
          Update: marshalled(addUpdate(hour, totals)) as NonNullable<
            TransactWriteItemsCommandInput['TransactItems']
          >[number]['Update'],
        },
      ],
    };
    try {
      await tableRequest('TransactWriteItems', input);
      return pending.map((c) => c.eventId);
    } catch (error) {
      const codes = cancellationCodes(error);
      const countedBefore = codes ? pending.filter((_, i) => codes[i] === 'ConditionalCheckFailed') : [];
      if (countedBefore.length) {
        pending = pending.filter((c) => !countedBefore.includes(c));
      } else if (!mapsMade && missingMap(error, codes)) {
        await tableRequest('UpdateItem', marshalled(entriesInit(hour, totals)));
        mapsMade = true;
      } else if (
        codes?.every((code) => code === 'None' || code === 'TransactionConflict') &&
        attempt < CONFLICT_ATTEMPTS
      ) {
        // Another delivery was writing the same hour at that moment: nothing was applied.
        await new Promise((resolve) => setTimeout(resolve, 10 * attempt + Math.random() * 40));
      } else {
        throw error;
      }
    }
  }
  return [];
};

/**
 * Records the open pool's depth as read after the event of `sampledAt`, unless the hour holds a
 * sample of a later event: an old redelivery never overwrites a newer reading.
 */
export const samplePool = async (hour: string, sample: PoolSample) => {
  try {
    await entities()
      .insightHour.update({ hour })
      .set({ poolDepth: sample.depth, poolSampledAt: sample.sampledAt })
      .where(
        ({ poolSampledAt }, { notExists, lt }) =>
          `${notExists(poolSampledAt)} OR ${lt(poolSampledAt, sample.sampledAt)}`,
      )
      .go({ response: 'none' });
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};

// ---------------------------------------------------------------- reading hours

type QueryParams = Omit<QueryCommandInput, 'ExpressionAttributeValues'> & {
  ExpressionAttributeValues?: Record<string, unknown>;
};

/** The items of a Query (plain values, as direct-reads.ts builds it), a DynamoDB page at a time, until `enough` says stop. */
const queryItems = async (
  params: QueryParams,
  { pageSize, maxPages, enough }: { pageSize?: number; maxPages?: number; enough?: (items: unknown[]) => boolean } = {},
) => {
  const { ExpressionAttributeValues: values, ...rest } = params;
  const input: QueryCommandInput = {
    ...rest,
    ...(values ? { ExpressionAttributeValues: marshall(values) as Record<string, AttributeValue> } : {}),
    ...(pageSize ? { Limit: pageSize } : {}),
  };
  const items: Record<string, unknown>[] = [];
  let startKey: QueryCommandInput['ExclusiveStartKey'];
  let pages = 0;
  do {
    const page = await tableRequest<QueryCommandOutput>('Query', { ...input, ExclusiveStartKey: startKey });
    items.push(...(page.Items ?? []).map((item) => unmarshall(item)));
    startKey = page.LastEvaluatedKey;
    pages += 1;
  } while (startKey && !(enough?.(items) ?? false) && (maxPages === undefined || pages < maxPages));
  return items;
};

/** The rollups of the hours from `first` to `last` (inclusive), oldest first: one Query, paged. */
export const readHours = async (first: string, last: string) => {
  const params = query(models.insightHour, 'byHour', {}).between({ hour: first }, { hour: last }).params();
  return (await queryItems(params)).map(rollupFromItem);
};

/** Bounds the search for the pool's last sample before a range: a day of hours at a time, a week at most. */
const SAMPLE_SEARCH_PAGE = 24;
const SAMPLE_SEARCH_PAGES = 7;

/** The open pool's last sample before `hour`: the depth the range starts from (null when none in a week). */
export const lastPoolSampleBefore = async (hour: string): Promise<PoolSample | null> => {
  const hours = query(models.insightHour, 'byHour', {}).lt({ hour }).params();
  const params: QueryParams = {
    ...hours,
    ExpressionAttributeNames: { ...hours.ExpressionAttributeNames, '#poolSampledAt': 'poolSampledAt' },
    FilterExpression: 'attribute_exists(#poolSampledAt)',
  };
  const items = await queryItems(
    { ...params, ScanIndexForward: false },
    { pageSize: SAMPLE_SEARCH_PAGE, maxPages: SAMPLE_SEARCH_PAGES, enough: (found) => found.length > 0 },
  );
  return items.length ? (rollupFromItem(items[0]!).pool ?? null) : null;
};

// ---------------------------------------------------------------- the admin's view

/** The calendar date (YYYY-MM-DD) of instants in one time zone. */
const zoneCalendar = (timeZone: string) => {
  const format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  return (instant: number) => {
    const parts = Object.fromEntries(format.formatToParts(instant).map((part) => [part.type, part.value]));
    return `${parts.year}-${parts.month}-${parts.day}`;
  };
};

const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** The Monday of a date's week (dates are calendar dates: no zone applies). */
const mondayOf = (date: string) => addDays(date, -((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7));

/** No zone is more than 14 hours from UTC: this much either side of a UTC day holds its local day. */
const ZONE_REACH_MS = 15 * HOUR_MS;

/**
 * The UTC hours whose start falls on the days first..last of the zone, as the first and last
 * hour's start. An hour belongs to the day it starts in: in a zone with a half-hour offset the
 * hour that straddles midnight counts wholly on the day it starts (docs/decisions/0068-insights-from-hourly-rollups.md).
 */
const hoursOfDays = (localDate: (instant: number) => string, first: string, last: string) => {
  let start = Date.parse(`${first}T00:00:00Z`) - ZONE_REACH_MS;
  while (localDate(start) < first) start += HOUR_MS;
  let end = Date.parse(`${addDays(last, 1)}T00:00:00Z`) + ZONE_REACH_MS;
  while (localDate(end) > last) end -= HOUR_MS;
  return { start, end };
};

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;
const share = (part: number, whole: number) => (whole ? part / whole : null);

/**
 * The q-quantile (0..1) of the turnarounds a histogram counts, in hours: the bucket where the
 * rank falls, interpolated linearly inside it (as Prometheus's histogram_quantile). A rank in the
 * open bucket beyond the last bound answers that bound.
 */
export const turnaroundPercentile = (histogram: Record<string, number>, q: number): number | null => {
  const total = turnaroundBuckets.reduce((sum, bucket) => sum + (histogram[bucket] ?? 0), 0);
  if (!total) return null;
  const rank = q * total;
  let seen = 0;
  let lower = 0;
  for (const upper of TURNAROUND_BUCKET_HOURS) {
    const count = histogram[String(upper)] ?? 0;
    if (count && seen + count >= rank) return round(lower + ((upper - lower) * (rank - seen)) / count, 1);
    seen += count;
    lower = upper;
  }
  return lower;
};

const completionFigures = (totals: HourTotals) => ({
  turnaroundP50Hours: turnaroundPercentile(totals.turnaround, 0.5),
  turnaroundP90Hours: turnaroundPercentile(totals.turnaround, 0.9),
  withinPromiseShare: share(totals.completedWithinPromise, totals.ordersCompleted),
});

const byName = (a: { name: string }, b: { name: string }) => compareText(a.name, b.name);

/**
 * GET /api/admin/insights: the range's days in the admin's zone, the last one today, summed from
 * the UTC hours that start on them (at most 24 x 91 + a few items, one Query), and the open
 * pool's depth at the end of each hour so far, carried over hours with no pool event from the
 * last sample before the range (one more bounded read).
 */
export const insightsView = async ({ range, tz }: InsightsQuery, now = new Date()): Promise<InsightsView> => {
  const localDate = zoneCalendar(tz);
  const to = localDate(now.getTime());
  const from = addDays(to, 1 - Number(range));
  const { start, end } = hoursOfDays(localDate, from, to);
  const [hours, before] = await Promise.all([
    readHours(hourOf(start), hourOf(end)),
    lastPoolSampleBefore(hourOf(start)),
  ]);

  const dayCount = Number(range);
  const dates = Array.from({ length: dayCount }, (_, i) => addDays(from, i));
  const days = new Map(dates.map((date) => [date, emptyTotals()]));
  const weekOf = (date: string) => (mondayOf(date) < from ? from : mondayOf(date));
  const weeks = new Map(dates.map((date) => [weekOf(date), emptyTotals()]));
  const total = emptyTotals();
  for (const rollup of hours) {
    const day = localDate(hourStart(rollup.hour));
    const dayTotals = days.get(day);
    if (!dayTotals) continue;
    addTotals(dayTotals, rollup);
    addTotals(weeks.get(weekOf(day))!, rollup);
    addTotals(total, rollup);
  }

  const samples = new Map(hours.flatMap((rollup) => (rollup.pool ? [[rollup.hour, rollup.pool.depth] as const] : [])));
  const poolDepth: InsightPoolHour[] = [];
  let depth = before?.depth ?? 0;
  for (let hour = start; hour <= Math.min(end, hourStart(hourOf(now))); hour += HOUR_MS) {
    depth = samples.get(hourOf(hour)) ?? depth;
    poolDepth.push({ hour: new Date(hour).toISOString(), depth });
  }

  const editorEarnings = (t: HourTotals) => Object.values(t.editors).reduce((sum, e) => sum + e.earningsCents, 0);
  const dayViews: InsightDay[] = [...days].map(([date, t]) => ({
    date,
    grossCents: t.grossCents,
    refundsCents: t.refundsCents,
    netCents: t.grossCents - t.refundsCents,
    ordersPaid: t.ordersPaid,
    ordersCompleted: t.ordersCompleted,
    deliveredCents: t.deliveredCents,
    editorEarningsCents: editorEarnings(t),
    takeCents: t.deliveredCents - editorEarnings(t),
  }));
  const weekViews: InsightWeek[] = [...weeks].map(([weekStart, t]) => ({
    weekStart,
    completed: t.ordersCompleted,
    ...completionFigures(t),
  }));
  const jobTypes: InsightJobType[] = Object.entries(total.jobTypes)
    .filter(([, jobType]) => jobType.orders > 0)
    .map(([jobTypeId, jobType]) => ({ jobTypeId, name: jobType.name, orders: jobType.orders }))
    .sort((a, b) => b.orders - a.orders || byName(a, b));
  const addOns: InsightAddOn[] = Object.entries(total.addOns)
    .filter(([, addOn]) => addOn.photos > 0)
    .map(([addOnId, addOn]) => ({ addOnId, name: addOn.name, photos: addOn.photos, revenueCents: addOn.revenueCents }))
    .sort((a, b) => b.revenueCents - a.revenueCents || byName(a, b));
  const editors: InsightEditor[] = Object.entries(total.editors)
    .map(([editorId, e]) => ({
      editorId,
      name: e.name,
      completed: e.completed,
      averageRating: e.ratings ? round(e.ratingSum / e.ratings, 2) : null,
      ratings: e.ratings,
      averageTurnaroundHours: e.completed ? round(e.turnaroundSeconds / e.completed / 3600, 1) : null,
      late: e.late,
      earningsCents: e.earningsCents,
    }))
    .sort((a, b) => b.completed - a.completed || byName(a, b) || compareText(a.editorId, b.editorId));

  return {
    range,
    timeZone: tz,
    from,
    to,
    totals: {
      grossCents: total.grossCents,
      refundsCents: total.refundsCents,
      netCents: total.grossCents - total.refundsCents,
      takeCents: total.deliveredCents - editorEarnings(total),
      ordersPaid: total.ordersPaid,
      ordersCompleted: total.ordersCompleted,
      completedWithinPromise: total.completedWithinPromise,
      ...completionFigures(total),
      revisionRequests: total.revisionRequests,
      revisionRate: share(total.revisionRequests, total.ordersCompleted),
    },
    days: dayViews,
    weeks: weekViews,
    onTimeByTier: turnaroundTiers.map((tier) => {
      const { delivered, onTime } = total.tiers[tier] ?? { delivered: 0, onTime: 0 };
      return { tier, delivered, onTime, onTimeShare: share(onTime, delivered) };
    }),
    jobTypes,
    addOns,
    poolDepth,
    editors,
  };
};
