import { type TurnaroundTier, turnaroundTiers } from '@marketplace/events/turnaround';
import { marketplace } from '../../data/entities';
import {
  flagOfPoolCounter,
  isPoolCounterScope,
  OPEN_POOL,
  openPoolPartitions,
  poolCounterKey,
  poolCounterScope,
  poolTierCounterKey,
  type RequirementsFlag,
  requirementsFlags,
  tierOfPoolCounter,
} from '../../data/order-pool';
import type { CounterFamily, ExpectedCounter } from '../counter-checks';

/**
 * The available orders' totals (order-pool.ts), counted again from the pool indexes themselves:
 * each partition of the open pool (its shards and the legacy 'open' partition) and each editor's
 * own partition, read a page at a time on poolByDate (the flag counters) and on poolByDue (the
 * tier counters: what the due-time lanes hold, decision 0110). An editor is found through the editors
 * index: the orders of someone who has since lost the role wait in a partition nobody lists, so
 * their counters are not checked until the role is given back.
 */
const entities = () => marketplace().entities;

/** How many partitions are read at once: a few, so thousands of editors take minutes, not hours. */
const PARALLEL_READS = 8;

const editorIds = async () => {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const page: { data: unknown[]; cursor: string | null } = await entities()
      .user.query.editors({ isEditor: 'editor' })
      .go({ cursor, limit: 500, attributes: ['userId'] });
    ids.push(...(page.data as { userId: string }[]).map((user) => user.userId));
    cursor = page.cursor;
  } while (cursor);
  return ids;
};

const poolPartitions = async () => [...openPoolPartitions, ...(await editorIds())];

/** The orders of one partition, by requirements flag. */
const countPartition = async (poolPartition: string) => {
  const counts: Record<RequirementsFlag, number> = { yes: 0, no: 0 };
  let cursor: string | null = null;
  do {
    const page: { data: unknown[]; cursor: string | null } = await entities()
      .order.query.poolByDate({ poolPartition })
      .go({ cursor, limit: 500, attributes: ['orderId', 'hasRequirements'] });
    for (const { hasRequirements } of page.data as { hasRequirements?: RequirementsFlag }[]) {
      counts[hasRequirements ?? 'no'] += 1;
    }
    cursor = page.cursor;
  } while (cursor);
  const byTier = new Map<string, number>();
  cursor = null;
  do {
    const page: { data: unknown[]; cursor: string | null } = await entities()
      .order.query.poolByDue({ poolPartition })
      .go({ cursor, limit: 500, attributes: ['orderId', 'hasRequirements', 'turnaroundTier'] });
    for (const row of page.data as { hasRequirements?: RequirementsFlag; turnaroundTier?: TurnaroundTier }[]) {
      const key = `${row.hasRequirements ?? 'no'} ${row.turnaroundTier ?? 'standard'}`;
      byTier.set(key, (byTier.get(key) ?? 0) + 1);
    }
    cursor = page.cursor;
  } while (cursor);
  return [
    ...requirementsFlags.map(
      (flag): ExpectedCounter => ({ ...poolCounterKey(poolPartition, flag), value: counts[flag] }),
    ),
    ...requirementsFlags.flatMap((flag) =>
      turnaroundTiers.map(
        (tier): ExpectedCounter => ({
          ...poolTierCounterKey(poolPartition, flag, tier),
          value: byTier.get(`${flag} ${tier}`) ?? 0,
        }),
      ),
    ),
  ];
};

const recount = async () => {
  const partitions = await poolPartitions();
  const counted: ExpectedCounter[] = [];
  for (let next = 0; next < partitions.length; next += PARALLEL_READS) {
    const batch = await Promise.all(partitions.slice(next, next + PARALLEL_READS).map(countPartition));
    counted.push(...batch.flat().filter((counter) => counter.value !== 0));
  }
  return counted;
};

export const poolCounters: CounterFamily = {
  what: "pools: the available orders' totals, per open-pool shard and per editor, with and without requirements, and per turnaround tier",
  recount,
  scopes: async () => [OPEN_POOL, ...(await editorIds())].map(poolCounterScope),
  keeps: (scope, name) =>
    isPoolCounterScope(scope) && (flagOfPoolCounter(name) !== undefined || tierOfPoolCounter(name) !== undefined),
};
