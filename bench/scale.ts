import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Person, RARE_WORD, scaleSeed } from '../services/local/scale-seed';
import { repoRoot } from '../services/local/stack';
import { forgedToken } from '../services/test/support';
import { machine, startBenchStack } from './local-bench-stack';

/**
 * Every list and stats route as the table grows: one table seeded to 1,000, then 10,000, then
 * 100,000 orders (5,000 photographers and 500 editors at the top; services/local/scale-seed.ts),
 * and at each size p50 and p95 of every route through the local gateway, with the read units
 * DynamoDB reports for one request, beside GET /api/health (one GetItem) called in turn with
 * the route, so each route has its own baseline taken under the same machine load. Then, for
 * each route, its p50's growth from the smallest to the largest size over health's own drift,
 * and its p95 at the largest size over health's. Goal: a route grows at most 1.5x beyond
 * health's drift, and its p95 at 100,000 orders stays within 5x health's.
 *
 *   npx tsx bench/scale.ts [sizes] [runs]   (default: 1000,10000,100000 and 40 runs a figure)
 *
 * It starts the local stack on the test ports shifted by TEST_PORT_OFFSET (14000 when unset) and
 * seeds its table straight (the seed turns the table's stream off, so the outbox poller is
 * stopped first: nothing here needs it). The people measured are the seed's busiest photographer
 * and editor and its admin, signed in with emulator-style tokens. Figures and the summary are
 * also written to .local/bench-scale.json.
 */
const sizes = (process.argv[2] ?? '1000,10000,100000').split(',').map(Number);
const runs = Number(process.argv[3] ?? 40);
/** Unmeasured calls of every route before a size's figures are taken. */
const WARM_UP_ROUNDS = 3;
/** A figure stops early once it has taken this long (at least 5 runs): a route that takes seconds. */
const FIGURE_SECONDS = 30;
const GOAL_GROWTH = 1.5;
const GOAL_P95_OVER_HEALTH = 5;

type Caller = 'photographer' | 'editor' | 'admin';

interface Probe {
  route: string;
  label: string;
  as: Caller;
  path: string;
  /** Reach page N through each page's nextCursor first (by number where the route has no cursor). */
  page?: number;
}

const query = (params: Record<string, string | number | undefined>) => {
  const defined = Object.entries(params).filter((entry): entry is [string, string | number] => entry[1] !== undefined);
  return defined.length ? `?${new URLSearchParams(defined.map(([k, v]): [string, string] => [k, String(v)]))}` : '';
};

const probesFor = (seed: ReturnType<typeof scaleSeed>, rareWord: string): Probe[] => {
  const { editor } = seed.people();
  const order = seed.photographerOrder('completed-after-revision')!;
  const probe = (route: string, label: string, as: Caller, path: string, page?: number): Probe => ({
    route: `GET ${route}`,
    label,
    as,
    path,
    ...(page ? { page } : {}),
  });
  const available = (filter: string, sort: string, page?: number) =>
    probe(
      '/api/orders/available',
      `${filter} ${sort}${page ? `, page ${page} of 10` : ''}`,
      'editor',
      `/api/orders/available${query({ filter, sort, ...(page ? { limit: 10 } : {}) })}`,
      page,
    );
  const adminOrders = (assignmentFilter: string, sortBy: string, searchTerm?: string, page?: number) =>
    probe(
      '/api/orders/admin/all',
      `${assignmentFilter} ${sortBy}${searchTerm ? `, search "${searchTerm}"` : ''}${page ? `, page ${page}` : ''}`,
      'admin',
      `/api/orders/admin/all${query({ assignmentFilter, sortBy, searchTerm })}`,
      page,
    );
  return [
    probe('/api/orders/my', 'first page', 'photographer', '/api/orders/my'),
    probe('/api/orders/my', 'page 3', 'photographer', '/api/orders/my', 3),
    probe('/api/stats/photographer', 'stats', 'photographer', '/api/stats/photographer'),
    probe('/api/orders/{id}', 'a revised order', 'photographer', `/api/orders/${order}`),
    probe('/api/orders/{id}/events', 'a revised order', 'photographer', `/api/orders/${order}/events`),
    probe('/api/feedback/my', "the photographer's", 'photographer', '/api/feedback/my'),
    probe('/api/orders/job-types', 'job types', 'photographer', '/api/orders/job-types'),
    ...['all', 'with-requirements', 'no-requirements'].flatMap((filter) =>
      ['newest', 'oldest', 'highest-price'].map((sort) => available(filter, sort)),
    ),
    available('all', 'newest', 3),
    probe('/api/orders/my-assignments', 'work in hand', 'editor', '/api/orders/my-assignments'),
    probe('/api/stats/editor', 'stats', 'editor', '/api/stats/editor'),
    ...['unassigned', 'assigned', 'all'].flatMap((filter) =>
      ['newest', 'oldest', 'most-photos', 'photographer'].map((sort) => adminOrders(filter, sort)),
    ),
    adminOrders('all', 'newest', undefined, 3),
    adminOrders('all', 'newest', rareWord),
    // A common name: a search costs the orders it matches, so this one grows with the table by design.
    adminOrders('all', 'newest', 'ann'),
    probe('/api/admin/users', 'first page', 'admin', '/api/admin/users'),
    probe('/api/admin/users', 'page 3', 'admin', '/api/admin/users', 3),
    probe('/api/admin/users', 'role=admin', 'admin', `/api/admin/users${query({ role: 'admin' })}`),
    probe('/api/admin/users', 'status=suspended', 'admin', `/api/admin/users${query({ status: 'suspended' })}`),
    probe('/api/admin/invited-users', 'invited editors', 'admin', '/api/admin/invited-users'),
    probe('/api/admin/editors', 'first page', 'admin', '/api/admin/editors'),
    probe('/api/admin/editors', 'page 2', 'admin', '/api/admin/editors', 2),
    probe('/api/admin/editors/{id}/stats', 'the busiest editor', 'admin', `/api/admin/editors/${editor.userId}/stats`),
    probe(
      '/api/admin/editors/{id}/payouts',
      'the busiest editor',
      'admin',
      `/api/admin/editors/${editor.userId}/payouts`,
    ),
    probe('/api/admin/job-types', 'job types', 'admin', '/api/admin/job-types'),
    probe('/api/feedback/all', 'all all', 'admin', `/api/feedback/all${query({ status: 'all', type: 'all' })}`),
    probe(
      '/api/feedback/all',
      'all all, page 3',
      'admin',
      `/api/feedback/all${query({ status: 'all', type: 'all' })}`,
      3,
    ),
    probe('/api/feedback/all', 'all problem', 'admin', `/api/feedback/all${query({ status: 'all', type: 'problem' })}`),
    probe('/api/feedback/all', 'open all', 'admin', `/api/feedback/all${query({ status: 'open', type: 'all' })}`),
    probe('/api/feedback/stats', 'stats', 'admin', '/api/feedback/stats'),
  ];
};

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
};

interface Figure {
  p50: number;
  p95: number;
  units: number;
  healthP50: number;
  healthP95: number;
  runs: number;
  /** Answers other than 200 (API Gateway's 503 when a route passes its time limit, ...). */
  failures: number;
}

/** Read units of every DynamoDB call this process makes (the gateway's handlers share its one client). */
let unitsSinceReset = 0;
const countReadUnits = async () => {
  const { dynamo } = await import('../services/src/data/client');
  dynamo().middlewareStack.add(
    (next) => async (args) => {
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity ??= 'TOTAL';
      const result = await next(args);
      const consumed = (
        result.output as { ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[] }
      ).ConsumedCapacity;
      unitsSinceReset += [consumed ?? []].flat().reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
      return result;
    },
    { step: 'initialize', name: 'countReadUnits', override: true },
  );
};

const main = async () => {
  const { stack, api } = await startBenchStack('scale', 14_000);
  const loadSamples: number[] = [];
  const sampler = setInterval(() => loadSamples.push(os.loadavg()[0]!), 5_000);
  try {
    await stack.streams.stop();
    await countReadUnits();
    const seed = scaleSeed({ log: (line) => console.log(line) });
    const tokens = new Map<Caller, string>();
    const tokenOf = (caller: Caller) => {
      const person: Person = seed.people()[caller];
      if (!tokens.has(caller)) tokens.set(caller, forgedToken({ sub: person.userId, email: person.email }));
      return tokens.get(caller)!;
    };
    const call = async (pathAndQuery: string, caller?: Caller) => {
      unitsSinceReset = 0;
      const started = performance.now();
      const response = await fetch(`${api}${pathAndQuery}`, {
        headers: caller ? { authorization: `Bearer ${tokenOf(caller)}` } : {},
      });
      const text = await response.text();
      const ms = performance.now() - started;
      return { status: response.status, ms, units: unitsSinceReset, text };
    };
    /** The probe's own path and query, walking to its page through the cursors first. */
    const target = async (probe: Probe) => {
      if (!probe.page || probe.page < 2) return probe.path;
      const join = probe.path.includes('?') ? '&' : '?';
      let cursor: string | undefined;
      for (let page = 1; page < probe.page; page++) {
        const previous = await call(
          `${probe.path}${cursor ? `${join}${query({ page, cursor }).slice(1)}` : ''}`,
          probe.as,
        );
        const body = previous.status === 200 ? (JSON.parse(previous.text) as { nextCursor?: string | null }) : {};
        if (!('nextCursor' in body) || !body.nextCursor) break;
        cursor = body.nextCursor;
      }
      return `${probe.path}${join}${query({ page: probe.page, cursor }).slice(1)}`;
    };
    const measure = async (probe: Probe): Promise<Figure> => {
      const path = await target(probe);
      await call('/api/health');
      await call(path, probe.as);
      const ms: number[] = [];
      const health: number[] = [];
      const units: number[] = [];
      let failures = 0;
      const started = performance.now();
      for (let i = 0; i < runs; i++) {
        health.push((await call('/api/health')).ms);
        const answer = await call(path, probe.as);
        ms.push(answer.ms);
        units.push(answer.units);
        if (answer.status !== 200) failures += 1;
        if (i >= 4 && performance.now() - started > FIGURE_SECONDS * 1000) break;
      }
      return {
        p50: percentile(ms, 0.5),
        p95: percentile(ms, 0.95),
        units: percentile(units, 0.5),
        healthP50: percentile(health, 0.5),
        healthP95: percentile(health, 0.95),
        runs: ms.length,
        failures,
      };
    };

    const measured = new Map<number, Figure[]>();
    const seeded = new Map<number, { seconds: number; load: string }>();
    let probes: Probe[] = [];
    for (const size of sizes) {
      const report = await seed.grow(size);
      probes = probesFor(seed, RARE_WORD);
      loadSamples.length = 0;
      loadSamples.push(os.loadavg()[0]!);
      // Every route and health a few times first, unmeasured: the first size would otherwise be
      // measured while the gateway's handlers are still being compiled, and look slower than the
      // larger sizes after it (health's own p50 halved from the first size to the last).
      for (let round = 0; round < WARM_UP_ROUNDS; round++) {
        for (const probe of probes) {
          await call('/api/health');
          await call(await target(probe), probe.as);
        }
      }
      const figures: Figure[] = [];
      for (const probe of probes) figures.push(await measure(probe));
      measured.set(size, figures);
      const load = `${Math.min(...loadSamples).toFixed(1)}-${Math.max(...loadSamples).toFixed(1)}`;
      seeded.set(size, { seconds: report.seconds, load });
      console.log(
        `\n${size.toLocaleString('en')} orders (${report.photographers.toLocaleString('en')} photographers, ${report.editors} editors; ${report.items.toLocaleString('en')} items written in ${report.seconds.toFixed(0)} s), load average ${load} while measuring, up to ${runs} runs a figure, ms:\n`,
      );
      console.log('| Route | Asked | p50 | p95 | Read units | Health p50 | Health p95 | Not 200 |');
      console.log('|---|---|---:|---:|---:|---:|---:|---:|');
      probes.forEach((probe, i) => {
        const f = figures[i]!;
        console.log(
          `| \`${probe.route}\` | ${probe.label} | ${f.p50.toFixed(0)} | ${f.p95.toFixed(0)} | ${f.units} | ${f.healthP50.toFixed(0)} | ${f.healthP95.toFixed(0)} | ${f.failures ? `${f.failures} of ${f.runs}` : 0} |`,
        );
      });
    }

    const first = sizes[0]!;
    const last = sizes.at(-1)!;
    const from = measured.get(first)!;
    const to = measured.get(last)!;
    console.log(`\n${machine()}`);
    console.log(
      `\nFrom ${first.toLocaleString('en')} to ${last.toLocaleString('en')} orders. Growth = p50 at ${last.toLocaleString('en')} / p50 at ${first.toLocaleString('en')}, over health's own (its p50 beside the route, at both sizes); goal ${GOAL_GROWTH}x. p95 / health = the route's p95 at ${last.toLocaleString('en')} over health's in the same round; goal ${GOAL_P95_OVER_HEALTH}x.\n`,
    );
    console.log(
      `| Route | Asked | Read units | p50 ms | Growth | Health drift | Growth beyond health | p95 / health p95 | Goals |`,
    );
    console.log('|---|---|---:|---:|---:|---:|---:|---:|---|');
    const summary = probes.map((probe, i) => {
      const a = from[i]!;
      const b = to[i]!;
      const growth = b.p50 / a.p50;
      const drift = b.healthP50 / a.healthP50;
      const beyond = growth / drift;
      const overHealth = b.p95 / b.healthP95;
      const met = beyond <= GOAL_GROWTH && overHealth <= GOAL_P95_OVER_HEALTH && !a.failures && !b.failures;
      console.log(
        `| \`${probe.route}\` | ${probe.label} | ${a.units} → ${b.units} | ${a.p50.toFixed(0)} → ${b.p50.toFixed(0)} | ${growth.toFixed(2)} | ${drift.toFixed(2)} | ${beyond.toFixed(2)} | ${overHealth.toFixed(1)} | ${met ? 'met' : '**not met**'} |`,
      );
      return { ...probe, growth, drift, beyond, overHealth, met };
    });
    const missed = summary.filter((s) => !s.met);
    console.log(
      missed.length
        ? `\n${missed.length} of ${summary.length} figures miss a goal: ${missed.map((s) => `${s.route} (${s.label})`).join('; ')}`
        : `\nEvery route meets both goals.`,
    );
    const file = path.join(repoRoot, '.local', 'bench-scale.json');
    writeFileSync(
      file,
      JSON.stringify(
        {
          machine: machine(),
          runs,
          sizes: sizes.map((size) => ({
            size,
            ...seeded.get(size),
            figures: probes.map((probe, i) => ({ ...probe, ...measured.get(size)![i]! })),
          })),
          summary,
        },
        null,
        2,
      ),
    );
    console.log(`Figures saved in ${path.relative(repoRoot, file)}`);
  } finally {
    clearInterval(sampler);
    await stack.stop();
  }
};

// Ctrl-C: exit through process.exit, so the stack's emulators are stopped on the way out.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));
await main();
process.exit(0);
