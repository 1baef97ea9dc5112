import { rmSync } from 'node:fs';
import path from 'node:path';
import { DEMO_PASSWORD, demoAccounts } from '../src/ops/seed';
import { ensureJava, MissingPrerequisite } from './prerequisites';
import { devPorts, type LocalStack, PHOTOS_BUCKET, repoRoot, startLocalStack, webEnvironment } from './stack';

/**
 * `npm run dev`: the whole marketplace on this machine. Data lives under .local/dev and survives
 * restarts; `npm run dev -- --reset` starts from empty. Ctrl-C stops everything.
 */
const reset = process.argv.includes('--reset');
const dataDir = path.join(repoRoot, '.local', 'dev');
const started = Date.now();

let shutdown: (() => Promise<void>) | undefined;
// Registered before anything starts: a signal that arrived before these handlers would end the
// process at once and leave the emulators running. Until the stack is up, exiting is enough
// (the child-process registry kills the children on exit).
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => (shutdown ? void shutdown() : process.exit(130)));
}

const main = async () => {
  ensureJava();
  if (reset) rmSync(dataDir, { recursive: true, force: true });
  console.log(`Starting the local marketplace${reset ? ' from empty' : ''}...`);

  const stack: LocalStack = await startLocalStack({
    ports: devPorts,
    dataDir,
    persist: true,
    log: (line) => console.log(`[api] ${line}`),
  });

  Object.assign(process.env, webEnvironment(devPorts));
  const { createServer } = await import('vite');
  const vite = await createServer({
    configFile: path.join(repoRoot, 'web', 'vite.config.ts'),
    root: path.join(repoRoot, 'web'),
    server: { port: devPorts.web, strictPort: true },
  });
  await vite.listen();

  const health = await fetch(`http://127.0.0.1:${devPorts.gateway}/api/health`);
  if (!health.ok) throw new Error(`the API health check answered ${health.status}`);

  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const width = Math.max(...demoAccounts.map((a) => a.email.length));
  console.log(
    [
      '',
      `  The marketplace is running (ready in ${seconds}s)`,
      '',
      `  Web app        http://localhost:${devPorts.web}`,
      `  API            http://localhost:${devPorts.gateway}/api/health`,
      `  DynamoDB       http://localhost:${devPorts.dynamodb}`,
      `  S3             http://localhost:${devPorts.s3}  (bucket ${PHOTOS_BUCKET})`,
      `  Firebase Auth  http://localhost:${devPorts.auth}`,
      `  Email (SES)    http://localhost:${devPorts.ses}  (inbox of every email sent: invitations, order notifications)`,
      `  Stripe (fake)  http://localhost:${devPorts.stripe}  (in memory; test cards 4242 4242 4242 4242, declined 4000 0000 0000 0002)`,
      '',
      `  Demo accounts (password: ${DEMO_PASSWORD})`,
      ...demoAccounts.map((a) => `    ${a.email.padEnd(width)}  ${a.roles.join(', ')}`),
      '',
      `  Logs of the emulators: ${path.relative(repoRoot, path.join(dataDir, 'logs'))}/`,
      '  Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );

  let stopping = false;
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
