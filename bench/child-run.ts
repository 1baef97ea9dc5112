import { spawn } from 'node:child_process';

/**
 * Runs this script again in a fresh Node process (tsx loaded), so a measurement's time and peak RSS
 * are its own, and returns what it printed last: one JSON line. `label` names the run in an error.
 */
export const runInChild = <Result>(script: string, args: readonly string[], label: string) =>
  new Promise<Result>((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    proc.stdout.on('data', (chunk) => {
      out += chunk;
    });
    proc.on('exit', (code) => {
      const line = out.trim().split('\n').pop();
      if (code !== 0 || !line) reject(new Error(`${label} exited with ${code}`));
      else resolve(JSON.parse(line) as Result);
    });
  });
