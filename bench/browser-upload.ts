import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { CreateOrderResponse } from '@marketplace/events/orders';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { ulid } from 'ulid';
import { repoRoot, stackEnvironment, startLocalStack, testPorts, webEnvironment } from '../services/local/stack';

/**
 * Our Uppy upload of a photographer's originals (web/src/features/photographer/uploads: multipart
 * with 8 MB parts for files of 16 MB and more, every request signed by our API, five files at a
 * time, each file registered with the API afterwards) against a raw baseline: one presigned PUT
 * per file, one file at a time, to the same S3 stand-in in the same run. Both run in headless
 * Chromium on the local stack, with the web app served by Vite's dev server so the page can
 * import the upload module itself.
 *
 *   npx tsx bench/browser-upload.ts [total MB] [runs]     (default: 1000 MB of 25 MB files, 1 run)
 *
 * It starts the local stack on the test ports shifted by TEST_PORT_OFFSET (4000 when unset). The
 * figures: seconds from start to the last file done (for Uppy: registered with the API), MB/s,
 * and the peak resident memory of all Chromium processes together (sampled every 200 ms, shared
 * pages counted in each process) and of the page's JavaScript heap.
 */
const MB = 1024 * 1024;
const FILE_MB = 25;
const totalMb = Number(process.argv[2] ?? 1000);
const runs = Number(process.argv[3] ?? 1);
const fileCount = Math.max(1, Math.round(totalMb / FILE_MB));
const portOffset = Number(process.env.TEST_PORT_OFFSET ?? 4000);
const ports = Object.fromEntries(
  Object.entries(testPorts).map(([name, port]) => [name, port + portOffset]),
) as typeof testPorts;
const dataDir = path.join(repoRoot, '.local', `bench-upload-${portOffset}`);

type Result = { seconds: number; mbPerSecond: number; peakRssMb: number; baselineRssMb: number; peakHeapMb: number };

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
  return { seconds, mbPerSecond: (fileCount * FILE_MB) / seconds, peakRssMb, baselineRssMb, peakHeapMb };
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
const uppyUploadInPage = `async ({ order, clientSecret }) => {
  const { OriginalsUpload } = await import('/src/features/photographer/uploads/originals-upload.ts');
  const upload = new OriginalsUpload({ order, clientSecret, uploads: {} });
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
  const stack = await startLocalStack({ ports, dataDir, persist: false, log: () => {} });
  Object.assign(process.env, stackEnvironment(ports), { API_URL: `http://127.0.0.1:${ports.gateway}` });
  Object.assign(process.env, webEnvironment(ports));
  const vite = await import('vite');
  const server = await vite.createServer({
    configFile: path.join(repoRoot, 'web', 'vite.config.ts'),
    root: path.join(repoRoot, 'web'),
    logLevel: 'warn',
    server: { port: ports.web, strictPort: true, host: '127.0.0.1' },
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
  const results: { what: string; result: Result }[] = [];
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
    for (let run = 1; run <= runs; run++) {
      // Raw: presigned PUTs, one file at a time.
      {
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
        const result = await measure(page, context, () =>
          page.evaluate(`(${rawUploadInPage})(${JSON.stringify(urls)})`),
        );
        results.push({ what: `raw presigned PUT, 1 at a time (run ${run})`, result });
        console.log(results.at(-1));
        await context.close();
      }
      // Ours: the create-order page's Uppy upload for a new order.
      {
        const created = await as(photographer).post('/api/orders', {
          jobTypeId: 'hdr',
          name: `Bench ${run}`,
          photoCount: Math.min(fileCount, 100),
        });
        if (created.status !== 201) throw new Error(`create order: ${created.status} ${JSON.stringify(created.body)}`);
        const { order, stripeClientSecret } = created.body as CreateOrderResponse;
        const context = await browser.newContext();
        const page = await signInPage(context, webUrl, photographer.email);
        await pickFilesInPage(page, photoFiles);
        const args = JSON.stringify({ order, clientSecret: stripeClientSecret });
        const result = await measure(page, context, () => page.evaluate(`(${uppyUploadInPage})(${args})`));
        results.push({ what: `our Uppy set-up (run ${run})`, result });
        console.log(results.at(-1));
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await server.close();
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`\n${fileCount} files of ${FILE_MB} MB (${fileCount * FILE_MB} MB) per run`);
  console.log('| Upload | Seconds | MB/s | Peak Chromium RSS | Chromium RSS before | Peak JS heap |');
  console.log('|---|---|---|---|---|---|');
  for (const { what, result: r } of results) {
    console.log(
      `| ${what} | ${r.seconds.toFixed(1)} | ${r.mbPerSecond.toFixed(1)} | ${r.peakRssMb.toFixed(0)} MB | ${r.baselineRssMb.toFixed(0)} MB | ${r.peakHeapMb.toFixed(0)} MB |`,
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
