import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { lambdaBuildOptions } from '../infra/lib/bundling/options';
import { liveAuthorizer, liveRoutes } from '../services/src/live-routes';
import { routes } from '../services/src/routes';
import { workers } from '../services/src/workers';

/**
 * What a cold start costs each Lambda before its first line of our code runs: every route and
 * worker bundled as the CDK app bundles it (infra/lib/service-function.ts: esbuild, ESM, node24,
 * minified, module/main fields, the createRequire banner, native modules left out), then each
 * bundle imported in a fresh Node process, against a floor bundle built in the same run that holds
 * only the DynamoDB document client (the least any route of ours can load).
 *
 *   npx tsx bench/cold-start.ts [runs] [--node-options=<flags>]
 *
 * runs: default 7, the median is reported. --node-options runs every import (the floor's too)
 * with those Node flags, e.g. `--node-options=--enable-source-maps`, which the functions were
 * deployed with until it was found to parse each bundle's source map on every cold start.
 *
 * Per bundle: its size, the median time of `await import(bundle)` in a new process, that time
 * over the floor's, and the first call's extra time: the handler invoked once with a request it
 * refuses before any I/O (an unknown route key), which runs the middleware stack's first-use work
 * without a network. Lazy imports a handler makes later (Stripe, the presigner) are not in either
 * figure. The runs of all bundles are interleaved, so a busy moment of the machine spreads over
 * them all instead of landing on one bundle. Ends with the largest packages of each bundle, from
 * esbuild's metafile.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const servicesSrc = path.join(repoRoot, 'services', 'src');
const numericArgument = process.argv.slice(2).find((arg) => /^\d+$/.test(arg));
const runs = Number(numericArgument ?? 7);
const nodeOptions =
  process.argv.find((arg) => arg.startsWith('--node-options='))?.slice('--node-options='.length) ?? '';
const goal = 1.6;

const floorSource = `
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
// The services' name for the document client: the bundles replace the package name itself (options.ts).
import { DynamoDBDocumentClient, GetCommand } from '#document-commands';
const documents = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export const handler = async (event) => {
  if (!event?.key) return { statusCode: 400 };
  const { Item } = await documents.send(new GetCommand({ TableName: 'marketplace', Key: event.key }));
  return { statusCode: Item ? 200 : 404 };
};
`;

interface Bundle {
  name: string;
  kind: 'floor' | 'route' | 'worker';
  /** A module under services/src, or the floor's inline source. */
  entry: string | { contents: string };
  nativeModules: readonly string[];
  keepArrowFunctions?: boolean;
}

interface Built extends Bundle {
  file: string;
  bytes: number;
  packages: { name: string; bytes: number }[];
}

const bundles: Bundle[] = [
  { name: 'floor (DynamoDB document client)', kind: 'floor', entry: { contents: floorSource }, nativeModules: [] },
  ...[...new Set(routes.map((r) => r.handler))].map(
    (handler): Bundle => ({ name: handler, kind: 'route', entry: `handlers/${handler}`, nativeModules: [] }),
  ),
  // The WebSocket API's functions: imported, not called (their events are no HTTP request).
  ...[liveAuthorizer, ...liveRoutes].map(
    (f): Bundle => ({ name: f.handler, kind: 'worker', entry: `handlers/${f.handler}`, nativeModules: [] }),
  ),
  ...workers.map(
    (w): Bundle => ({
      name: `workers/${w.handler}`,
      kind: 'worker',
      entry: `workers/${w.handler}`,
      nativeModules: w.nativeModules ?? [],
      keepArrowFunctions: w.keepArrowFunctions === true,
    }),
  ),
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
  const result = await build({
    ...(typeof spec.entry === 'string'
      ? { entryPoints: [path.join(servicesSrc, `${spec.entry}.ts`)] }
      : { stdin: { contents: spec.entry.contents, resolveDir: servicesSrc, sourcefile: 'floor.mjs', loader: 'js' } }),
    ...lambdaBuildOptions(repoRoot, { keepArrowFunctions: spec.keepArrowFunctions === true }),
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
 * In a fresh process: the import's time, then one call the handler refuses before any I/O (a
 * route key no table holds; a worker gets an empty batch). Prints `importMs firstCallMs`.
 */
const probe = `
const url = process.argv[1];
const started = performance.now();
const mod = await import(url);
const imported = performance.now();
let called = imported;
if (process.argv[2] === 'route') {
  await mod.handler({ routeKey: 'GET /bench/unknown', rawPath: '/bench/unknown', headers: {}, requestContext: {} },
    { awsRequestId: 'bench', functionName: 'bench', getRemainingTimeInMillis: () => 10000 });
  called = performance.now();
}
console.log((imported - started).toFixed(2), (called - imported).toFixed(2));
`;

const environment = {
  ...process.env,
  AWS_REGION: 'us-east-1',
  TABLE_NAME: 'marketplace',
  PHOTOS_BUCKET: 'marketplace-photos',
  // Fixed credentials, so no provider chain looks further (nothing here reaches the network).
  AWS_ACCESS_KEY_ID: 'bench',
  AWS_SECRET_ACCESS_KEY: 'bench',
  LOG_LEVEL: 'ERROR',
  // As the functions run: no Node flags (infra/lib/service-function.ts), unless asked for.
  NODE_OPTIONS: nodeOptions,
};

const measure = (built: Built) =>
  new Promise<{ importMs: number; firstCallMs: number }>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--input-type=module', '-e', probe, pathToFileURL(built.file).href, built.kind],
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
      const [importMs, firstCallMs] = out.trim().split('\n').at(-1)?.split(' ').map(Number) ?? [];
      if (code !== 0 || importMs === undefined || Number.isNaN(importMs)) {
        reject(new Error(`${built.name}: exit ${code}\n${err}`));
      } else resolve({ importMs, firstCallMs: firstCallMs ?? 0 });
    });
  });

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

const kb = (bytes: number) => (bytes / 1024).toFixed(0);

const main = async () => {
  const outRoot = mkdtempSync(path.join(os.tmpdir(), 'cold-start-'));
  try {
    const bundleStarted = performance.now();
    const built = await Promise.all(bundles.map((b) => bundle(b, outRoot)));
    console.log(
      `${built.length} bundles in ${((performance.now() - bundleStarted) / 1000).toFixed(1)} s; Node ${process.version}, ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, load ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}${nodeOptions ? `; NODE_OPTIONS=${nodeOptions}` : ''}`,
    );

    const samples = new Map(built.map((b) => [b.name, { importMs: [] as number[], firstCallMs: [] as number[] }]));
    // One warm-up pass (disk cache), not counted; then the interleaved runs.
    for (const b of built) await measure(b);
    for (let run = 0; run < runs; run++) {
      for (const b of built) {
        const { importMs, firstCallMs } = await measure(b);
        samples.get(b.name)?.importMs.push(importMs);
        samples.get(b.name)?.firstCallMs.push(firstCallMs);
      }
      process.stderr.write(`run ${run + 1}/${runs}\n`);
    }

    const rows = built.map((b) => {
      const s = samples.get(b.name)!;
      return { ...b, importMs: median(s.importMs), firstCallMs: median(s.firstCallMs) };
    });
    const floor = rows.find((r) => r.kind === 'floor')!;
    const ratio = (ms: number) => ms / floor.importMs;

    console.log(`\nmedian of ${runs} fresh processes each; ratio = import ms / floor import ms (goal <= ${goal})\n`);
    console.log('| Bundle | KB | Import ms | Ratio | First call ms | Largest packages (KB) |');
    console.log('|---|--:|--:|--:|--:|---|');
    for (const r of rows) {
      const top = r.packages
        .slice(0, 4)
        .map((p) => `${p.name} ${kb(p.bytes)}`)
        .join(', ');
      const mark = r.kind === 'route' && ratio(r.importMs) > goal ? ' **over**' : '';
      console.log(
        `| ${r.name} | ${kb(r.bytes)} | ${r.importMs.toFixed(1)} | ${ratio(r.importMs).toFixed(2)}${mark} | ${r.kind === 'route' ? r.firstCallMs.toFixed(1) : '-'} | ${top} |`,
      );
    }
    const routeRows = rows.filter((r) => r.kind === 'route');
    const routeRatios = routeRows.map((r) => ratio(r.importMs));
    console.log(
      `\nroutes: ${routeRows.length}, median ${kb(median(routeRows.map((r) => r.bytes)))} KB, median import ${median(routeRows.map((r) => r.importMs)).toFixed(1)} ms, median ratio ${median(routeRatios).toFixed(2)}, max ratio ${Math.max(...routeRatios).toFixed(2)}; ${routeRatios.filter((x) => x > goal).length} over ${goal}x`,
    );
    console.log(`floor: ${kb(floor.bytes)} KB, ${floor.importMs.toFixed(1)} ms`);
  } finally {
    rmSync(outRoot, { recursive: true, force: true });
  }
};

await main();
