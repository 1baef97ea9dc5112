import { rmSync } from 'node:fs';
import path from 'node:path';
import { DEMO_PASSWORD, demoAccounts } from '../src/ops/seed';
import { ensureJava, MissingPrerequisite } from './prerequisites';
import { withoutSocketResets } from './socket-resets';
import {
  devPorts,
  type LocalStack,
  PHOTOS_BUCKET,
  repoRoot,
  type StackPorts,
  startLocalStack,
  webEnvironment,
} from './stack';

/**
 * `npm run dev`: the whole marketplace on this machine. Data lives under .local/dev and survives
 * restarts; `npm run dev -- --reset` starts from empty. Ctrl-C, SIGTERM (`kill`, a process
 * manager) and SIGHUP (a closed terminal) all stop it the same orderly way, so the auth emulator
 * saves its accounts every time. DEV_PORT_OFFSET and DEV_DATA_DIR run a second copy beside it.
 */
const reset = process.argv.includes('--reset');
const portOffset = Number(process.env.DEV_PORT_OFFSET ?? 0);
const ports = Object.fromEntries(
  Object.entries(devPorts).map(([name, port]) => [name, port + portOffset]),
) as StackPorts;
const dataDir = process.env.DEV_DATA_DIR
  ? path.resolve(process.env.DEV_DATA_DIR)
  : path.join(repoRoot, '.local', 'dev');
const started = Date.now();

// A closed terminal takes stdout with it: a write to it must not crash the shutdown.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

let shutdown: (() => Promise<void>) | undefined;
let stopping = false;
/**
 * A signal sent to the whole process group (a process manager, a closed terminal) also reaches
 * the helpers our own libraries run, such as the esbuild service behind Vite's dependency scan;
 * the scan then fails. Failing now would end the process mid-stop, and the exit kills the
 * emulators before the auth emulator has saved its accounts: while stopping, such errors are
 * only noted.
 */
process.on('unhandledRejection', (error) => {
  if (!stopping) throw error;
  console.error(`(while stopping: ${(error as Error)?.message?.split('\n')[0] ?? error})`);
});
const stopSignals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
// Registered before anything starts: a signal that arrived before these handlers would end the
// process at once and leave the emulators running. Until the stack is up, exiting is enough
// (the child-process registry kills the children on exit).
const onStopSignal = () => (shutdown ? void shutdown() : process.exit(130));
for (const signal of stopSignals) process.on(signal, onStopSignal);

/**
 * Vite's dev server ends the process itself on SIGTERM and when stdin closes (process.exit once
 * its own server is closed), which skipped our shutdown: the emulators were killed on exit before
 * the auth emulator could save its accounts. This process owns its stop signals, so Vite's
 * listeners go; our shutdown closes Vite too.
 */
const keepOnlyOurStopHandlers = () => {
  for (const signal of stopSignals) {
    for (const listener of process.listeners(signal)) {
      if (listener !== onStopSignal) process.removeListener(signal, listener as () => void);
    }
  }
  for (const listener of process.stdin.listeners('end')) process.stdin.removeListener('end', listener as () => void);
};

const main = async () => {
  ensureJava();
  if (reset) rmSync(dataDir, { recursive: true, force: true });
  console.log(`Starting the local marketplace${reset ? ' from empty' : ''}...`);

  const stack: LocalStack = await startLocalStack({
    ports,
    dataDir,
    persist: true,
    log: (line) => console.log(`[api] ${line}`),
  });

  Object.assign(process.env, webEnvironment(ports));
  const { createLogger, createServer } = await import('vite');
  const vite = await createServer({
    configFile: path.join(repoRoot, 'web', 'vite.config.ts'),
    root: path.join(repoRoot, 'web'),
    server: { port: ports.web, strictPort: true },
    customLogger: withoutSocketResets(createLogger()),
  });
  keepOnlyOurStopHandlers();
  await vite.listen();

  const health = await fetch(`http://127.0.0.1:${ports.gateway}/api/health`);
  if (!health.ok) throw new Error(`the API health check answered ${health.status}`);

  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const width = Math.max(...demoAccounts.map((a) => a.email.length));
  console.log(
    [
      '',
      `  The marketplace is running (ready in ${seconds}s)`,
      '',
      `  Web app        http://localhost:${ports.web}`,
      `  API            http://localhost:${ports.gateway}/api/health`,
      `  Live updates   ws://localhost:${ports.web}/live  (WebSocket gateway on ws://localhost:${ports.live})`,
      `  DynamoDB       http://localhost:${ports.dynamodb}`,
      `  S3             http://localhost:${ports.s3}  (bucket ${PHOTOS_BUCKET})`,
      `  Firebase Auth  http://localhost:${ports.auth}`,
      `  Email (SES)    http://localhost:${ports.ses}  (inbox of every email sent: invitations, order notifications)`,
      `  Stripe (fake)  http://localhost:${ports.stripe}  (kept in ${path.relative(repoRoot, path.join(dataDir, 'stripe'))}; test cards 4242 4242 4242 4242, declined 4000 0000 0000 0002)`,
      '',
      `  Demo accounts (password: ${DEMO_PASSWORD})`,
      ...demoAccounts.map((a) => `    ${a.email.padEnd(width)}  ${a.roles.join(', ')}`),
      '',
      `  Logs of the emulators: ${path.relative(repoRoot, path.join(dataDir, 'logs'))}/`,
      '  Press Ctrl-C to stop (or send SIGTERM): the accounts, orders and payments stay for the next start.',
      '',
    ].join('\n'),
  );

  shutdown = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping the local marketplace...');
    await stack.stop();
    await vite.close();
    process.exit(0);
  };
};

main().catch((error) => {
  if (error instanceof MissingPrerequisite) {
    console.error(error.message);
  } else {
    console.error(`The local marketplace could not start: ${(error as Error)?.message ?? error}`);
  }
  process.exit(1);
});
