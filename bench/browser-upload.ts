import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { CreateOrderResponse } from '@marketplace/events/orders';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { ulid } from 'ulid';
import { repoRoot, stackEnvironment, startLocalStack, testPorts, webEnvironment } from '../services/local/stack';

/**
 * Our Uppy upload of a photographer's originals (web/src/features/photographer/uploads) against a
 * raw baseline: one presigned PUT per file, one file at a time, to the same S3 stand-in in the
 * same run. Our upload runs once per set of levers (`variants` below: the size from which files go
 * up in parts, the part size, signing a file's parts in one call, registering files in batches,
 * files at once), each beside the baseline in every run. Both run in headless Chromium on the
 * local stack, with the web app served by Vite's dev server so the page imports the upload module
 * itself.
 *
 *   npx tsx bench/browser-upload.ts [total MB] [runs] [--file-mb=25] [--only=name,name] [--workers-running]
 *
 * Every upload starts on an idle stack. The workers a registration sets off (thumbnails read each
 * original back from S3) wait in their queues while an upload is timed, as they run on machines of
 * their own in the cloud; --workers-running lets them share this machine's cores with the S3
 * stand-in and Chromium instead, as `npm run dev` does.
 *
 * Default: 1000 MB of 25 MB files, 1 run, every variant. It starts the local stack on the test
 * ports shifted by TEST_PORT_OFFSET (4000 when unset). The figures: seconds from start to the
 * last file done (for Uppy: registered with the API), MB/s, the ratio to the baseline of the same
 * run (its throughput over the baseline's), the API calls the page made, the peak resident memory
 * of all Chromium processes together (sampled every 200 ms, shared pages counted in each process)
 * and of the page's JavaScript heap, and the machine's 1-minute load average when it ended.
 */
const MB = 1024 * 1024;
const positional = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const flag = (name: string) =>
  process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? undefined;
const FILE_MB = Number(flag('file-mb') ?? 25);
/** Let the workers run during the timed uploads, on the same cores as the S3 stand-in and Chromium. */
const workersRunning = process.argv.includes('--workers-running');
const totalMb = Number(positional[0] ?? 1000);
const runs = Number(positional[1] ?? 1);

/** The levers, as web/src/lib/uploads/direct-s3-upload.ts names them (UploadTuning). */
interface Tuning {
  parallelFiles: number;
  multipartThresholdBytes: number;
  partBytes: number;
  signPartsTogether: boolean;
  signPutsAhead: number;
  registerBatchMax: number;
}
/** The set-up as it was: 8 MB parts from 16 MB, a call per S3 request, a call per file, five files at once. */
const before: Tuning = {
  parallelFiles: 5,
  multipartThresholdBytes: 16 * MB,
  partBytes: 8 * MB,
  signPartsTogether: false,
  signPutsAhead: 0,
  registerBatchMax: 1,
};
/** Every file as one PUT (above the 200 MB cap, so none goes in parts). */
const singlePut = { multipartThresholdBytes: 201 * MB };
const signedAheadBatched = { signPutsAhead: 99, registerBatchMax: 25 };
const variants: { name: string; tuning?: Tuning; keepCopies?: boolean }[] = [
  { name: 'before', tuning: before },
  // The module's own defaults (defaultUploadTuning).
  { name: 'after' },
  // Multipart levers (files above the threshold).
  { name: 'parts-signed-together', tuning: { ...before, signPartsTogether: true } },
  { name: 'registered-in-batches', tuning: { ...before, registerBatchMax: 25 } },
  { name: 'parts-signed-together-batched', tuning: { ...before, signPartsTogether: true, registerBatchMax: 25 } },
  {
    name: 'parts-signed-together-batched-16mb-parts',
    tuning: { ...before, signPartsTogether: true, registerBatchMax: 25, partBytes: 16 * MB },
  },
  // One PUT a file.
  { name: 'single-put', tuning: { ...before, ...singlePut } },
  { name: 'single-put-signed-ahead', tuning: { ...before, ...singlePut, signPutsAhead: 99 } },
  { name: 'single-put-batched', tuning: { ...before, ...singlePut, registerBatchMax: 25 } },
  {
    name: 'single-put-signed-ahead-batched-no-copies',
    tuning: { ...before, ...singlePut, ...signedAheadBatched },
    keepCopies: false,
  },
  { name: 'before-no-copies', tuning: before, keepCopies: false },
  ...[5, 1, 2, 3, 6].map((parallelFiles) => ({
    name: `single-put-signed-ahead-batched-${parallelFiles}-at-once`,
    tuning: { ...before, ...singlePut, ...signedAheadBatched, parallelFiles },
  })),
];
const only = flag('only')?.split(',');
const chosenVariants = only ? variants.filter((variant) => only.includes(variant.name)) : variants;
const fileCount = Math.max(1, Math.round(totalMb / FILE_MB));
const portOffset = Number(process.env.TEST_PORT_OFFSET ?? 4000);
const ports = Object.fromEntries(
  Object.entries(testPorts).map(([name, port]) => [name, port + portOffset]),
) as typeof testPorts;
const dataDir = path.join(repoRoot, '.local', `bench-upload-${portOffset}`);

type Result = {
  seconds: number;
  mbPerSecond: number;
  peakRssMb: number;
  baselineRssMb: number;
  peakHeapMb: number;
  apiCalls: number;
  load: number;
};

/** Resident memory of the Chromium processes below this one (browser, renderers, GPU and utility processes). */
const chromiumRssMb = () => {
  const parents = new Map<number, number>();
  const rss = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('chromium')) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(fields[1]));
      rss.set(Number(entry), (Number(fields[21]) * 4096) / MB);
    } catch {
      // The process ended while we looked.
    }
  }
  const isDescendant = (pid: number): boolean => {
    for (let p = parents.get(pid); p; p = parents.get(p)) if (p === process.pid) return true;
    return false;
  };
  let total = 0;
  for (const [pid, mb] of rss) if (isDescendant(pid)) total += mb;
  return total;
};

/** Samples memory while `work` runs and returns its time and the peaks. */
const measure = async (page: Page, context: BrowserContext, work: () => Promise<void>): Promise<Result> => {
  let apiCalls = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/')) apiCalls++;
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const heapMb = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    return (metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0) / MB;
  };
  const baselineRssMb = chromiumRssMb();
  let peakRssMb = baselineRssMb;
  let peakHeapMb = await heapMb();
  const sampler = setInterval(() => {
    peakRssMb = Math.max(peakRssMb, chromiumRssMb());
    heapMb()
      .then((mb) => {
        peakHeapMb = Math.max(peakHeapMb, mb);
      })
      .catch(() => {});
  }, 200);
  const started = performance.now();
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    seconds,
    mbPerSecond: (fileCount * FILE_MB) / seconds,
    peakRssMb,
    baselineRssMb,
    peakHeapMb,
    apiCalls,
    load: loadavg()[0]!,
  };
};

/** Photos on disk, as a photographer would pick them: random bytes, since photos do not compress. */
const writePhotoFiles = () => {
  const dir = path.join(dataDir, 'photos');
  mkdirSync(dir, { recursive: true });
  const chunk = randomBytes(FILE_MB * MB);
  return Array.from({ length: fileCount }, (_, i) => {
    const file = path.join(dir, `photo-${String(i + 1).padStart(3, '0')}.jpg`);
    // A different first byte per file, so no two files are the same.
    chunk[0] = i % 256;
    writeFileSync(file, chunk);
    return file;
  });
};

/** Picks the files in the page through a file input, so they are disk-backed File objects as in real use. */
const pickFilesInPage = async (page: Page, files: string[]) => {
  await page.evaluate(`{
    const input = document.createElement('input');
    input.type = 'file';
    input.multiple = true;
    input.id = 'bench-files';
    document.body.append(input);
  }`);
  await page.setInputFiles('#bench-files', files);
  await page.evaluate(`window.benchFiles = [...document.getElementById('bench-files').files]; true`);
};

const signInPage = async (context: BrowserContext, webUrl: string, email: string) => {
  const page = await context.newPage();
  page.setDefaultTimeout(120_000);
  await page.goto(`${webUrl}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill('test-password');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/dashboard');
  return page;
};

// Page code as text: the bundler must not rewrite the dynamic import of the app's own module.
const uppyUploadInPage = `async ({ order, clientSecret, tuning, keepCopies }) => {
  const { OriginalsUpload } = await import('/src/features/photographer/uploads/originals-upload.ts');
  const upload = new OriginalsUpload({ order, clientSecret, uploads: {} }, tuning, keepCopies);
  await new Promise((resolve, reject) => {
    upload.subscribe(() => {
      const snapshot = upload.getSnapshot();
      if (snapshot.allDone) resolve();
      else if (snapshot.failedCount) reject(new Error(JSON.stringify(snapshot.rows.filter((r) => r.error))));
    });
    upload.start(window.benchFiles);
  });
  upload.dispose();
}`;

const rawUploadInPage = `async (urls) => {
  for (const [i, url] of urls.entries()) {
    let response;
    try {
      response = await fetch(url, { method: 'PUT', body: window.benchFiles[i], headers: { 'content-type': 'image/jpeg' } });
    } catch (error) {
      throw new Error('PUT of file ' + (i + 1) + ' failed: ' + error.message);
    }
    if (!response.ok) throw new Error('PUT of file ' + (i + 1) + ': ' + response.status + ' ' + (await response.text()));
  }
}`;

const main = async () => {
  rmSync(dataDir, { recursive: true, force: true });
  console.log(`Starting the local stack (port offset ${portOffset})...`);
  // The bench measures the upload, not the web ACL: the old set-up's call per S3 request would pass its limit.
  const stack = await startLocalStack({ ports, dataDir, persist: false, log: () => {}, rateLimits: 'unlimited' });
  Object.assign(process.env, stackEnvironment(ports), { API_URL: `http://127.0.0.1:${ports.gateway}` });
  Object.assign(process.env, webEnvironment(ports));
  const vite = await import('vite');
  const server = await vite.createServer({
    configFile: path.join(repoRoot, 'web', 'vite.config.ts'),
    root: path.join(repoRoot, 'web'),
    logLevel: 'warn',
    // No watching and no hot reload: an edit elsewhere in the tree must not reload the page mid-upload.
    server: { port: ports.web, strictPort: true, host: '127.0.0.1', watch: null, hmr: false },
    // Bundled up front, so importing the upload module later does not make Vite reload the page.
    optimizeDeps: { include: ['@uppy/core', '@uppy/aws-s3', '@uppy/golden-retriever'] },
  });
  await server.listen();
  const webUrl = `http://127.0.0.1:${ports.web}`;
  const { aPhotographer, as } = await import('../services/test/support');
  const { s3, photosBucket } = await import('../services/src/adapters/s3');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
  const results: { run: number; what: string; result: Result }[] = [];
  try {
    const photoFiles = writePhotoFiles();
    const photographer = await aPhotographer({ displayName: 'Bench Photographer' });
    // Warm up: sign in once and load the upload module, so Vite's first transforms are not timed.
    {
      const context = await browser.newContext();
      const page = await signInPage(context, webUrl, photographer.email);
      await page.evaluate(`import('/src/features/photographer/uploads/originals-upload.ts').then(() => true)`);
      await context.close();
    }
    /**
     * Each upload starts on an idle stack: what the previous one set off (the thumbnail worker
     * reading every original back, the event log, the live pushes) has finished. Unless
     * --workers-running, the workers' messages then wait in their queues until the upload is timed,
     * as in the cloud, where they run on their own machines and not on the S3 endpoint's cores.
     */
    const measureAlone: typeof measure = async (page, context, work) => {
      await stack.streams.drain(120_000);
      await stack.queues.whenIdle(300_000);
      const resumeDeliveries = workersRunning ? () => {} : stack.queues.pauseDeliveries();
      try {
        return await measure(page, context, work);
      } finally {
        resumeDeliveries();
      }
    };
    const record = (run: number, what: string, result: Result) => {
      results.push({ run, what, result });
      console.log(results.at(-1));
    };
    // Raw: presigned PUTs, one file at a time.
    const rawUpload = async (run: number) => {
      const context = await browser.newContext();
      const page = await signInPage(context, webUrl, photographer.email);
      await pickFilesInPage(page, photoFiles);
      const prefix = `bench/raw/${ulid()}/`;
      const urls = await Promise.all(
        Array.from({ length: fileCount }, (_, i) =>
          getSignedUrl(
            s3(),
            new PutObjectCommand({
              Bucket: photosBucket(),
              Key: `${prefix}photo-${i + 1}.jpg`,
              ContentType: 'image/jpeg',
            }),
            { expiresIn: 3600 },
          ),
        ),
      );
      const result = await measureAlone(page, context, () =>
        page.evaluate(`(${rawUploadInPage})(${JSON.stringify(urls)})`),
      );
      record(run, 'raw presigned PUT, 1 at a time', result);
      await context.close();
    };
    // Ours: the create-order page's Uppy upload for a new order, with one variant's levers.
    const ourUpload = async (run: number, { name, tuning, keepCopies = true }: (typeof variants)[number]) => {
      const created = await as(photographer).post('/api/orders', {
        jobTypeId: 'hdr',
        name: `Bench ${run} ${name}`,
        photoCount: Math.min(fileCount, 100),
      });
      if (created.status !== 201) throw new Error(`create order: ${created.status} ${JSON.stringify(created.body)}`);
      const { order, stripeClientSecret } = created.body as CreateOrderResponse;
      const context = await browser.newContext();
      const page = await signInPage(context, webUrl, photographer.email);
      await pickFilesInPage(page, photoFiles);
      const args = JSON.stringify({ order, clientSecret: stripeClientSecret, tuning, keepCopies });
      const result = await measureAlone(page, context, () => page.evaluate(`(${uppyUploadInPage})(${args})`));
      record(run, name, result);
      await context.close();
    };
    // Warm up the path to S3 too: the first upload of a run is otherwise slower whichever it is.
    await rawUpload(0);
    results.length = 0;
    for (let run = 1; run <= runs; run++) {
      // The baseline first and last, so a machine getting busier shows in its two figures.
      await rawUpload(run);
      for (const variant of chosenVariants) await ourUpload(run, variant);
      await rawUpload(run);
    }
  } finally {
    await browser.close();
    await server.close();
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`\n${fileCount} files of ${FILE_MB} MB (${fileCount * FILE_MB} MB) per run`);
  console.log(workersRunning ? 'Workers running during the uploads' : "Workers' messages held during the uploads");
  for (const { name, tuning } of chosenVariants) console.log(`${name}: ${JSON.stringify(tuning)}`);
  console.log(
    '| Run | Upload | Seconds | MB/s | x bare PUT | API calls | Peak Chromium RSS (before) | Peak JS heap | Load (1 min) |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const { run, what, result: r } of results) {
    // Against the mean throughput of the run's two baselines.
    const baselines = results.filter((each) => each.run === run && each.what.startsWith('raw'));
    const baseline = baselines.reduce((sum, each) => sum + each.result.mbPerSecond, 0) / baselines.length;
    console.log(
      `| ${run} | ${what} | ${r.seconds.toFixed(1)} | ${r.mbPerSecond.toFixed(1)} | ${(r.mbPerSecond / baseline).toFixed(2)} | ${r.apiCalls} | ${r.peakRssMb.toFixed(0)} MB (${r.baselineRssMb.toFixed(0)}) | ${r.peakHeapMb.toFixed(0)} MB | ${r.load.toFixed(2)} |`,
    );
  }
};

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
