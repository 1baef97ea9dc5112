import os from 'node:os';
import autocannon from 'autocannon';
import { type Person, scaleSeed } from '../services/local/scale-seed';
import { forgedToken } from '../services/test/support';
import { machine, startBenchStack } from './local-bench-stack';

/**
 * The API under load: autocannon against the local gateway over a table of 10,000 orders (in
 * every state, seeded by services/local/scale-seed.ts), for the busiest photographer's order
 * list, the busiest editor's available orders, the admin's order list and one order's detail,
 * each run right after GET /api/health (one GetItem) so every figure has its own baseline taken
 * under the same machine load. Requests/s, p50/p97.5/p99 latency, errors and
 * non-2xx answers (which must be 0), and the ratio of each route's requests/s to health's.
 *
 *   npx tsx bench/api-load.ts [orders] [seconds] [connections]   (default: 10000 orders, 5 s, 10)
 *
 * The stack runs on the test ports shifted by TEST_PORT_OFFSET (13000 when unset).
 */
const orderCount = Number(process.argv[2] ?? 10_000);
const seconds = Number(process.argv[3] ?? 5);
const connections = Number(process.argv[4] ?? 10);

interface Figures {
  rps: number;
  p50: number;
  p975: number;
  p99: number;
  errors: number;
  non2xx: number;
  requests: number;
}

const load = async (url: string, token: string | undefined, duration: number): Promise<Figures> => {
  const result = await autocannon({
    url,
    connections,
    duration,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  if (result.non2xx || result.errors || result.timeouts) {
    console.error(
      `${url}: ${result.errors} errors, ${result.timeouts} timeouts, status codes ${JSON.stringify(result.statusCodeStats)}`,
    );
  }
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p975: result.latency.p97_5,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    requests: result.requests.total,
  };
};

const main = async () => {
  const { stack, api } = await startBenchStack('api-load', 13_000);
  const loadSamples: number[] = [];
  let sampler: NodeJS.Timeout | undefined;
  try {
    // Orders in every state, straight into the table (services/local/scale-seed.ts: 5,000
    // photographers and 500 editors at 100,000 orders). The seed turns the table's stream off
    // (DynamoDB Local slows with every stream record it keeps), so the outbox poller stops first.
    await stack.streams.stop();
    const seed = scaleSeed();
    const seeded = await seed.grow(orderCount);
    console.log(
      `Seeded ${orderCount} orders (${seeded.photographers} photographers, ${seeded.editors} editors): ${seeded.items} items in ${seeded.seconds.toFixed(1)} s`,
    );
    // The seed's busiest photographer (one order in 23), its busiest editor and its admin, with
    // tokens such as the auth emulator issues (the gateway checks their claims, as it does the emulator's).
    const signedIn = (person: Person) => ({ token: forgedToken({ sub: person.userId, email: person.email }) });
    const people = seed.people();
    const photographer = signedIn(people.photographer);
    const editor = signedIn(people.editor);
    const admin = signedIn(people.admin);
    const anOrder = { orderId: seed.photographerOrder('completed')! };
    const targets: { label: string; path: string; token: string }[] = [
      { label: "GET /api/orders/my (photographer's list, 20)", path: '/api/orders/my', token: photographer.token },
      { label: 'GET /api/orders/available (editor)', path: '/api/orders/available', token: editor.token },
      { label: 'GET /api/orders/admin/all (admin, 25)', path: '/api/orders/admin/all?limit=25', token: admin.token },
      { label: 'GET /api/orders/{id} (owner)', path: `/api/orders/${anOrder.orderId}`, token: photographer.token },
    ];
    for (const target of targets) {
      const response = await fetch(`${api}${target.path}`, { headers: { authorization: `Bearer ${target.token}` } });
      if (response.status !== 200)
        throw new Error(`${target.path} answered ${response.status}: ${await response.text()}`);
    }

    // Warm-up: every handler loaded and the JIT settled before anything is measured.
    await load(`${api}/api/health`, undefined, 2);
    for (const target of targets) await load(`${api}${target.path}`, target.token, 2);

    sampler = setInterval(() => loadSamples.push(os.loadavg()[0]!), 1000);
    const rows: { label: string; figures: Figures; health: Figures }[] = [];
    for (const target of targets) {
      const health = await load(`${api}/api/health`, undefined, seconds);
      const figures = await load(`${api}${target.path}`, target.token, seconds);
      rows.push({ label: target.label, figures, health });
    }
    clearInterval(sampler);

    const format = (f: Figures) =>
      `${f.rps.toFixed(0).padStart(6)} ${String(f.p50).padStart(5)} ${String(f.p975).padStart(6)} ${String(f.p99).padStart(5)} ${String(f.errors + f.non2xx).padStart(7)}`;
    console.log(`\n${machine()}`);
    console.log(
      `load average (1 min) during the run: ${Math.min(...loadSamples).toFixed(1)}-${Math.max(...loadSamples).toFixed(1)}`,
    );
    console.log(
      `${orderCount} orders, ${connections} connections, ${seconds} s a figure, health run just before each\n`,
    );
    console.log(`${'route'.padEnd(48)}   req/s   p50  p97.5   p99  errors | health req/s  p50 | ratio`);
    for (const { label, figures, health } of rows) {
      console.log(
        `${label.padEnd(48)} ${format(figures)} | ${health.rps.toFixed(0).padStart(12)} ${String(health.p50).padStart(4)} | ${(figures.rps / health.rps).toFixed(2)}`,
      );
    }
    const failed = rows.filter((r) => r.figures.errors + r.figures.non2xx + r.health.errors + r.health.non2xx > 0);
    if (failed.length) {
      console.error(`\nErrors or non-2xx answers under load: ${failed.map((r) => r.label).join(', ')}`);
      process.exitCode = 1;
    }
  } finally {
    clearInterval(sampler);
    await stack.stop();
  }
};

// Ctrl-C: exit through process.exit, so the stack's emulators are stopped on the way out.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));
await main();
process.exit(process.exitCode ?? 0);
