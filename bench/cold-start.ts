import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { lambdaBuildOptions } from '../infra/lib/bundling/options';
import { stackEnvironment } from '../services/local/stack';
import { liveAuthorizer, liveRoutes } from '../services/src/live-routes';
import { routeKey, routes } from '../services/src/routes';
import { workers } from '../services/src/workers';
import type { RouteRequest } from './cold-start-requests';
import { startBenchStack } from './local-bench-stack';

/**
 * A cold start as the user waiting on it feels it: the function's bundle imported in a fresh Node
 * process, then its handler's first call, with a real request, doing its real work against the
 * local stack (DynamoDB Local, the S3 stand-in, the Stripe fake, the SES stand-in, the SQS queue
 * runner), every outbound call on its real transport. The first call pays what the import left
 * for later: modules loaded on first use (Node's own HTTP client behind fetch, a lazily imported
 * SDK), closures compiled when first run, connections opened. Measured for every route beside a
 * floor built and measured the same way in the same run: a bundle holding only the DynamoDB
 * document client, whose first call is one GetItem (the least any route of ours can do).
 *
 *   npx tsx bench/cold-start.ts [runs] [--only=<route or handler text>,...] [--import-only] [--node-options=<flags>] [--compare=<checkout>] [--cpu-prof=<dir>]
 *
 * runs: default 9, the medians are reported (one uncounted warm-up pass first, for the disk
 * cache). Bundles are built as the CDK app builds them (infra/lib/bundling/options.ts) and each
 * runs in a new process with the stack's environment and no Node flags (as the functions run)
 * unless --node-options gives some. The runs of all bundles are interleaved, each round in a new
 * order with the floor among them every ten bundles, so a busy moment of the machine spreads over
 * them all instead of landing on one bundle, and no bundle always runs first.
 *
 * Each route's call is that of a caller the route allows (bench/cold-start-requests.ts): an API
 * Gateway HTTP API payload 2.0 event with the JWT authorizer's claims, on records seeded for it;
 * a call that can do its work once (a claim, a payment, a role change) gets a record of its own in
 * every run. A call answering other than expected (2xx) fails the bench: it did not do its work.
 * The workers the routes set off are held in their queues while the calls are measured (in the
 * cloud they run elsewhere); the seeding runs them, so thumbnails and zips are what they would be.
 *
 * The headline figure is CPU time: user + system of the child process (process.cpuUsage, all its
 * threads), from just before the import to the first call's return. It is what the function is
 * billed and throttled by, and on a shared machine it moves less than wall time, which is shown
 * beside it. The ratio is a route's import + first call over the floor's. Also shown: the Node
 * modules the first call loaded (undici is Node's fetch; https/tls a TLS client). The workers and
 * WebSocket functions, off the request path or called without an HTTP request, are imported only.
 *
 * --import-only: the earlier measure, without the stack: each bundle imported, nothing called.
 * --only: just the routes whose key or handler contains one of the texts, with the floor.
 * --compare=<checkout>: every route also built from that checkout's sources, measured in the same run.
 * --cpu-prof=<dir>: a V8 CPU profile of every process measured, in <dir> (bench/cold-start-profile.ts
 * sums them by package and by function through the bundles' source maps, kept in <dir>/bundles).
 * The stack runs on the test ports shifted by TEST_PORT_OFFSET (450 by default). A route of the
 * table without a first call in bench/cold-start-requests.ts is named at the end, unmeasured.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const servicesSrc = path.join(repoRoot, 'services', 'src');
const args = process.argv.slice(2);
const runs = Number(args.find((arg) => /^\d+$/.test(arg)) ?? 9);
const importOnly = args.includes('--import-only');
const only =
  args
    .find((arg) => arg.startsWith('--only='))
    ?.slice('--only='.length)
    .split(',')
    .filter(Boolean) ?? [];
const nodeOptions = args.find((arg) => arg.startsWith('--node-options='))?.slice('--node-options='.length) ?? '';
/**
 * Another checkout of the repository (say `git archive <commit> | tar -x -C <dir>`, with its
 * node_modules linked to this one's): every route is also bundled from its sources and measured in
 * the same interleaved run, so a change is read against what it replaces under the same load.
 */
const compareRoot = args.find((arg) => arg.startsWith('--compare='))?.slice('--compare='.length);
/** A directory for a V8 CPU profile of every measured process (Node refuses --cpu-prof in NODE_OPTIONS). */
const cpuProfDir = args.find((arg) => arg.startsWith('--cpu-prof='))?.slice('--cpu-prof='.length);
const goal = 1.6;
/** Clear of the test ports other runs use (TEST_PORT_OFFSET overrides it). */
const DEFAULT_PORT_OFFSET = 450;

const floorSource = `
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
// The services' name for the document client: the bundles replace the package name itself (options.ts).
import { DynamoDBDocumentClient, GetCommand } from '#document-commands';
// As services/src/data/client.ts: the local endpoint when configured, else DynamoDB itself.
const endpoint = process.env.DYNAMODB_ENDPOINT;
const documents = DynamoDBDocumentClient.from(new DynamoDBClient(endpoint ? { endpoint } : {}));
export const handler = async (event) => {
  if (!event?.key) return { statusCode: 400 };
  const { Item } = await documents.send(new GetCommand({ TableName: process.env.TABLE_NAME ?? 'marketplace', Key: event.key }));
  return { statusCode: Item ? 200 : 404 };
};
`;

/**
 * The same GetItem through the services' own signed requests (services/src/data/table-requests.ts),
 * which the routes send their DynamoDB calls through: shown beside the floor, so a route's cost
 * over the least a function of ours can do is read too, not only over the SDK's GetItem.
 */
const signedFloorSource = `
import { documentRequests } from './data/table-requests';
export const handler = async (event) => {
  if (!event?.key) return { statusCode: 400 };
  const { Item } = await documentRequests.getItem({ TableName: process.env.TABLE_NAME ?? 'marketplace', Key: event.key });
  return { statusCode: Item ? 200 : 404 };
};
`;

interface Bundle {
  name: string;
  kind: 'floor' | 'signed-floor' | 'route' | 'import-only';
  /** A module under services/src, or the floor's inline source. */
  entry: string | { contents: string };
  nativeModules: readonly string[];
  keepArrowFunctions?: boolean;
  /** The route's key, for its request. */
  routeKey?: string;
  /** Built from the --compare checkout's sources. */
  compared?: boolean;
}

interface Built extends Bundle {
  file: string;
  bytes: number;
  packages: { name: string; bytes: number }[];
}

const selected = (r: (typeof routes)[number]) =>
  !only.length || only.some((text) => routeKey(r).includes(text) || r.handler.includes(text));

const bundles: Bundle[] = [
  { name: 'floor: GetItem (document client)', kind: 'floor', entry: { contents: floorSource }, nativeModules: [] },
  ...(importOnly
    ? []
    : [
        {
          name: 'beside it: GetItem (signed request)',
          kind: 'signed-floor' as const,
          entry: { contents: signedFloorSource },
          nativeModules: [],
        },
      ]),
  ...routes.filter(selected).map(
    (r): Bundle => ({
      name: r.handler,
      kind: importOnly ? 'import-only' : 'route',
      entry: `handlers/${r.handler}`,
      nativeModules: [],
      routeKey: routeKey(r),
    }),
  ),
  ...(compareRoot
    ? routes
        .filter(
          (r) =>
            selected(r) &&
            existsSync(path.join(path.resolve(compareRoot), 'services', 'src', 'handlers', `${r.handler}.ts`)),
        )
        .map(
          (r): Bundle => ({
            name: `${r.handler} (compared)`,
            kind: importOnly ? 'import-only' : 'route',
            entry: `handlers/${r.handler}`,
            nativeModules: [],
            routeKey: routeKey(r),
            compared: true,
          }),
        )
    : []),
  ...(only.length
    ? []
    : [
        // The WebSocket API's functions: imported, not called (their events are no HTTP request).
        ...[liveAuthorizer, ...liveRoutes].map(
          (f): Bundle => ({ name: f.handler, kind: 'import-only', entry: `handlers/${f.handler}`, nativeModules: [] }),
        ),
        ...workers.map(
          (w): Bundle => ({
            name: `workers/${w.handler}`,
            kind: 'import-only',
            entry: `workers/${w.handler}`,
            nativeModules: w.nativeModules ?? [],
            keepArrowFunctions: w.keepArrowFunctions === true,
          }),
        ),
      ]),
];

/** Bytes in the output by package (our own code under its workspace name), largest first. */
const packagesOf = (metafile: Metafile) => {
  const totals = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const inModules = input.split('node_modules/').at(-1) ?? input;
      const parts = inModules.split('/');
      const name = input.includes('node_modules/')
        ? parts[0]?.startsWith('@')
          ? `${parts[0]}/${parts[1]}`
          : (parts[0] ?? input)
        : input.includes('events/src')
          ? '(our events schemas)'
          : '(our services code)';
      totals.set(name, (totals.get(name) ?? 0) + bytesInOutput);
    }
  }
  return [...totals].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes);
};

const installedDir = (name: string) =>
  [path.join(repoRoot, 'services', 'node_modules', name), path.join(repoRoot, 'node_modules', name)].find((d) =>
    existsSync(path.join(d, 'package.json')),
  );

const bundle = async (spec: Bundle, outRoot: string): Promise<Built> => {
  const outDir = path.join(outRoot, spec.name.replaceAll(/[^a-z0-9-]+/gi, '_'));
  const outfile = path.join(outDir, 'index.mjs');
  const buildOptions = lambdaBuildOptions(repoRoot, { keepArrowFunctions: spec.keepArrowFunctions === true });
  // The other checkout's node_modules are links to this one's, whose @marketplace/events is this
  // checkout's events: a compared bundle takes the schemas from its own checkout's sources instead.
  if (spec.compared) buildOptions.alias['@marketplace/events'] = path.join(path.resolve(compareRoot!), 'events', 'src');
  const result = await build({
    ...(typeof spec.entry === 'string'
      ? {
          entryPoints: [
            path.join(
              spec.compared ? path.join(path.resolve(compareRoot!), 'services', 'src') : servicesSrc,
              `${spec.entry}.ts`,
            ),
          ],
        }
      : { stdin: { contents: spec.entry.contents, resolveDir: servicesSrc, sourcefile: 'floor.mjs', loader: 'js' } }),
    ...buildOptions,
    sourcemap: true,
    sourcesContent: false,
    external: [...spec.nativeModules],
    outfile,
    metafile: true,
    logLevel: 'error',
  });
  // As the CDK app installs native modules beside the bundle, link the workspace's copy here.
  if (spec.nativeModules.length) {
    mkdirSync(path.join(outDir, 'node_modules'), { recursive: true });
    for (const name of spec.nativeModules) {
      const dir = installedDir(name);
      if (dir) symlinkSync(dir, path.join(outDir, 'node_modules', name));
    }
  }
  return { ...spec, file: outfile, bytes: statSync(outfile).size, packages: packagesOf(result.metafile) };
};

/**
 * In a fresh process: the event is read first, then the clocks start; the bundle is imported and,
 * given an event, its handler called once. Prints one JSON line: CPU and wall ms of the import and
 * of the call, the answer's status (and the start of its body when it is no success), and the
 * Node modules the call loaded. Exits at once: kept-alive sockets would hold the process open.
 */
const probe = `
import { readFileSync } from 'node:fs';
const [url, eventFile] = process.argv.slice(1);
const event = eventFile ? JSON.parse(readFileSync(eventFile, 'utf8')) : undefined;
const cpuMs = () => { const { user, system } = process.cpuUsage(); return (user + system) / 1000; };
const cpu0 = cpuMs(), wall0 = performance.now();
const mod = await import(url);
const cpu1 = cpuMs(), wall1 = performance.now();
const modulesBefore = new Set(process.moduleLoadList);
let status = null, body;
if (event !== undefined) {
  const result = await mod.handler(event, { awsRequestId: 'bench', functionName: 'bench', getRemainingTimeInMillis: () => 10000 });
  status = result?.statusCode ?? 200;
  if (status >= 300) body = String(result?.body ?? '').slice(0, 300);
}
const cpu2 = cpuMs(), wall2 = performance.now();
const loaded = process.moduleLoadList.filter((m) => !modulesBefore.has(m) && m.startsWith('NativeModule ')).map((m) => m.slice(13));
process.stdout.write('\\n' + JSON.stringify({ importCpu: cpu1 - cpu0, callCpu: cpu2 - cpu1, importWall: wall1 - wall0, callWall: wall2 - wall1, status, body, loaded }) + '\\n', () => process.exit(0));
`;

interface Sample {
  importCpu: number;
  callCpu: number;
  importWall: number;
  callWall: number;
  status: number | null;
  body?: string;
  loaded: string[];
  /** What the function logged (the parent keeps it for a call that failed). */
  log?: string;
}

/** The Lambda function's environment: the stack's endpoints and keys, no Node flags unless asked for. */
const childEnvironment = (ports?: Parameters<typeof stackEnvironment>[0]) => ({
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
  ...(ports
    ? stackEnvironment(ports)
    : {
        AWS_REGION: 'us-east-1',
        TABLE_NAME: 'marketplace',
        PHOTOS_BUCKET: 'marketplace-photos',
        // Fixed credentials, so no provider chain looks further (nothing here reaches the network).
        AWS_ACCESS_KEY_ID: 'bench',
        AWS_SECRET_ACCESS_KEY: 'bench',
      }),
  NODE_OPTIONS: nodeOptions,
});

const measure = (built: Built, environment: NodeJS.ProcessEnv, eventFile?: string) =>
  new Promise<Sample>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        ...(cpuProfDir
          ? [
              '--cpu-prof',
              `--cpu-prof-dir=${cpuProfDir}`,
              `--cpu-prof-name=${built.name.replaceAll(/[^a-z0-9-]+/gi, '_')}.${Date.now()}.cpuprofile`,
              '--cpu-prof-interval=100',
            ]
          : []),
        '--input-type=module',
        '-e',
        probe,
        pathToFileURL(built.file).href,
        ...(eventFile ? [eventFile] : []),
      ],
      { env: environment, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('close', (code) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      try {
        if (code !== 0) throw new Error(`exit ${code}`);
        resolve({ ...(JSON.parse(line) as Sample), log: `${out.slice(0, out.lastIndexOf(line))}${err}`.trim() });
      } catch (error) {
        reject(new Error(`${built.name}: ${(error as Error).message}\n${out.slice(-2000)}\n${err.slice(-2000)}`));
      }
    });
  });

/** How often the floor runs within a round: once before every so many other bundles. */
const FLOOR_EVERY = 10;

/** The items in an order fixed by the seed (a small linear congruential generator), so runs repeat. */
const shuffled = <T>(items: T[], seed: number): T[] => {
  const out = [...items];
  let state = seed * 2654435761;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
};

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

const kb = (bytes: number) => (bytes / 1024).toFixed(0);
const ms = (value: number) => value.toFixed(1);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** The modules worth naming among those a first call loaded. */
const notable = (loaded: string[]) =>
  [
    ...new Set(
      loaded.flatMap((m) => {
        if (m.includes('undici')) return ['undici (fetch)'];
        if (m === 'https' || m === 'tls' || m === 'http2' || m === 'zlib' || m === 'http') return [m];
        if (m.startsWith('internal/webstreams/')) return ['web streams'];
        return [];
      }),
    ),
  ].join(', ');

const main = async () => {
  if (cpuProfDir) mkdirSync(cpuProfDir, { recursive: true });
  const outRoot = cpuProfDir
    ? mkdtempSync(path.join(path.resolve(cpuProfDir), 'bundles-'))
    : mkdtempSync(path.join(os.tmpdir(), 'cold-start-'));
  const eventsDir = path.join(outRoot, 'events');
  mkdirSync(eventsDir);
  let stopStack: (() => Promise<void>) | undefined;
  try {
    const bundleStarted = performance.now();
    const built = await Promise.all(bundles.map((b) => bundle(b, outRoot)));
    console.log(
      `${built.length} bundles in ${((performance.now() - bundleStarted) / 1000).toFixed(1)} s; Node ${process.version}, ${os.cpus().length} x ${os.cpus()[0]?.model.trim() ?? 'cpu'}${nodeOptions ? `; NODE_OPTIONS=${nodeOptions}` : ''}`,
    );

    let environment: NodeJS.ProcessEnv = childEnvironment();
    let floorEvent: unknown;
    let requests = new Map<string, RouteRequest>();
    let unmeasured: string[] = [];
    if (!importOnly) {
      // The workers the stack runs in this process log every message they handle: only errors here.
      (await import('../services/src/adapters/logger')).logger.setLogLevel('ERROR');
      const stackLines: string[] = [];
      const { stack, ports } = await startBenchStack('cold-start', DEFAULT_PORT_OFFSET, (line) => {
        stackLines.push(line);
        if (stackLines.length > 200) stackLines.shift();
      });
      stopStack = stack.stop;
      environment = childEnvironment(ports);
      // Loaded once the stack has set the environment the data layer reads.
      const { seedAccounts, routeRequests, floorKey } = await import('./cold-start-requests');
      const seedStarted = performance.now();
      const accounts = await seedAccounts();
      const wanted = new Set(built.flatMap((b) => (b.routeKey ? [b.routeKey] : [])));
      requests = await routeRequests(accounts, (runs + 1) * (compareRoot ? 2 : 1), wanted);
      floorEvent = { key: await floorKey(accounts) };
      unmeasured = built.filter((b) => b.kind === 'route' && !requests.has(b.routeKey!)).map((b) => b.routeKey!);
      // What the seeding set off (thumbnails, zips, the event log) is done before anything is timed.
      for (let quiet = 0; quiet < 3; quiet++) {
        await stack.queues.whenIdle(300_000);
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
      stack.queues.pauseDeliveries();
      console.log(`Seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s; workers held while timed.`);
    }

    let eventCount = 0;
    const eventFileFor = async (b: Built, run: number) => {
      let event: unknown;
      if ((b.kind === 'floor' || b.kind === 'signed-floor') && !importOnly) event = floorEvent;
      else if (b.kind === 'route') event = await requests.get(b.routeKey!)!.event(b.compared ? run + runs + 1 : run);
      if (event === undefined) return undefined;
      const file = path.join(eventsDir, `${eventCount++}.json`);
      writeFileSync(file, JSON.stringify(event));
      return file;
    };

    const measured = built.filter((b) => !b.routeKey || !unmeasured.includes(b.routeKey));
    /**
     * Each round runs the bundles in a new order, with the floor among them every
     * FLOOR_EVERY bundles: a bundle run first in a round measured a third slower than the same
     * bundle run later (the parent has just written the round's fresh records), and a floor run
     * once a round, always first, missed the machine's slower and faster minutes that the routes
     * around it met. The floor's figure is the median of all its samples.
     */
    const roundOrder = (bundles: Built[], run: number) => {
      const floorBundle = bundles.find((x) => x.kind === 'floor');
      const others = shuffled(
        bundles.filter((x) => x !== floorBundle),
        run + 1,
      );
      if (!floorBundle) return others;
      return others.flatMap((x, i) => (i % FLOOR_EVERY === 0 ? [floorBundle, x] : [x]));
    };
    const samples = new Map(measured.map((b) => [b.name, [] as Sample[]]));
    const failures: string[] = [];
    const loadBefore = load();
    // Run 0 warms the disk cache and is not counted; then the interleaved runs.
    for (let run = 0; run <= runs; run++) {
      for (const b of roundOrder(measured, run)) {
        const sample = await measure(b, environment, await eventFileFor(b, run));
        const expected = b.routeKey ? requests.get(b.routeKey)?.expect : undefined;
        const ok =
          sample.status === null ||
          (expected === undefined ? sample.status >= 200 && sample.status < 300 : sample.status === expected);
        if (!ok) failures.push(`${b.name} (run ${run}): answered ${sample.status} ${sample.body ?? ''}\n${sample.log}`);
        if (run > 0) samples.get(b.name)?.push(sample);
      }
      process.stderr.write(run === 0 ? 'warm-up done\n' : `run ${run}/${runs}\n`);
    }
    const loadAfter = load();

    const rows = measured.map((b) => {
      const s = samples.get(b.name)!;
      return {
        ...b,
        importCpu: median(s.map((x) => x.importCpu)),
        callCpu: median(s.map((x) => x.callCpu)),
        sumCpu: median(s.map((x) => x.importCpu + x.callCpu)),
        sumWall: median(s.map((x) => x.importWall + x.callWall)),
        importWall: median(s.map((x) => x.importWall)),
        status: s.at(-1)?.status ?? null,
        loaded: notable(s.at(-1)?.loaded ?? []),
      };
    });
    const floor = rows.find((r) => r.kind === 'floor')!;
    const signedFloor = rows.find((r) => r.kind === 'signed-floor');
    const called = rows.filter((r) => r.kind === 'route' && !r.compared);
    const compared = rows.filter((r) => r.kind === 'route' && r.compared);
    const importedOnly = rows.filter((r) => r.kind === 'import-only');

    console.log(
      `\nNode ${process.version}, ${os.cpus().length} x ${os.cpus()[0]?.model.trim()}; load average ${loadBefore} before the runs, ${loadAfter} after; median of ${runs} fresh processes per bundle (the floor ${samples.get(measured.find((x) => x.kind === 'floor')?.name ?? '')?.length ?? 0}), interleaved in a new order each round.`,
    );
    if (!importOnly) {
      console.log(
        `\n### Routes: import + first call\n\nCPU ms: user + system of the function's process, from before the import to the first call's return (the headline); wall ms beside. Ratio: the route's import + first call CPU over the floor's (goal <= ${goal}).\n`,
      );
      console.log(
        '| Route | KB | Import CPU ms | First call CPU ms | Sum CPU ms | Ratio | Sum wall ms | Wall ratio | Status | The first call loaded |',
      );
      console.log('|---|--:|--:|--:|--:|--:|--:|--:|--:|---|');
      for (const r of [
        floor,
        ...(signedFloor ? [signedFloor] : []),
        ...called.flatMap((c) => [c, ...compared.filter((x) => x.routeKey === c.routeKey)]),
      ]) {
        const ratio = r.sumCpu / floor.sumCpu;
        const mark = r.kind === 'route' && ratio > goal ? ' **over**' : '';
        console.log(
          `| ${r.kind === 'route' ? `\`${r.routeKey}\` (${r.name})` : r.name} | ${kb(r.bytes)} | ${ms(r.importCpu)} | ${ms(r.callCpu)} | ${ms(r.sumCpu)} | ${ratio.toFixed(2)}${mark} | ${ms(r.sumWall)} | ${(r.sumWall / floor.sumWall).toFixed(2)} | ${r.status} | ${r.loaded || '-'} |`,
        );
      }
      const ratios = called.map((r) => r.sumCpu / floor.sumCpu);
      console.log(
        `\nroutes: ${called.length}, median sum ${ms(median(called.map((r) => r.sumCpu)))} CPU ms, median ratio ${median(ratios).toFixed(2)}, max ratio ${Math.max(...ratios).toFixed(2)}; ${ratios.filter((x) => x > goal).length} over ${goal}x`,
      );
      if (compared.length) {
        const before = compared.map((r) => r.sumCpu / floor.sumCpu);
        console.log(
          `compared (${compareRoot}): median ratio ${median(before).toFixed(2)}, max ratio ${Math.max(...before).toFixed(2)}; ${before.filter((x) => x > goal).length} over ${goal}x; median change in CPU ${ms(median(called.map((r) => r.sumCpu - (compared.find((x) => x.routeKey === r.routeKey)?.sumCpu ?? r.sumCpu))))} ms`,
        );
      }
      console.log(
        `floor: ${kb(floor.bytes)} KB; import ${ms(floor.importCpu)} + first call ${ms(floor.callCpu)} = ${ms(floor.sumCpu)} CPU ms; ${ms(floor.sumWall)} wall ms`,
      );
      if (signedFloor) {
        const overSigned = called.map((r) => r.sumCpu / signedFloor.sumCpu);
        console.log(
          `beside it, a GetItem over signed requests: ${kb(signedFloor.bytes)} KB; import ${ms(signedFloor.importCpu)} + first call ${ms(signedFloor.callCpu)} = ${ms(signedFloor.sumCpu)} CPU ms (${(signedFloor.sumCpu / floor.sumCpu).toFixed(2)}x the floor); routes over it: median ${median(overSigned).toFixed(2)}x, max ${Math.max(...overSigned).toFixed(2)}x`,
        );
      }
      const over = called.filter((r) => r.sumCpu / floor.sumCpu > goal);
      if (over.length) {
        console.log('\nLargest packages of the routes over the goal (KB):\n');
        for (const r of over) {
          console.log(
            `- ${r.name}: ${r.packages
              .slice(0, 5)
              .map((p) => `${p.name} ${kb(p.bytes)}`)
              .join(', ')}`,
          );
        }
      }
    }
    if (importedOnly.length) {
      console.log(
        `\n### ${importOnly ? 'Every bundle' : 'Workers and WebSocket functions'}: import only\n\nRatio: import CPU over the floor's import CPU.\n`,
      );
      console.log('| Bundle | KB | Import CPU ms | Ratio | Import wall ms | Largest packages (KB) |');
      console.log('|---|--:|--:|--:|--:|---|');
      for (const r of [floor, ...importedOnly]) {
        const top = r.packages
          .slice(0, 4)
          .map((p) => `${p.name} ${kb(p.bytes)}`)
          .join(', ');
        console.log(
          `| ${r.name} | ${kb(r.bytes)} | ${ms(r.importCpu)} | ${(r.importCpu / floor.importCpu).toFixed(2)} | ${ms(r.importWall)} | ${top} |`,
        );
      }
    }
    if (unmeasured.length) {
      console.log(
        `\nNot measured, no first call for them in bench/cold-start-requests.ts: ${unmeasured.map((k) => `\`${k}\``).join(', ')}`,
      );
      process.exitCode = 1;
    }
    if (failures.length) {
      console.log(`\n${failures.length} first calls did not do their work:\n${failures.join('\n')}`);
      process.exitCode = 1;
    }
  } finally {
    await stopStack?.();
    if (!cpuProfDir) rmSync(outRoot, { recursive: true, force: true });
  }
};

await main();
