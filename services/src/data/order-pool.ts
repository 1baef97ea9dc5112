import { type TurnaroundTier, tierOf, turnaroundTiers } from '@marketplace/events/turnaround';
import type { WhereAttributeSymbol } from 'electrodb';
import { counterAdd } from './transactions';

/**
 * Where a paid, unclaimed order waits in the pool indexes (gsi2 poolByDate, gsi3 poolByPrice, gsi8
 * poolByDue), and
 * the counters that total each place. `pool` says whom the order is offered to ('open': every
 * editor; else the id of the editor an admin assigned it to); `poolPartition` is the indexes'
 * partition key: one of the open pool's shards, chosen by the order id, or the editor's id. Orders
 * opened before the shards have `pool` 'open' and no `poolPartition`: they sit in the legacy 'open'
 * partition, which the list reads as one more shard (docs/decisions/0052-open-pool-in-four-shards.md).
 */
type Entities = Parameters<typeof counterAdd>[0];

export const OPEN_POOL = 'open';
/** The open pool is spread over this many partitions (the arithmetic is in docs/decisions/0052-open-pool-in-four-shards.md). */
export const OPEN_POOL_SHARDS = 4;
/** Where open orders written before the shards still are: the index partition of `pool` 'open'. */
export const LEGACY_OPEN_PARTITION = OPEN_POOL;

/** FNV-1a: a fixed, even spread of any id over the shards, the same in every process forever. */
const fnv1a = (text: string) => {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
};

/** The open pool's shard an order always goes to: 'open#0'..'open#3'. */
export const openPoolShard = (orderId: string) => `${OPEN_POOL}#${fnv1a(orderId) % OPEN_POOL_SHARDS}`;

/** Every partition an open order can be in: the shards, then the legacy partition. */
export const openPoolPartitions = [
  ...Array.from({ length: OPEN_POOL_SHARDS }, (_, shard) => `${OPEN_POOL}#${shard}`),
  LEGACY_OPEN_PARTITION,
];

export type RequirementsFlag = 'yes' | 'no';
export const requirementsFlags: readonly RequirementsFlag[] = ['yes', 'no'];

/**
 * The counter of one partition's orders with or without requirements. The open pool's partitions
 * share the scope 'pool#open', so one Query reads them all: 'yes#2' / 'no#2' for shard 2, 'yes' /
 * 'no' for the legacy partition. Each is an item of its own, so writes to different shards never
 * collide. An editor's partition has its scope: 'pool#<editor id>', 'yes' / 'no'.
 */
export const poolCounterScope = (pool: string) => `pool#${pool}`;
export const isPoolCounterScope = (scope: string) => scope.startsWith('pool#');

export const poolCounterKey = (partition: string, flag: RequirementsFlag) => {
  if (!openPoolPartitions.includes(partition)) return { scope: poolCounterScope(partition), name: flag };
  const shard = partition === LEGACY_OPEN_PARTITION ? '' : partition.slice(OPEN_POOL.length);
  return { scope: poolCounterScope(OPEN_POOL), name: `${flag}${shard}` };
};

/** The requirements flag a pool counter's name counts ('yes#2' counts 'yes'), or undefined for another counter. */
export const flagOfPoolCounter = (name: string) =>
  requirementsFlags.find((flag) => name === flag || name.startsWith(`${flag}#`));

/**
 * The counter of one partition's orders of one turnaround tier, with or without requirements: the
 * total of the tier filter (decision 0110). Beside the flag counters in the same scope, named
 * 'tier#express#yes#2' (shard 2), 'tier#express#yes' (the legacy partition, an editor's), so the
 * flag counters' names and sums are untouched.
 */
const TIER_COUNTER_PREFIX = 'tier#';

export const poolTierCounterKey = (partition: string, flag: RequirementsFlag, tier: TurnaroundTier) => {
  const { scope, name } = poolCounterKey(partition, flag);
  return { scope, name: `${TIER_COUNTER_PREFIX}${tier}#${name}` };
};

/** The tier and flag a pool tier counter's name counts ('tier#rush#no#1': rush, 'no'), or undefined for another counter. */
export const tierOfPoolCounter = (name: string): { tier: TurnaroundTier; flag: RequirementsFlag } | undefined => {
  if (!name.startsWith(TIER_COUNTER_PREFIX)) return undefined;
  const [tier, ...rest] = name.slice(TIER_COUNTER_PREFIX.length).split('#');
  const flag = flagOfPoolCounter(rest.join('#'));
  return flag && (turnaroundTiers as readonly string[]).includes(tier ?? '')
    ? { tier: tier as TurnaroundTier, flag }
    : undefined;
};

/**
 * poolByDue's sort key: the flag, the tier, the due time, the id. A lane is a flag and a tier
 * (`poolDueLane`), read in due order; the due times are ISO strings of one length, so the key's
 * order is the due time's, the id breaking ties.
 */
export const poolDueLane = (flag: RequirementsFlag, tier: TurnaroundTier) => `${flag}#${tier}#`;
export const poolDueKeyOf = (order: {
  orderId: string;
  hasRequirements?: RequirementsFlag;
  turnaroundTier?: string;
  dueAt: string;
}) => `${poolDueLane(order.hasRequirements ?? 'no', tierOf(order.turnaroundTier))}${order.dueAt}#${order.orderId}`;

/** Where an order is offered: the attributes to set together. */
export interface PoolPlace {
  pool: string;
  poolPartition: string;
}

export const openPlace = (orderId: string): PoolPlace => ({ pool: OPEN_POOL, poolPartition: openPoolShard(orderId) });
export const assignedPlace = (editorId: string): PoolPlace => ({ pool: editorId, poolPartition: editorId });

interface PooledOrder {
  orderId: string;
  pool?: string;
  poolPartition?: string;
  hasRequirements?: RequirementsFlag;
  turnaroundTier?: string;
}

/** The index partition an order is in, or undefined when it is in no pool. */
export const poolPartitionOf = (order: PooledOrder) =>
  order.pool === undefined ? undefined : (order.poolPartition ?? order.pool);

/**
 * The counter writes that move an order from where it is to `to` (null: out of every pool). None
 * when it stays in the same partition. The caller's conditional write must pin the place it read
 * (`poolAsRead`), so the counters move exactly when the order does.
 */
export const poolMoveWrites = (e: Entities, order: PooledOrder, to: PoolPlace | null) => {
  const from = poolPartitionOf(order);
  if (from === to?.poolPartition) return [];
  const flag = order.hasRequirements ?? 'no';
  const tier = tierOf(order.turnaroundTier);
  // Each partition's flag counter and its tier counter (a paid order is in poolByDue wherever it is pooled).
  const counters = (partition: string, by: number) =>
    [poolCounterKey(partition, flag), poolTierCounterKey(partition, flag, tier)].map(({ scope, name }) =>
      counterAdd(e, scope, name, by),
    );
  return [...(from === undefined ? [] : counters(from, -1)), ...(to ? counters(to.poolPartition, 1) : [])];
};

type StringAttribute = WhereAttributeSymbol<string>;
interface PoolConditionOperations {
  eq: <T, A extends WhereAttributeSymbol<T>>(attr: A, value: T) => string;
  notExists: <A extends WhereAttributeSymbol<unknown>>(attr: A) => string;
}

/** A condition that holds only while the order is still in the pool place it was read in. */
export const poolAsRead = (
  order: PooledOrder,
  { pool, poolPartition }: { pool: StringAttribute; poolPartition: StringAttribute },
  { eq, notExists }: PoolConditionOperations,
) => {
  if (order.pool === undefined) return notExists(pool);
  const partition =
    order.poolPartition === undefined ? notExists(poolPartition) : eq(poolPartition, order.poolPartition);
  return `${eq(pool, order.pool)} AND ${partition}`;
};
