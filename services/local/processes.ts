import { type ChildProcess, execFileSync, type SpawnOptions, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
    // The child writes to its log file itself, not through a pipe to this process: if this
    // process ends first, a child still finishing its own stop (the auth emulator saving its
    // accounts) would otherwise die of a broken pipe at its next line of output.
    const log = openSync(this.logFile(name), 'a');
    // detached: each child leads its own process group, so stopping it also stops what it spawned.
    const child = spawn(command, args, { stdio: ['ignore', log, log], detached: true, ...options });
    closeSync(log);
    this.adopt(name, child);
    return child;
  }

  adopt(name: string, child: ChildProcess) {
    this.children.push({ name, child });
    this.recordRunning();
  }

  /** What runs now, for the next start to find if this process dies without stopping them. */
  private recordRunning() {
    const running: Leftover[] = this.children.map(({ name, child }) => ({
      name,
      pid: child.pid!,
      args: child.spawnargs.join(' '),
    }));
    writeFileSync(runningFile(this.logDir), JSON.stringify(running, null, 2));
  }

  running(name: string) {
    const entry = this.children.find((c) => c.name === name);
    return !!entry && entry.child.exitCode === null && entry.child.signalCode === null;
  }

  /**
   * SIGINT first (the auth emulator exports its data on it), then SIGKILL whatever is left. The
   * grace is long because the export starts a client of the emulator's own that, on a busy
   * machine, took more than 8 s: killed in the middle, the accounts made since the last start
   * were lost. Processes that have nothing to save exit at once.
   */
  async stopAll(graceMs = 30_000) {
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
    rmSync(runningFile(this.logDir), { force: true });
  }
}

interface Leftover {
  name: string;
  pid: number;
  args: string;
}

const runningFile = (logDir: string) => path.join(logDir, 'running.json');

/** The process's command line now, or null when it is gone. */
const commandLineOf = (pid: number) => {
  try {
    return execFileSync('ps', ['-ww', '-o', 'args=', '-p', String(pid)], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
};

/**
 * The emulators a stack started lead process groups of their own, so when its process dies
 * without stopping them (`kill -9`, a crash), they go on holding their ports. The next start with
 * the same data folder stops them first, the orderly way: the auth emulator saves the accounts it
 * holds on the way out. A recorded pid is only signalled while its command line is still the one
 * recorded (a pid may since belong to another program).
 */
export const stopLeftovers = async (logDir: string, log: (line: string) => void) => {
  const file = runningFile(logDir);
  if (!existsSync(file)) return;
  const leftovers = (JSON.parse(readFileSync(file, 'utf8')) as Leftover[]).filter(
    (l) => commandLineOf(l.pid) === l.args,
  );
  if (leftovers.length) {
    log(`Stopping what the last run left running: ${leftovers.map((l) => l.name).join(', ')}...`);
    for (const l of leftovers) signalGroup(l.pid, 'SIGINT');
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && leftovers.some((l) => commandLineOf(l.pid) === l.args)) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    for (const l of leftovers) if (commandLineOf(l.pid) === l.args) signalGroup(l.pid, 'SIGKILL');
  }
  rmSync(file, { force: true });
};

const signalGroup = (pid: number, sig: NodeJS.Signals) => {
  try {
    process.kill(-pid, sig);
  } catch {
    // Already gone.
  }
};

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
