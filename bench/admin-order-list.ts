import os from 'node:os';
import path from 'node:path';
import {
  type AdminOrderListResponse,
  type AdminOrderSort,
  type AssignmentFilter,
  adminOrderSorts,
  assignmentFilters,
  photographerSortName,
} from '@marketplace/events/admin';
import { ulid } from 'ulid';
import { repoRoot, startLocalStack, testPorts } from '../services/local/stack';

/**
 * The admin's order list over 10,000 orders, through the local HTTP gateway as the browser calls
 * it: p50 and p95 of each assignment filter x sort, without a search and with a common and a rare
 * term, for the first page and for a deep page reached through the cursor, plus the deep page
 * jumped to without a cursor (the slow path) and GET /api/health (one GetItem) in the same run.
 *
 *   npx tsx bench/admin-order-list.ts [orders] [runs]     (default: 10000 orders, 20 runs a figure)
 *
 * It starts the local stack on the test ports shifted by TEST_PORT_OFFSET (1000 when unset) and
 * seeds the orders straight into the table (batch writes of the order records, their search
 * words and the assignment counters, as createOrder would leave them).
 */
const orderCount = Number(process.argv[2] ?? 10_000);
const runs = Number(process.argv[3] ?? 20);
const portOffset = Number(process.env.TEST_PORT_OFFSET ?? 1000);
const ports = Object.fromEntries(
  Object.entries(testPorts).map(([name, port]) => [name, port + portOffset]),
) as typeof testPorts;
const dataDir = path.join(repoRoot, '.local', `bench-admin-list-${portOffset}`);
const LIMIT = 25;
/** A deep page: the 200th of 25 is orders 4,976-5,000 of a partition-merged list. */
const DEEP_PAGE = 200;

const firstNames = ['Ann', 'Anna', 'Bob', 'Carla', 'Dmitri', 'Eve', 'Grace', 'Hiro', 'Ines', 'Jon'];
const lastNames = ['Lee', 'Ng', 'Novak', 'Ortiz', 'Park', 'Quinn', 'Reyes', 'Smith', 'Tran', 'Weiss'];
const streets = ['Maple Street', 'Oak Avenue', 'Harbor View', 'Lee Road', 'Pine Court'];

/** The orders, as createOrder and a claim would leave them: 40 % assigned, 200 photographers. */
const seed = async () => {
  const { marketplace } = await import('../services/src/data/entities');
  const { searchWordRecords, ORDERS_SCOPE, assignmentCounterName } = await import(
    '../services/src/data/order-assignment'
  );
  const e = marketplace().entities;
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  let assigned = 0;
  const records = Array.from({ length: orderCount }, (_, i) => {
    const photographerName =
      `${firstNames[i % 10]} ${lastNames[Math.floor(i / 10) % 10]} ${Math.floor(i / 100) % 2 ? 'Jr' : ''}`.trim();
    const isAssigned = (i * 7919) % 10 < 4;
    if (isAssigned) assigned += 1;
    const photoCount = 1 + ((i * 37) % 100);
    return {
      orderId: ulid(),
      orderNumber: 1001 + i,
      ...(i % 2 ? { name: `${streets[i % 5]} ${i % 97}` } : {}),
      photographerId: `bench-photographer-${i % 200}`,
      photographerName,
      photographerSortName: photographerSortName(photographerName),
      jobTypeId: 'hdr',
      jobTypeName: 'HDR',
      pricePerPhotoCents: 800,
      photoCount,
      totalAmountCents: photoCount * 800,
      hasRequirements: 'no' as const,
      status: isAssigned ? ('in_progress' as const) : ('paid' as const),
      assignment: isAssigned ? ('assigned' as const) : ('unassigned' as const),
      ...(isAssigned ? { editorId: 'bench-editor', editorName: 'Bench Editor' } : {}),
      photographerUploadCount: 0,
      editorUploadCount: 0,
      createdAt: new Date(start + ((i * 104_729) % orderCount) * 60_000).toISOString(),
    };
  });
  const words = records.flatMap(searchWordRecords);
  const started = performance.now();
  const [orders, searchWords] = await Promise.all([
    e.order.put(records).go({ concurrency: 16 }),
    e.orderSearchWord.put(words).go({ concurrency: 16 }),
  ]);
  if (orders.unprocessed.length || searchWords.unprocessed.length) throw new Error('some seed items were not written');
  await e.counter.put({ scope: ORDERS_SCOPE, name: assignmentCounterName('assigned'), value: assigned }).go();
  await e.counter
    .put({ scope: ORDERS_SCOPE, name: assignmentCounterName('unassigned'), value: orderCount - assigned })
    .go();
  const seconds = (performance.now() - started) / 1000;
  return { words: words.length, seconds };
};

const signInAsAdmin = async () => {
  const response = await fetch(
    `http://${process.env.FIREBASE_AUTH_EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=bench`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: 'demo-password', returnSecureToken: true }),
    },
  );
  return ((await response.json()) as { idToken: string }).idToken;
};

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;

const main = async () => {
  console.log(`Starting the local stack (test ports + ${portOffset})...`);
  // A bench measures the API alone, at a rate no one client may reach through the web ACL.
  const stack = await startLocalStack({ ports, dataDir, persist: false, log: () => {}, rateLimits: 'unlimited' });
  try {
    console.log(
      `${os.cpus().length} cores, ${(os.totalmem() / 1024 ** 3).toFixed(0)} GiB, Node ${process.versions.node}, load ${os.loadavg()[0]!.toFixed(1)}`,
    );
    const seeded = await seed();
    console.log(`Seeded ${orderCount} orders and ${seeded.words} search words in ${seeded.seconds.toFixed(1)} s`);
    const token = await signInAsAdmin();
    const api = `http://127.0.0.1:${ports.gateway}`;
    const get = async (pathAndQuery: string, auth = true) => {
      const started = performance.now();
      const response = await fetch(
        `${api}${pathAndQuery}`,
        auth ? { headers: { authorization: `Bearer ${token}` } } : {},
      );
      const body = (await response.json()) as AdminOrderListResponse;
      const ms = performance.now() - started;
      if (response.status !== 200) throw new Error(`${pathAndQuery}: ${response.status} ${JSON.stringify(body)}`);
      return { ms, body };
    };
    const measure = async (pathAndQuery: string, times = runs, auth = true) => {
      await get(pathAndQuery, auth);
      const ms: number[] = [];
      for (let i = 0; i < times; i++) ms.push((await get(pathAndQuery, auth)).ms);
      ms.sort((a, b) => a - b);
      return `${percentile(ms, 0.5).toFixed(0).padStart(5)} ${percentile(ms, 0.95).toFixed(0).padStart(5)}`;
    };
    const listPath = (q: Record<string, string | number | undefined>) =>
      `/api/orders/admin/all?${new URLSearchParams(Object.entries(q).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)] as [string, string]])))}`;

    console.log(
      `\nGET /api/health (one GetItem), ${runs * 2} runs: p50 p95 ms ${await measure('/api/health', runs * 2, false)}`,
    );
    console.log(`\n${runs} runs each, ms (p50 p95); limit ${LIMIT}; deep = page ${DEEP_PAGE}`);
    console.log(
      `${'filter'.padEnd(11)}${'sort'.padEnd(13)}${'search'.padEnd(8)}${'total'.padStart(6)} | first page  | deep, cursor | deep, no cursor (slow path)`,
    );
    const searches: [string, string | undefined][] = [
      ['-', undefined],
      ['"ann"', 'ann'],
      ['"1042"', '1042'],
    ];
    for (const [label, searchTerm] of searches) {
      for (const assignmentFilter of assignmentFilters as readonly AssignmentFilter[]) {
        for (const sortBy of adminOrderSorts as readonly AdminOrderSort[]) {
          const base = { assignmentFilter, sortBy, limit: LIMIT, searchTerm };
          const first = await measure(listPath(base));
          const { body } = await get(listPath(base));
          const deepPage = Math.min(DEEP_PAGE, body.totalPages - 1);
          const none = '    -     -';
          const before = deepPage >= 2 ? await get(listPath({ ...base, page: deepPage - 1 })) : undefined;
          const deepCursor = before?.body.nextCursor
            ? await measure(listPath({ ...base, page: deepPage, cursor: before.body.nextCursor }))
            : none;
          const deepJump =
            deepPage >= 2
              ? await measure(listPath({ ...base, page: deepPage }), Math.max(3, Math.floor(runs / 4)))
              : none;
          console.log(
            `${assignmentFilter.padEnd(11)}${sortBy.padEnd(13)}${label.padEnd(8)}${String(body.total).padStart(6)} | ${first} | ${deepCursor}  | ${deepJump}  (page ${deepPage})`,
          );
        }
      }
    }
  } finally {
    await stack.stop();
  }
};

await main();
process.exit(0);
