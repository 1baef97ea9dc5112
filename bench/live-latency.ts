import os from 'node:os';
import { LIVE_PATH, type LiveMessage } from '@marketplace/events/live-updates';
import { ulid } from 'ulid';
import WebSocket from 'ws';
import { forgedToken } from '../services/test/support';
import { machine, startBenchStack } from './local-bench-stack';

/**
 * Live updates, from the event's commit to the tab's message, with 1, 100 and 1,000 tabs
 * connected to the local stack (`npx tsx bench/live-latency.ts [clients...] [--rounds N]`).
 *
 * Every tab is an editor's, so every order paid reaches all of them as `pool.changed`: the
 * transaction that marks the order paid commits, the stream poller carries its outbox record to
 * the event-log queue, the event-log worker forwards it to the live-updates queue, the push worker
 * reads the connected editors a page at a time and posts to each through the live gateway's
 * management API. The clock starts when the payment's write returns and stops at each tab's
 * message. The baseline in the same run is the last hop alone: the same number of posts to the
 * same sockets straight from this process, so what the pipeline adds is the difference.
 * The tabs are `ws` clients in this process, beside the stack: at 1,000 they share its event loop.
 */
const args = process.argv.slice(2);
const roundsArg = args.find((a) => a.startsWith('--rounds'));
const rounds = Number(roundsArg?.split('=')[1] ?? 10);
const sizes = args.filter((a) => /^\d+$/.test(a)).map(Number);
const clientCounts = sizes.length ? sizes : [1, 100, 1000];

const { stack, ports } = await startBenchStack('live', 15500);
const liveUrl = `ws://127.0.0.1:${ports.live}${LIVE_PATH}`;
const { marketplace } = await import('../services/src/data/entities');
const { createOrder, markOrderPaid, nextOrderNumber } = await import('../services/src/data/orders');
const { postToConnection } = await import('../services/src/adapters/live-updates');
const { connectionPages } = await import('../services/src/data/live-connections');

interface Tab {
  socket: WebSocket;
  /** performance.now() of each message, by type. */
  heard: { type: LiveMessage['type']; at: number }[];
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

const editorsMade: string[] = [];
const editorAccounts = async (count: number) => {
  const users = marketplace().entities.user;
  while (editorsMade.length < count) {
    const userId = `live-bench-editor-${editorsMade.length}`;
    await users
      .put({ userId, email: `${userId}@bench.test`, roles: ['editor'], isEditor: 'editor', status: 'verified' })
      .go();
    editorsMade.push(userId);
  }
  return editorsMade.slice(0, count);
};

const openTab = (userId: string) =>
  new Promise<Tab>((resolve, reject) => {
    const socket = new WebSocket(`${liveUrl}?token=${forgedToken({ sub: userId })}`);
    const tab: Tab = { socket, heard: [] };
    socket.on('message', (data) => {
      tab.heard.push({ type: (JSON.parse(data.toString()) as LiveMessage).type, at: performance.now() });
    });
    socket.on('open', () => resolve(tab));
    socket.on('unexpected-response', (_q, r) => reject(new Error(`connect refused: ${r.statusCode}`)));
    socket.on('error', reject);
  });

const openTabs = async (userIds: string[]) => {
  const tabs: Tab[] = [];
  for (let i = 0; i < userIds.length; i += 50) {
    tabs.push(...(await Promise.all(userIds.slice(i, i + 50).map(openTab))));
  }
  return tabs;
};

/** Waits until every tab has a message of this type after `since`; the latencies from `since`. */
const latenciesAfter = async (tabs: Tab[], type: LiveMessage['type'], since: number, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const firsts = tabs.map((tab) => tab.heard.find((h) => h.type === type && h.at >= since)?.at);
    if (firsts.every((at) => at !== undefined) || Date.now() > deadline) {
      const missing = firsts.filter((at) => at === undefined).length;
      if (missing) console.warn(`  ${missing} of ${tabs.length} tabs heard nothing in ${timeoutMs} ms`);
      return firsts.filter((at): at is number => at !== undefined).map((at) => at - since);
    }
    await new Promise((r) => setTimeout(r, 5));
  }
};

const payAnOrder = async () => {
  const orderId = ulid();
  const order = await createOrder({
    orderId,
    orderNumber: await nextOrderNumber(),
    photographer: { userId: 'live-bench-photographer', name: 'Bench Photographer' },
    jobType: { jobTypeId: 'hdr', name: 'HDR', pricePerPhotoCents: 800 },
    input: { photoCount: 2 },
    totalAmountCents: 1600,
    stripePaymentIntentId: `pi_bench_${orderId}`,
  });
  // Let the creation's own event pass first, so the clock times the payment's alone, and let the
  // pool's push window (one push a second) close: this times a change told at once, not a
  // trailing push, which waits up to a second more by design.
  await new Promise((r) => setTimeout(r, 1_100));
  const paying = markOrderPaid({
    orderId,
    paymentIntentId: `pi_bench_${orderId}`,
    amountCents: order.totalAmountCents,
    via: 'webhook',
  });
  await paying;
  return performance.now();
};

/** The last hop alone: one post to every connection straight from here, as the push worker posts. */
const directPosts = async () => {
  const ids: string[] = [];
  for await (const page of connectionPages({ role: 'editor' })) ids.push(...page.map((c) => c.connectionId));
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < ids.length) await postToConnection(ids[next++]!, { type: 'images.ready', orderId: 'bench' });
    }),
  );
  return started;
};

const rows: string[] = [];
const load = () => os.loadavg()[0]!.toFixed(1);
console.log(`Machine: ${machine()}; rounds ${rounds}`);
for (const count of clientCounts) {
  const tabs = await openTabs(await editorAccounts(count));
  // One unmeasured round each: handlers load on first use.
  await latenciesAfter(tabs, 'pool.changed', await payAnOrder());
  await latenciesAfter(tabs, 'images.ready', await directPosts());
  const pipeline: number[] = [];
  const lastHop: number[] = [];
  const loadBefore = load();
  for (let round = 0; round < rounds; round++) {
    pipeline.push(...(await latenciesAfter(tabs, 'pool.changed', await payAnOrder())));
    lastHop.push(...(await latenciesAfter(tabs, 'images.ready', await directPosts())));
  }
  const row = `| ${count} | ${pipeline.length} | ${percentile(pipeline, 50).toFixed(0)} | ${percentile(pipeline, 95).toFixed(0)} | ${percentile(lastHop, 50).toFixed(0)} | ${percentile(lastHop, 95).toFixed(0)} | ${loadBefore} to ${load()} |`;
  console.log(row);
  rows.push(row);
  for (const tab of tabs) tab.socket.close();
  await new Promise((r) => setTimeout(r, 1000));
}

const table = [
  '| Tabs connected | Messages timed | Commit to tab p50 ms | p95 ms | Last hop alone p50 ms | p95 ms | Load average |',
  '|--:|--:|--:|--:|--:|--:|---|',
  ...rows,
].join('\n');
console.log(`\n${table}`);
await stack.stop();
process.exit(0);
