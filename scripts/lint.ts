import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm run lint`: Biome over the repository, then the type check of each TypeScript project. The
 * checks are independent and each `tsc` uses one core, so they run as many at a time as there
 * are cores; each one's output is printed whole when it ends, and any failure fails the lint.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name: string) => path.join(repoRoot, 'node_modules', '.bin', name);
const checks: { name: string; command: string; args: string[] }[] = [
  { name: 'biome', command: bin('biome'), args: ['check', '.'] },
  ...['tsconfig.json', 'events', 'services', 'web', 'infra'].map((project) => ({
    name: `tsc -p ${project}`,
    command: bin('tsc'),
    args: ['-p', project],
  })),
];

const runCheck = ({ name, command, args }: (typeof checks)[number]) =>
  new Promise<boolean>((resolve) => {
    const child = spawn(command, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: unknown) => {
      output += String(chunk);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', collect);
    child.on('close', (code) => {
      process.stdout.write(`${code === 0 ? 'ok' : 'FAILED'}: ${name}\n${code === 0 ? '' : output}`);
      if (code === 0 && name === 'biome') process.stdout.write(output);
      resolve(code === 0);
    });
  });

const queue = [...checks];
const results: boolean[] = [];
await Promise.all(
  Array.from({ length: Math.max(1, Math.min(availableParallelism(), queue.length)) }, async () => {
    for (let check = queue.shift(); check; check = queue.shift()) results.push(await runCheck(check));
  }),
);
process.exit(results.every(Boolean) ? 0 : 1);
