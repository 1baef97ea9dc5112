import { marketplace } from '../data/entities';
import type { CounterFamily } from './counter-checks';
import { feedbackCounters } from './counters/feedback-counters';
import { activeAdminCounter, orderCounters } from './counters/order-counters';
import { poolCounters } from './counters/pool';
import { userTotalCounters } from './counters/user-totals';

/**
 * `npm run ops -- check-counters [--repair]`: every counter counted again from the items it
 * counts, and each difference reported (or set to the counted value). An offline job: it reads
 * every order, user and report a page at a time, so it runs from the ops command and the tests,
 * never on a request. Repair is for a quiet table: a write that lands between the count and the
 * repair would be overwritten.
 */
export const counterFamilies: CounterFamily[] = [
  orderCounters,
  poolCounters,
  activeAdminCounter,
  userTotalCounters,
  feedbackCounters,
];

export interface CounterDifference {
  family: string;
  scope: string;
  name: string;
  /** null when no counter is stored (which reads as 0). */
  stored: number | null;
  counted: number;
}

const keyOf = (scope: string, name: string) => `${scope}\u0000${name}`;

const storedIn = async (scope: string) => {
  const { data } = await marketplace().entities.counter.query.byScope({ scope }).go({ pages: 'all' });
  return data as { scope: string; name: string; value: number }[];
};

export const checkCounters = async ({
  repair = false,
  families = counterFamilies,
  inScope = () => true,
}: {
  repair?: boolean;
  families?: CounterFamily[];
  /** Which scopes to compare (all by default). */
  inScope?: (scope: string) => boolean;
} = {}) => {
  const differences: CounterDifference[] = [];
  for (const family of families) {
    const counted = new Map(
      (await family.recount()).filter((c) => inScope(c.scope)).map((c) => [keyOf(c.scope, c.name), c]),
    );
    const scopes = new Set([...(await family.scopes()), ...[...counted.values()].map((c) => c.scope)]);
    const stored = new Map<string, { scope: string; name: string; value: number }>();
    for (const scope of [...scopes].filter(inScope)) {
      for (const counter of await storedIn(scope)) {
        if (family.keeps(counter.scope, counter.name)) stored.set(keyOf(counter.scope, counter.name), counter);
      }
    }
    for (const key of new Set([...counted.keys(), ...stored.keys()])) {
      const expected = counted.get(key);
      const actual = stored.get(key);
      const countedValue = expected?.value ?? 0;
      if ((actual?.value ?? 0) === countedValue) continue;
      const { scope, name } = (expected ?? actual)!;
      differences.push({ family: family.what, scope, name, stored: actual?.value ?? null, counted: countedValue });
    }
  }
  if (repair) {
    for (const d of differences) {
      await marketplace().entities.counter.put({ scope: d.scope, name: d.name, value: d.counted }).go();
    }
  }
  return differences;
};

/**
 * Counters added after a table was first written start from nothing (the pools' totals, the
 * admin list's user totals): the table needs one repair to start them at their counts. A local
 * stack does it at its first start with the code that keeps them and leaves a mark; a deployed
 * table runs `npm run ops -- check-counters --repair` once after the deploy.
 */
const COUNTERS_STARTED = { source: 'repair', messageId: 'counters-v1' } as const;
// The mark must never expire: the table's TTL would delete it (year 9999, in epoch seconds).
const NEVER = 253_402_300_799;

export const startCountersOnce = async () => {
  const { data } = await marketplace().entities.processedMessage.get(COUNTERS_STARTED).go({ consistent: true });
  if (data) return [];
  const started = await checkCounters({ repair: true });
  await marketplace()
    .entities.processedMessage.put({ ...COUNTERS_STARTED, expiresAt: NEVER, state: 'done' })
    .go();
  return started;
};
