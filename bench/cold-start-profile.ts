import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';

/**
 * Where the CPU of a cold start goes: reads the V8 CPU profiles `bench/cold-start.ts --cpu-prof=<dir>`
 * wrote (one per measured process) and prints, per bundle, the mean self time of each package (our
 * own code by file) and of Node's internals, through the bundles' source maps; with a name filter,
 * the heaviest functions too.
 *
 *   npx tsx bench/cold-start-profile.ts <dir> [--functions] [--top=<n>]
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const dir = args.find((a) => !a.startsWith('--'));
if (!dir) throw new Error('usage: cold-start-profile.ts <dir> [--functions] [--top=<n>]');
const showFunctions = args.includes('--functions');
const top = Number(args.find((a) => a.startsWith('--top='))?.slice(6) ?? 25);

const maps = new Map<string, TraceMap | null>();
const mapFor = (url: string) => {
  if (!maps.has(url)) {
    try {
      const file = fileURLToPath(url);
      maps.set(url, new TraceMap(readFileSync(`${file}.map`, 'utf8')));
    } catch {
      maps.set(url, null);
    }
  }
  return maps.get(url) ?? null;
};

const packageOf = (source: string) => {
  if (source.includes('node_modules/')) {
    const parts = (source.split('node_modules/').at(-1) ?? source).split('/');
    return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? source);
  }
  const i = source.indexOf('src/');
  return i >= 0 ? `(ours) ${source.slice(source.lastIndexOf('/', i - 2) + 1)}` : source;
};

const where = (frame: ProfileNode['callFrame']) => {
  const { url, functionName, lineNumber, columnNumber } = frame;
  if (!url) return { pkg: functionName || '(anonymous)', fn: functionName };
  if (url.startsWith('node:')) return { pkg: 'node internals', fn: `${functionName} ${url}` };
  const map = url.startsWith('file:') ? mapFor(url) : null;
  if (!map) return { pkg: url.startsWith('file:') ? '(probe)' : url, fn: functionName };
  const pos = originalPositionFor(map, { line: lineNumber + 1, column: columnNumber });
  const source = pos.source ?? '?';
  return { pkg: packageOf(source), fn: `${pos.name ?? functionName} ${packageOf(source)}:${pos.line}` };
};

const groups = new Map<string, { count: number; pkgs: Map<string, number>; fns: Map<string, number>; total: number }>();
for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
  const bundle = file.split('.')[0] ?? file;
  const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const group = groups.get(bundle) ?? { count: 0, pkgs: new Map(), fns: new Map(), total: 0 };
  groups.set(bundle, group);
  group.count++;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const node = byId.get(id);
    if (!node) return;
    const { pkg, fn } = where(node.callFrame);
    group.pkgs.set(pkg, (group.pkgs.get(pkg) ?? 0) + ms);
    group.fns.set(fn, (group.fns.get(fn) ?? 0) + ms);
    group.total += ms;
  });
}

for (const [bundle, g] of [...groups].sort()) {
  console.log(`\n## ${bundle}: ${g.count} profiles, mean ${(g.total / g.count).toFixed(1)} ms sampled\n`);
  for (const [pkg, ms] of [...g.pkgs].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${(ms / g.count).toFixed(1).padStart(7)}  ${pkg}`);
  }
  if (showFunctions) {
    console.log('\nfunctions:');
    for (const [fn, ms] of [...g.fns].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      console.log(`${(ms / g.count).toFixed(1).padStart(7)}  ${fn}`);
    }
  }
}
