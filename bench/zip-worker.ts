import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { editedPrefix } from '@marketplace/events/orders';
import { ulid } from 'ulid';
import { stackEnvironment, startLocalStack, testPorts } from '../services/local/stack';

/**
 * The zip worker against a plain S3-to-S3 copy of the same bytes (GetObject piped to Upload, one
 * object at a time, same part size and parts in flight), on the local stack. Each run is its own
 * child process, so its peak RSS is its own. Sources are random bytes (photos do not compress).
 * The two alternate for a number of rounds (zip, copy, zip, copy...), so a change in the machine's
 * load falls on both; the ratio is of the medians.
 *
 *   npx tsx bench/zip-worker.ts [total MB ...] [--rounds N]   (default: 250, 3 rounds; files of 25 MB; 2500 for 2.5 GB)
 *
 * It starts the local stack on the test ports shifted by TEST_PORT_OFFSET (700 when unset), so it
 * runs beside a dev stack; the S3 emulator's data goes under .local/ and is removed at the end.
 */
const here = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(here), '..');
const FILE_MB = 25;
const MB = 1024 * 1024;

type What = 'zip' | 'copy';
type RunResult = { seconds: number; bytes: number; baselineRssMb: number; peakRssMb: number; detail: string };

/** In the child: one run, timed around the work only; prints its result as one JSON line. */
const runChild = async (what: What, orderId: string) => {
  const { s3, photosBucket } = await import('../services/src/adapters/s3');
  const { ZIP_PART_BYTES, ZIP_PARTS_IN_FLIGHT } = await import('../services/src/adapters/zip-archive');
  const { buildZip } = await import('../services/src/workers/build-zip');
  const { getDownload } = await import('../services/src/data/downloads');
  const { listImages } = await import('../services/src/data/orders');
  const { marketplace } = await import('../services/src/data/entities');
  // Each zip run builds from scratch: without its record the worker does not know the zip exists.
  await marketplace().entities.download.delete({ orderId, kind: 'edited' }).go();
  const images = await listImages(orderId, 'edited');
  const bytes = images.reduce((sum, image) => sum + image.size, 0);
  const baselineRssMb = process.memoryUsage().rss / MB;
  const started = performance.now();
  let detail: string;
  if (what === 'zip') {
    const outcome = await buildZip({ orderId, kind: 'edited' });
    const download = await getDownload(orderId, 'edited');
    detail = `${outcome}, ${download?.fileCount} files, zip ${((download?.sizeBytes ?? 0) / MB).toFixed(1)} MB`;
  } else {
    for (const image of images) {
      const object = await s3().send(new GetObjectCommand({ Bucket: photosBucket(), Key: image.key }));
      await new Upload({
        client: s3(),
        params: {
          Bucket: photosBucket(),
          Key: `bench-copies/${orderId}/${image.filename}`,
          Body: object.Body as Readable,
        },
        partSize: ZIP_PART_BYTES,
        queueSize: ZIP_PARTS_IN_FLIGHT,
      }).done();
    }
    detail = `${images.length} objects copied`;
  }
  const seconds = (performance.now() - started) / 1000;
  // maxRSS is in kilobytes: the most this process ever held, start-up included.
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  const result: RunResult = { seconds, bytes, baselineRssMb, peakRssMb, detail };
  console.log(JSON.stringify(result));
};

const inChild = (what: What, orderId: string, env: NodeJS.ProcessEnv) =>
  new Promise<RunResult>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', here, '--run', what, orderId], {
      cwd: root,
      env: { ...env, LOG_LEVEL: 'WARN' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.on('exit', (code) => {
      const line = output.trim().split('\n').pop() ?? '';
      if (code === 0 && line.startsWith('{')) resolve(JSON.parse(line));
      else reject(new Error(`${what} run exited ${code}: ${output}`));
    });
  });

/** A completed order whose editor delivered `totalMb` of random files, with the completion event left unsent. */
const aCompletedOrder = async (totalMb: number) => {
  const { s3, photosBucket } = await import('../services/src/adapters/s3');
  const orders = await import('../services/src/data/orders');
  const orderId = ulid();
  const paymentIntentId = `pi_bench_${ulid()}`;
  const fileCount = Math.max(1, Math.round(totalMb / FILE_MB));
  const input = { photoCount: Math.min(fileCount, 100), name: `Bench ${totalMb} MB` };
  await orders.createOrder({
    orderId,
    orderNumber: await orders.nextOrderNumber(),
    photographer: { userId: 'bench-photographer', name: 'Bench Photographer' },
    jobType: { jobTypeId: 'bench', name: 'Bench', pricePerPhotoCents: 100 },
    input,
    totalAmountCents: input.photoCount * 100,
    stripePaymentIntentId: paymentIntentId,
  });
  await orders.markOrderPaid({ orderId, paymentIntentId, amountCents: input.photoCount * 100, via: 'webhook' });
  const order = await orders.claimOrder({
    orderId,
    editor: { userId: 'bench-editor', name: 'Bench Editor', email: 'bench-editor@example.test' },
    rateCents: 50,
  });
  for (let i = 0; i < fileCount; i++) {
    const filename = `photo-${String(i + 1).padStart(3, '0')}.jpg`;
    const key = `${editedPrefix(orderId)}${filename}`;
    const bytes = randomBytes(FILE_MB * MB);
    await s3().send(new PutObjectCommand({ Bucket: photosBucket(), Key: key, Body: bytes }));
    await orders.registerEdited({
      order,
      editorId: 'bench-editor',
      key,
      filename,
      size: bytes.length,
      lastModified: new Date().toISOString(),
    });
  }
  await orders.completeOrder({ orderId, editorId: 'bench-editor' });
  return { orderId, fileCount };
};

const describeRun = (label: string, r: RunResult) =>
  `  ${label.padEnd(12)} ${r.seconds.toFixed(1).padStart(6)} s  ${(r.bytes / MB / r.seconds).toFixed(1).padStart(6)} MB/s  ` +
  `peak RSS ${r.peakRssMb.toFixed(0)} MB (after start-up ${r.baselineRssMb.toFixed(0)} MB)  ${r.detail}`;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const loadAverage = () => os.loadavg()[0]!.toFixed(1);

const main = async () => {
  const args = process.argv.slice(2);
  const roundsAt = args.indexOf('--rounds');
  const rounds = roundsAt >= 0 ? Number(args.splice(roundsAt, 2)[1]) : 3;
  const totals = args.map(Number).filter(Boolean);
  const offset = Number(process.env.TEST_PORT_OFFSET ?? 700);
  const ports = Object.fromEntries(
    Object.entries(testPorts).map(([name, port]) => [name, port + offset]),
  ) as typeof testPorts;
  const dataDir = path.join(root, '.local', `bench-zip-${offset}`);
  console.log(`Starting the local stack (test ports + ${offset})...`);
  const stack = await startLocalStack({ ports, dataDir, persist: false, log: () => {} });
  try {
    // The worker runs in the measured child, not on the stack's queue: the completion event stays in the table.
    await stack.streams.stop();
    const env = { ...process.env, ...stackEnvironment(ports) };
    console.log(
      `${os.cpus().length} cores, ${(os.totalmem() / 1024 ** 3).toFixed(0)} GiB, Node ${process.versions.node}`,
    );
    for (const totalMb of totals.length ? totals : [250]) {
      const seedStarted = performance.now();
      const { orderId, fileCount } = await aCompletedOrder(totalMb);
      const seeded = (performance.now() - seedStarted) / 1000;
      console.log(`${totalMb} MB: ${fileCount} random files of ${FILE_MB} MB (put in ${seeded.toFixed(1)} s)`);
      const results: Record<What, RunResult[]> = { zip: [], copy: [] };
      for (let round = 1; round <= rounds; round++) {
        for (const what of ['zip', 'copy'] as const) {
          const result = await inChild(what, orderId, env);
          results[what].push(result);
          console.log(`${describeRun(`${what} ${round}`, result)}  load ${loadAverage()}`);
        }
      }
      const throughput = (what: What) => median(results[what].map((r) => r.bytes / MB / r.seconds));
      const peak = (what: What) => Math.max(...results[what].map((r) => r.peakRssMb));
      console.log(
        `  median: zip ${throughput('zip').toFixed(1)} MB/s, copy ${throughput('copy').toFixed(1)} MB/s, ` +
          `zip/copy ${(throughput('zip') / throughput('copy')).toFixed(2)}; ` +
          `highest peak RSS zip ${peak('zip').toFixed(0)} MB, copy ${peak('copy').toFixed(0)} MB`,
      );
    }
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
};

if (process.argv[2] === '--run') {
  await runChild(process.argv[3] as What, process.argv[4]!);
  process.exit(0);
} else {
  await main();
  process.exit(0);
}
