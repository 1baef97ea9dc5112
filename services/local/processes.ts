import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/**
 * The child processes of the local stack (DynamoDB Local, the S3 emulator, the auth emulator).
 * Their output goes to log files so the console shows only the banner and our own logs; all of
 * them are stopped together.
 */
export class ChildProcesses {
  private readonly children: { name: string; child: ChildProcess }[] = [];

  constructor(private readonly logDir: string) {
    mkdirSync(logDir, { recursive: true });
    // Last line of defence: if this process ends without stopAll (a crash, a second signal), no
    // emulator is left running in the background holding its port.
    process.once('exit', () => {
      for (const { child } of this.children) signal(child, 'SIGKILL');
    });
  }

  logFile(name: string) {
    return path.join(this.logDir, `${name}.log`);
  }

  start(name: string, command: string, args: string[], options: SpawnOptions = {}) {
    const log = createWriteStream(this.logFile(name), { flags: 'a' });
    // detached: each child leads its own process group, so stopping it also stops what it spawned.
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true, ...options });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    this.adopt(name, child);
    return child;
  }

  adopt(name: string, child: ChildProcess) {
    this.children.push({ name, child });
  }

  running(name: string) {
    const entry = this.children.find((c) => c.name === name);
    return !!entry && entry.child.exitCode === null && entry.child.signalCode === null;
  }

  /** SIGINT first (the auth emulator exports its data on it), then SIGKILL whatever is left. */
  async stopAll(graceMs = 8000) {
    const alive = this.children.filter(({ child }) => child.exitCode === null && child.signalCode === null);
    await Promise.all(
      alive.map(
        ({ child }) =>
          new Promise<void>((resolve) => {
            const timer = setTimeout(() => {
              signal(child, 'SIGKILL');
              resolve();
            }, graceMs);
            child.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            signal(child, 'SIGINT');
          }),
      ),
    );
    this.children.length = 0;
  }
}

const signal = (child: ChildProcess, sig: NodeJS.Signals) => {
  try {
    if (child.pid) process.kill(-child.pid, sig);
  } catch {
    child.kill(sig);
  }
};

export const isPortOpen = (port: number, host = '127.0.0.1') =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ port, host });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** Waits until something answers on the port, or fails naming the log to read. */
export const waitForPort = async (port: number, what: string, logFile: string, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await isPortOpen(port)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} did not start on port ${port} within ${timeoutMs / 1000}s; see ${logFile}`);
};

export const assertPortFree = async (port: number, what: string) => {
  if (await isPortOpen(port)) {
    throw new Error(`Port ${port} (${what}) is already in use: is another copy of the marketplace running?`);
  }
};
