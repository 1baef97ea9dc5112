import os from 'node:os';
import path from 'node:path';
import { photographerSortName } from '@marketplace/events/admin';
import { ulid } from 'ulid';
import { repoRoot, type StackPorts, startLocalStack, testPorts } from '../services/local/stack';
import { openPlace } from '../services/src/data/order-pool';
import { checkCounters } from '../services/src/ops/check-counters';
import { poolCounters } from '../services/src/ops/counters/pool';

/**
 * What the API benches share: the local stack on the test ports shifted by TEST_PORT_OFFSET (its
 * own data folder, beside a dev stack and other test runs), a sign-in at the auth emulator, and
 * orders seeded straight into the table as createOrder, payment and a claim would leave them.
 */
export const benchPorts = (defaultOffset: number) => {
  const offset = Number(process.env.TEST_PORT_OFFSET ?? defaultOffset);
  const ports = Object.fromEntries(
    Object.entries(testPorts).map(([name, port]) => [name, port + offset]),
  ) as StackPorts;
  return { offset, ports };
};

/** `log` receives the stack's lines, among them the gateway's `METHOD url status 12ms` for every request. */
export const startBenchStack = async (name: string, defaultOffset: number, log: (line: string) => void = () => {}) => {
  const { offset, ports } = benchPorts(defaultOffset);
  console.log(`Starting the local stack (test ports + ${offset})...`);
  const dataDir = path.join(repoRoot, '.local', `bench-${name}-${offset}`);
  // A bench measures the API alone, at a rate no one client may reach through the web ACL.
  const stack = await startLocalStack({ ports, dataDir, persist: false, log, rateLimits: 'unlimited' });
  return { stack, ports, dataDir, api: `http://127.0.0.1:${ports.gateway}` };
};

export const machine = () =>
  `${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${(os.totalmem() / 1024 ** 3).toFixed(0)} GiB, Node ${process.versions.node}`;

/** Signs in at the auth emulator with a password: the ID token and the account's id. */
export const signInWithPassword = async (email: string, password = 'demo-password') => {
  const response = await fetch(
    `http://${process.env.FIREBASE_AUTH_EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=bench`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, returnSecureToken: true }),
    },
  );
  const json = (await response.json()) as { idToken?: string; localId?: string; error?: { message: string } };
  if (!json.idToken || !json.localId) throw new Error(`sign-in as ${email} failed: ${json.error?.message}`);
  return { token: json.idToken, uid: json.localId };
};

const firstNames = ['Ann', 'Anna', 'Bob', 'Carla', 'Dmitri', 'Eve', 'Grace', 'Hiro', 'Ines', 'Jon'];
const lastNames = ['Lee', 'Ng', 'Novak', 'Ortiz', 'Park', 'Quinn', 'Reyes', 'Smith', 'Tran', 'Weiss'];
const streets = ['Maple Street', 'Oak Avenue', 'Harbor View', 'Lee Road', 'Pine Court'];

/**
 * `count` orders spread over `photographers` photographers, the first of them
 * `firstPhotographerId` (a real account, so its own list can be read through the API): one in
 * `openEvery` paid and open to every editor, the rest claimed by one editor (a tenth of those
 * still in progress, the others completed). Writes the order records, the assignment counters,
 * each photographer's order count and, with `searchWords`, the admin search's word records.
 */
export const seedOrders = async ({
  count,
  photographers = 200,
  firstPhotographerId = 'bench-photographer-0',
  editorId = 'bench-editor',
  openEvery = 50,
  searchWords = false,
}: {
  count: number;
  photographers?: number;
  firstPhotographerId?: string;
  editorId?: string;
  openEvery?: number;
  searchWords?: boolean;
}) => {
  const { marketplace } = await import('../services/src/data/entities');
  const { searchWordRecords, ORDERS_SCOPE, assignmentCounterName } = await import(
    '../services/src/data/order-assignment'
  );
  const e = marketplace().entities;
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  const photographerId = (i: number) =>
    i % photographers === 0 ? firstPhotographerId : `bench-photographer-${i % photographers}`;
  let assigned = 0;
  const records = Array.from({ length: count }, (_, i) => {
    const photographerName =
      `${firstNames[i % 10]} ${lastNames[Math.floor(i / 10) % 10]} ${Math.floor(i / 100) % 2 ? 'Jr' : ''}`.trim();
    const isAssigned = ((i * 7919) % count) % openEvery !== 0;
    const status = !isAssigned ? ('paid' as const) : i % 10 === 0 ? ('in_progress' as const) : ('completed' as const);
    if (isAssigned) assigned += 1;
    const photoCount = 1 + ((i * 37) % 100);
    const createdAt = new Date(start + ((i * 104_729) % count) * 60_000).toISOString();
    const orderId = ulid();
    return {
      orderId,
      orderNumber: 1001 + i,
      ...(i % 2 ? { name: `${streets[i % 5]} ${i % 97}` } : {}),
      photographerId: photographerId(i),
      photographerName,
      photographerSortName: photographerSortName(photographerName),
      jobTypeId: 'hdr',
      jobTypeName: 'HDR',
      pricePerPhotoCents: 800,
      photoCount,
      totalAmountCents: photoCount * 800,
      hasRequirements: i % 3 === 0 ? ('yes' as const) : ('no' as const),
      ...(i % 3 === 0 ? { editingRequirements: 'Brighten the windows; keep the sky blue.' } : {}),
      status,
      ...(status === 'completed' ? { completedAt: createdAt } : {}),
      paidAt: createdAt,
      dueAt: new Date(Date.parse(createdAt) + 48 * 3600_000).toISOString(),
      assignment: isAssigned ? ('assigned' as const) : ('unassigned' as const),
      ...(isAssigned ? { editorId, editorName: 'Bench Editor', claimedAt: createdAt } : openPlace(orderId)),
      photographerUploadCount: photoCount,
      editorUploadCount: 0,
      createdAt,
    };
  });
  const words = searchWords ? records.flatMap(searchWordRecords) : [];
  const started = performance.now();
  const [orders, wordResults] = await Promise.all([
    e.order.put(records).go({ concurrency: 16 }),
    words.length ? e.orderSearchWord.put(words).go({ concurrency: 16 }) : { unprocessed: [] },
  ]);
  if (orders.unprocessed.length || wordResults.unprocessed.length) throw new Error('some seed items were not written');
  await e.counter.put({ scope: ORDERS_SCOPE, name: assignmentCounterName('assigned'), value: assigned }).go();
  await e.counter.put({ scope: ORDERS_SCOPE, name: assignmentCounterName('unassigned'), value: count - assigned }).go();
  const perPhotographer = new Map<string, number>();
  for (const r of records) perPhotographer.set(r.photographerId, (perPhotographer.get(r.photographerId) ?? 0) + 1);
  await e.counter
    .put([...perPhotographer].map(([id, value]) => ({ scope: `photographer#${id}`, name: 'totalOrders', value })))
    .go({ concurrency: 8 });
  // The open pool's totals, as the payments would have moved them.
  await checkCounters({ repair: true, families: [poolCounters] });
  return {
    orders: records,
    words: words.length,
    seconds: (performance.now() - started) / 1000,
    ordersOfFirstPhotographer: perPhotographer.get(firstPhotographerId) ?? 0,
  };
};
