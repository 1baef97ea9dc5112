import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isPortOpen } from '../services/local/processes';
import { devPorts } from '../services/local/stack';

/**
 * How long `npm run dev` takes until its banner (everything answering), from empty (--reset) and
 * with existing data. Run: npx tsx bench/dev-startup.ts [runs]
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.argv[2] ?? 3);

const startOnce = (reset: boolean) =>
  new Promise<number>((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', 'services/local/dev.ts', ...(reset ? ['--reset'] : [])], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    let stopping = false;
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (!stopping && output.includes('The marketplace is running')) {
        stopping = true;
        const seconds = (performance.now() - started) / 1000;
        child.once('exit', () => resolve(seconds));
        process.kill(-child.pid!, 'SIGINT');
      }
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.once('exit', (code) => {
      if (!output.includes('The marketplace is running')) reject(new Error(`dev exited ${code}:\n${output}`));
    });
  });

/** The next start must not race the previous one's emulators for their ports. */
const portsReleased = async () => {
  for (const port of Object.values(devPorts))
    while (await isPortOpen(port)) await new Promise((r) => setTimeout(r, 200));
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const cold: number[] = [];
const warm: number[] = [];
for (let i = 0; i < runs; i++) {
  await portsReleased();
  cold.push(await startOnce(true));
  await portsReleased();
  warm.push(await startOnce(false));
}
console.log(`npm run dev until the banner, ${runs} runs each`);
console.log(
  `  from empty (--reset): median ${median(cold).toFixed(1)}s  [${cold.map((s) => s.toFixed(1)).join(', ')}]`,
);
console.log(
  `  with existing data:   median ${median(warm).toFixed(1)}s  [${warm.map((s) => s.toFixed(1)).join(', ')}]`,
);
