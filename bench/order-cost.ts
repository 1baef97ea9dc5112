import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MULTIPART_PART_BYTES, MULTIPART_THRESHOLD_BYTES } from '@marketplace/events/orders';
import { type Browser, chromium, type Page } from 'playwright-core';
import { LocalQueueRunner } from '../services/local/queue-runner';
import { repoRoot, webEnvironment } from '../services/local/stack';
import { resetConfig } from '../services/src/config';
import { routeKey, routes } from '../services/src/routes';
import { workers } from '../services/src/workers';
import { machine, signInWithPassword, startBenchStack } from './local-bench-stack';

/**
 * What one order costs on AWS, counted from what the browser really does. It starts the local
 * stack, builds and serves the web app, and drives the whole journey in Chromium: the demo
 * photographer creates an HDR order with N photos, uploads them and pays by card; the demo editor
 * claims it, downloads the originals' zip, uploads N edited files and marks it complete; the
 * photographer downloads the edited zip. It runs that journey for two photo counts, so every
 * count splits into a part per order and a part per photo.
 *
 *   npx tsx bench/order-cost.ts [photos, first run] [photos, second run]   (default: 1 and 3)
 *   npx tsx bench/order-cost.ts --price [counts.json]   (prices the counts a run saved, without a run)
 *
 * Counting sits outside handlers and workers: the gateway's own request log (route, status, time),
 * a counting proxy in front of the S3 stand-in (S3_ENDPOINT points at it, so presigned URLs lead
 * the browser through it too), a middleware on the process's one DynamoDB client that asks for
 * ReturnConsumedCapacity TOTAL and adds up what DynamoDB Local answers, a wrapper around the
 * local queue runner's send and delivery, the SES stand-in's store, and the bytes the handlers
 * log. The figures are then scaled to 25 photos of 25 MB and priced in docs/cost.md.
 */
const priceOnly = process.argv[2] === '--price';
const photoCounts = [Number(process.argv[2] ?? 1), Number(process.argv[3] ?? 3)] as const;
const countsFile = path.join(repoRoot, '.local', 'bench-order-cost-counts.json');

type Counts = Map<string, number>;
const add = (counts: Counts, key: string, by = 1) => counts.set(key, (counts.get(key) ?? 0) + by);

interface Tally {
  api: Counts;
  apiMs: Counts;
  s3: Counts;
  s3PutBytes: Counts;
  dynamoRead: Counts;
  dynamoWrite: Counts;
  dynamoCalls: Counts;
  sqsSent: Counts;
  pipeEvents: Counts;
  workerBatches: Counts;
  workerMessages: Counts;
  workerMs: Counts;
  logBytes: number;
  emails: number;
}
const newTally = (): Tally => ({
  api: new Map(),
  apiMs: new Map(),
  s3: new Map(),
  s3PutBytes: new Map(),
  dynamoRead: new Map(),
  dynamoWrite: new Map(),
  dynamoCalls: new Map(),
  sqsSent: new Map(),
  pipeEvents: new Map(),
  workerBatches: new Map(),
  workerMessages: new Map(),
  workerMs: new Map(),
  logBytes: 0,
  emails: 0,
});
let tally: Tally | undefined;

/** The route a request reached, matched as the gateway does: literal segments first, greedy last. */
const routeMatchers = routes
  .map((route) => ({
    key: routeKey(route),
    method: route.method as string,
    pattern: new RegExp(
      `^${route.path
        .split('/')
        .map((s) => (/^\{\w+\+\}$/.test(s) ? '.+' : /^\{\w+\}$/.test(s) ? '[^/]+' : s))
        .join('/')}$`,
    ),
    rank: (route.path.match(/\{\w+\}/g)?.length ?? 0) + (route.path.includes('+}') ? 1000 : 0),
  }))
  .sort((a, b) => a.rank - b.rank);
const routeOf = (method: string, url: string) => {
  const pathname = new URL(url, 'http://local').pathname;
  return routeMatchers.find((m) => (m.method === method || m.method === 'ANY') && m.pattern.test(pathname))?.key;
};

/** The gateway's line for each request: `GET /api/orders/my?limit=20 200 14ms`. */
const countGatewayLine = (line: string) => {
  const found = /^([A-Z]+) (\S+) (\d{3}) (\d+)ms$/.exec(line);
  if (!found || !tally) return;
  const [, method, url, , ms] = found;
  const key = routeOf(method!, url!) ?? `${method} (no route)`;
  add(tally.api, key);
  // Lambda bills each invocation rounded up to the millisecond.
  add(tally.apiMs, key, Math.max(1, Number(ms)));
};

/** S3's request classes: PUT, COPY, POST and LIST at one price; GET and everything else at another. */
const s3Operation = (method: string, url: URL, headers: http.IncomingHttpHeaders) => {
  const q = url.searchParams;
  if (method === 'PUT' && q.has('partNumber')) return 'UploadPart';
  if (method === 'PUT' && (headers['x-amz-copy-source'] || q.has('x-amz-copy-source'))) return 'CopyObject';
  if (method === 'PUT') return 'PutObject';
  if (method === 'POST' && q.has('uploads')) return 'CreateMultipartUpload';
  if (method === 'POST' && q.has('uploadId')) return 'CompleteMultipartUpload';
  if (method === 'POST') return 'PostObject';
  if (method === 'GET' && q.has('uploadId')) return 'ListParts';
  if (method === 'GET' && (q.has('list-type') || url.pathname.split('/').filter(Boolean).length < 2))
    return 'ListObjects';
  if (method === 'GET') return 'GetObject';
  if (method === 'HEAD') return 'HeadObject';
  if (method === 'DELETE' && q.has('uploadId')) return 'AbortMultipartUpload';
  if (method === 'DELETE') return 'DeleteObject';
  return `${method} (CORS preflight)`;
};

/** Which kind of object a key holds, for the storage line: originals, edited, renditions, zips. */
const objectKind = (key: string) => {
  if (/zip/i.test(key)) return 'zips';
  if (/thumb|preview|rendition/i.test(key)) return 'renditions';
  if (/edited/.test(key)) return 'edited';
  if (/originals/.test(key)) return 'originals';
  return 'other';
};

/** A pass-through proxy in front of the S3 stand-in that counts each request by S3 operation. */
const startS3CountingProxy = (targetPort: number) =>
  new Promise<http.Server>((resolve) => {
    const server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://local');
      const operation = s3Operation(req.method ?? 'GET', url, req.headers);
      let bytes = 0;
      req.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      req.on('end', () => {
        if (!tally) return;
        add(tally.s3, operation);
        if (operation === 'PutObject' || operation === 'UploadPart') {
          add(tally.s3PutBytes, objectKind(decodeURIComponent(url.pathname)), bytes);
        }
      });
      const upstream = http.request(
        { host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      req.pipe(upstream);
    });
    server.listen(0, '127.0.0.1', () => resolve(server));
  });

const readCommands = new Set(['GetItemCommand', 'QueryCommand', 'ScanCommand', 'BatchGetItemCommand']);
const transactReads = new Set(['TransactGetItemsCommand']);

/** Counts every DynamoDB call of this process (handlers and workers share one client) with its capacity. */
const countDynamoDb = async () => {
  const { dynamo } = await import('../services/src/data/client');
  dynamo().middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { ReturnConsumedCapacity?: string };
      input.ReturnConsumedCapacity ??= 'TOTAL';
      const result = await next(args);
      if (!tally) return result;
      const command = context.commandName ?? 'unknown';
      const consumed = (result.output as { ConsumedCapacity?: unknown }).ConsumedCapacity;
      const units = (Array.isArray(consumed) ? consumed : consumed ? [consumed] : []).reduce(
        (sum: number, c: { CapacityUnits?: number }) => sum + (c.CapacityUnits ?? 0),
        0,
      );
      add(tally.dynamoCalls, command);
      if (readCommands.has(command) || transactReads.has(command)) add(tally.dynamoRead, command, units);
      else add(tally.dynamoWrite, command, units);
      return result;
    },
    { step: 'initialize', name: 'countConsumedCapacity', override: true },
  );
};

/** Wraps the local queue runner: every message sent, and every batch a worker handled with its time. */
const countQueues = () => {
  const prototype = LocalQueueRunner.prototype as unknown as {
    send: (queue: string, body: string) => unknown;
    deliver: (queue: { name: string }, worker: { queue: string }, batch: unknown[]) => Promise<void>;
  };
  const send = prototype.send;
  prototype.send = function (this: unknown, queue: string, body: string) {
    if (tally) {
      add(tally.sqsSent, queue);
      // A pipe sends the outbox's stream record itself; the handlers' own messages are not stream records.
      const fromPipe = /"eventName"\s*:/.test(body) && /"dynamodb"\s*:/.test(body);
      if (fromPipe && ['order-events', 'zip-builds'].includes(queue)) add(tally.pipeEvents, queue);
    }
    return send.call(this, queue, body);
  };
  const deliver = prototype.deliver;
  prototype.deliver = async function (this: unknown, queue, worker, batch) {
    const started = performance.now();
    try {
      await deliver.call(this, queue, worker, batch);
    } finally {
      if (tally) {
        add(tally.workerBatches, worker.queue);
        add(tally.workerMessages, worker.queue, batch.length);
        add(tally.workerMs, worker.queue, Math.max(1, Math.ceil(performance.now() - started)));
      }
    }
  };
};

/** The handlers' and workers' log lines: CloudWatch Logs bills the bytes ingested. */
const countLogBytes = () => {
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    if (tally) {
      tally.logBytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
      return true;
    }
    return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stdout.write;
};

const emailCount = async () => {
  const store = (await (await fetch(`${process.env.SES_ENDPOINT}/store`)).json()) as { emails?: unknown[] };
  return store.emails?.length ?? 0;
};

/** Small real JPEGs drawn by the browser's canvas (the sizes are scaled to 25 MB afterwards). */
const jpegFiles = async (page: Page, names: string[]) => {
  // A string, so this file needs no DOM types: it runs in the page.
  const encoded = (await page.evaluate(`(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 640;
    canvas.height = 480;
    const context = canvas.getContext('2d');
    return Array.from({ length: ${names.length} }, (_, i) => {
      context.fillStyle = 'hsl(' + ((i * 97) % 360) + ' 60% 50%)';
      context.fillRect(0, 0, canvas.width, canvas.height);
      context.fillStyle = '#fff';
      context.fillRect(40 + i * 10, 40, 200, 120);
      return canvas.toDataURL('image/jpeg', 0.9).split(',')[1];
    });
  })()`)) as string[];
  return names.map((name, i) => ({ name, mimeType: 'image/jpeg', buffer: Buffer.from(encoded[i] ?? '', 'base64') }));
};

const signIn = async (page: Page, webUrl: string, email: string) => {
  await page.goto(`${webUrl}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill('demo-password');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
};

const download = async (page: Page, button: string) => {
  const started = page.waitForEvent('download', { timeout: 180_000 });
  await page.getByRole('button', { name: button }).click();
  const file = await started;
  const dir = mkdtempSync(path.join(tmpdir(), 'order-cost-'));
  await file.saveAs(path.join(dir, file.suggestedFilename()));
  rmSync(dir, { recursive: true, force: true });
};

/** The journey, every step in the browser as a person would take it. */
const journey = async (browser: Browser, webUrl: string, photos: number, settle: () => Promise<void>) => {
  const orderName = `Cost House ${photos} ${Date.now()}`;
  const originals = Array.from({ length: photos }, (_, i) => `room-${i + 1}.jpg`);
  const edited = Array.from({ length: photos }, (_, i) => `room-${i + 1}-edited.jpg`);

  const photographerContext = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const photographer = await photographerContext.newPage();
  photographer.setDefaultTimeout(60_000);
  await signIn(photographer, webUrl, 'photographer@example.com');
  await photographer.waitForURL((url) => url.pathname === '/dashboard');
  await photographer.goto(`${webUrl}/create-order`);
  await photographer.getByRole('button', { name: 'Continue to Payment' }).waitFor();
  await photographer
    .getByRole('textbox', { name: /^Service type/ })
    .or(photographer.getByRole('combobox', { name: /^Service type/ }))
    .first()
    .click();
  await photographer.getByRole('option', { name: /HDR/ }).click();
  await photographer.getByLabel(/order name/i).fill(orderName);
  await photographer.getByRole('textbox', { name: /photo count|distinct photos to edit/i }).fill(String(photos));
  await photographer.locator('input[type="file"]').setInputFiles(await jpegFiles(photographer, originals));
  await photographer.getByRole('button', { name: 'Continue to Payment' }).click();
  await photographer.getByRole('heading', { name: 'Complete Payment' }).waitFor({ timeout: 180_000 });
  await photographer.getByLabel('Card number').fill('4242 4242 4242 4242');
  await photographer.getByLabel('Expiry').fill('12 / 34');
  await photographer.getByLabel('CVC').fill('123');
  await photographer.getByRole('button', { name: /^Pay \$/ }).click();
  await photographer.getByText('Payment successful!').waitFor();
  await photographer.waitForURL((url) => url.pathname === '/dashboard');
  await photographer.getByText(orderName).first().waitFor();
  await settle();

  const editorContext = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const editor = await editorContext.newPage();
  editor.setDefaultTimeout(60_000);
  await signIn(editor, webUrl, 'editor@example.com');
  await editor.waitForURL((url) => url.pathname === '/editor');
  const offered = editor.getByRole('listitem').filter({ hasText: orderName });
  await offered.getByRole('button', { name: 'Claim' }).click();
  await editor.getByText('Order claimed successfully!').waitFor();
  await editor
    .getByRole('list', { name: 'My assignments' })
    .getByRole('listitem')
    .filter({ hasText: orderName })
    .getByRole('link', { name: 'Work on Order' })
    .click();
  await editor.waitForURL((url) => /^\/editor\/orders\/[^/]+$/.test(url.pathname));
  const orderId = new URL(editor.url()).pathname.split('/').pop()!;
  await editor.getByRole('heading', { name: `Original Images (${photos})` }).waitFor();
  await download(editor, 'Download All');
  await editor.locator('input[type="file"]').setInputFiles(await jpegFiles(editor, edited));
  await editor.getByRole('button', { name: 'Upload Files' }).click();
  await editor.getByText(`${photos} file(s) uploaded successfully`).waitFor({ timeout: 180_000 });
  await editor.getByRole('heading', { name: `Delivered Files (${photos})` }).waitFor();
  await editor.getByLabel('Editor Notes').fill('Balanced the windows.');
  await editor.getByRole('button', { name: 'Mark Complete' }).click();
  await editor
    .getByRole('dialog', { name: 'Mark order as completed' })
    .getByRole('button', { name: 'Yes, mark complete' })
    .click();
  await editor.getByText('Order marked as completed!').waitFor();
  await editorContext.close();
  await settle();

  await photographer.goto(`${webUrl}/orders/${orderId}`);
  await photographer.getByText('Completed', { exact: true }).first().waitFor();
  await download(photographer, 'Download Edited Photos');
  await photographerContext.close();
  await settle();
  return orderId;
};

const main = async () => {
  countQueues();
  const { stack, ports } = await startBenchStack('order-cost', 13_500, countGatewayLine);
  const servers: http.Server[] = [];
  let browser: Browser | undefined;
  let closeWeb: (() => Promise<void>) | undefined;
  try {
    // Every S3 call from here on, the handlers' and the browser's (through presigned URLs), passes the proxy.
    const s3Proxy = await startS3CountingProxy(ports.s3);
    servers.push(s3Proxy);
    process.env.S3_ENDPOINT = `http://127.0.0.1:${(s3Proxy.address() as AddressInfo).port}`;
    resetConfig();
    await countDynamoDb();
    await signInWithPassword('photographer@example.com');

    console.log('Building the web app...');
    // The app's content security policy lets the page reach the S3 origin it is built with: the proxy's.
    Object.assign(process.env, webEnvironment(ports), {
      WEB_PORT: String(ports.web),
      PHOTOS_ORIGIN: process.env.S3_ENDPOINT,
    });
    const vite = await import('vite');
    const configFile = path.join(repoRoot, 'web', 'vite.config.ts');
    const root = path.join(repoRoot, 'web');
    const outDir = path.join(repoRoot, '.local', `bench-order-cost-web`);
    await vite.build({ configFile, root, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
    const preview = await vite.preview({
      configFile,
      root,
      build: { outDir },
      preview: { port: ports.web, strictPort: true, host: '127.0.0.1' },
    });
    closeWeb = () => new Promise((resolve) => preview.httpServer.close(() => resolve()));
    const webUrl = `http://127.0.0.1:${ports.web}`;
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
    });
    const settle = async () => {
      await stack.streams.drain(120_000);
      await stack.queues.whenIdle(600_000);
      await stack.streams.drain(120_000);
      await stack.queues.whenIdle(600_000);
    };
    countLogBytes();
    const results: { photos: number; tally: Tally; seconds: number }[] = [];
    for (const photos of photoCounts) {
      await settle();
      const emailsBefore = await emailCount();
      const current = newTally();
      tally = current;
      const started = performance.now();
      await journey(browser, webUrl, photos, settle).catch(async (error) => {
        // What had happened when the journey stopped: the page, and the calls counted so far.
        for (const [i, page] of browser!
          .contexts()
          .flatMap((c) => c.pages())
          .entries()) {
          await page.screenshot({ path: path.join(repoRoot, '.local', `bench-order-cost-failure-${i}.png`) });
        }
        console.error('API so far:', Object.fromEntries(current.api), 'S3 so far:', Object.fromEntries(current.s3));
        throw error;
      });
      tally = undefined;
      current.emails = (await emailCount()) - emailsBefore;
      const seconds = (performance.now() - started) / 1000;
      results.push({ photos, tally: current, seconds });
      console.log(`Journey with ${photos} photo(s): ${seconds.toFixed(0)} s`);
    }
    writeFileSync(
      countsFile,
      JSON.stringify(
        results.map((r) => ({
          ...r,
          tally: Object.fromEntries(
            Object.entries(r.tally).map(([k, v]) => [k, v instanceof Map ? Object.fromEntries(v) : v]),
          ),
        })),
        null,
        2,
      ),
    );
    console.log(`Counts saved in ${path.relative(repoRoot, countsFile)}`);
    report(results);
  } finally {
    tally = undefined;
    await browser?.close();
    await closeWeb?.();
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    await stack.stop();
  }
};

/** Each count at both photo counts, and split into a part per order and a part per photo. */
const report = (results: { photos: number; tally: Tally }[]) => {
  const [a, b] = results as [(typeof results)[0], (typeof results)[0]];
  const lines: string[] = [];
  const row = (what: string, x: number, y: number) => {
    const perPhoto = (y - x) / (b.photos - a.photos);
    const perOrder = x - perPhoto * a.photos;
    lines.push(`| ${what} | ${round(x)} | ${round(y)} | ${round(perOrder)} | ${round(perPhoto)} |`);
  };
  const section = (title: string, pick: (t: Tally) => Counts) => {
    const keys = [...new Set([...pick(a.tally).keys(), ...pick(b.tally).keys()])].sort();
    for (const key of keys) row(`${title} ${key}`, pick(a.tally).get(key) ?? 0, pick(b.tally).get(key) ?? 0);
  };
  section('API requests:', (t) => t.api);
  section('API Lambda ms:', (t) => t.apiMs);
  section('Worker invocations:', (t) => t.workerBatches);
  section('Worker messages:', (t) => t.workerMessages);
  section('Worker Lambda ms:', (t) => t.workerMs);
  section('DynamoDB calls:', (t) => t.dynamoCalls);
  section('DynamoDB read units:', (t) => t.dynamoRead);
  section('DynamoDB write units:', (t) => t.dynamoWrite);
  section('S3 requests:', (t) => t.s3);
  section('S3 bytes put:', (t) => t.s3PutBytes);
  section('SQS messages sent:', (t) => t.sqsSent);
  section('Pipe events:', (t) => t.pipeEvents);
  row('SES emails', a.tally.emails, b.tally.emails);
  row('Log bytes (handlers and workers)', a.tally.logBytes, b.tally.logBytes);
  console.log(`\n${machine()}`);
  console.log(
    `Multipart: files of ${MULTIPART_THRESHOLD_BYTES / 2 ** 20} MiB or more, in parts of ${MULTIPART_PART_BYTES / 2 ** 20} MiB`,
  );
  console.log(`Worker memory: ${workers.map((w) => `${w.queue} ${w.memoryMb} MB`).join(', ')}\n`);
  console.log(`| Count | ${a.photos} photo(s) | ${b.photos} photos | per order | per photo |`);
  console.log('|---|---:|---:|---:|---:|');
  for (const line of lines) console.log(line);
  price(a, b);
};

/** The order priced: 25 photos of 25 MB RAW, edited to 10 MB JPEGs (assumptions in docs/cost.md). */
const PHOTOS = 25;
const MiB = 2 ** 20;
const GiB = 2 ** 30;
const ORIGINAL_BYTES = 25 * MiB;
const EDITED_BYTES = 10 * MiB;
/** Local figures from bench/thumbnails.ts and bench/zip-worker.ts (docs/performance.md), on this loaded machine. */
const RAW_RENDITIONS_SECONDS = 1.46;
const JPEG_RENDITIONS_SECONDS = 1.9;
const RENDITION_BYTES_PER_PICTURE = 700 * 1024;
const ZIP_BYTES_PER_SECOND = 10.6 * 1e6;
/** CloudWatch Logs lines Lambda writes itself (START, END, REPORT) and one API access log line. */
const PLATFORM_LOG_BYTES_PER_INVOCATION = 350;
const ACCESS_LOG_BYTES_PER_REQUEST = 400;

/** us-east-1 list prices, in dollars a unit (sources and date in docs/cost.md). */
const prices = {
  apiRequest: 1.0 / 1e6,
  lambdaRequest: 0.2 / 1e6,
  lambdaGbSecond: 0.0000133334,
  readUnit: 0.125 / 1e6,
  writeUnit: 0.625 / 1e6,
  s3ClassA: 0.005 / 1000,
  s3ClassB: 0.0004 / 1000,
  s3StandardGbMonth: 0.023,
  sqsRequest: 0.4 / 1e6,
  pipeEvent: 0.4 / 1e6,
  email: 0.1 / 1000,
  secretsCall: 0.05 / 10_000,
  logGb: 0.5,
};

const parts = (bytes: number) => Math.ceil(bytes / MULTIPART_PART_BYTES);

const price = (a: { photos: number; tally: Tally }, b: { photos: number; tally: Tally }) => {
  /** A count for an order of PHOTOS photos, from the per-order and per-photo parts of the two runs. */
  const at = (x: number, y: number) => {
    const perPhoto = (y - x) / (b.photos - a.photos);
    return Math.max(0, x - perPhoto * a.photos + perPhoto * PHOTOS);
  };
  const sum = (pick: (t: Tally) => Counts, keep: (key: string) => boolean = () => true) =>
    at(
      [...pick(a.tally)].filter(([k]) => keep(k)).reduce((n, [, v]) => n + v, 0),
      [...pick(b.tally)].filter(([k]) => keep(k)).reduce((n, [, v]) => n + v, 0),
    );
  const one = (pick: (t: Tally) => Counts, key: string) => at(pick(a.tally).get(key) ?? 0, pick(b.tally).get(key) ?? 0);

  // Originals of 25 MB go up in parts: Uppy signs the create, each part and the completion through the API.
  const multipartOriginals = ORIGINAL_BYTES >= MULTIPART_THRESHOLD_BYTES;
  const extraSignsPerOriginal = multipartOriginals ? parts(ORIGINAL_BYTES) + 2 - 1 : 0;
  const signKey = 'POST /api/orders/{id}/uploads/sign';
  // Times: each route's and worker's mean in the second journey (its handlers already loaded, as
  // in a warm Lambda), times the scaled count. The first journey's cold loads would skew a fit.
  const warm = b.tally;
  const meanMs = (ms: Counts, count: Counts, key: string) => (ms.get(key) ?? 0) / Math.max(1, count.get(key) ?? 0);
  const apiCount = (key: string) =>
    Math.max(
      0,
      one((t) => t.api, key),
    ) + (key === signKey ? extraSignsPerOriginal * PHOTOS : 0);
  const routeKeys = [...new Set([...a.tally.api.keys(), ...b.tally.api.keys()])];
  const apiRequests = routeKeys.reduce((n, key) => n + apiCount(key), 0);
  const apiMs = routeKeys.reduce((n, key) => n + apiCount(key) * meanMs(warm.apiMs, warm.api, key), 0);

  const workerInvocations = sum((t) => t.workerBatches);
  const memoryGb = (queue: string) => (workers.find((w) => w.queue === queue)?.memoryMb ?? 0) / 1024;
  const workerGbSeconds = workers.reduce((total, w) => {
    const invocations = Math.max(
      0,
      one((t) => t.workerBatches, w.queue),
    );
    let seconds = (invocations * meanMs(warm.workerMs, warm.workerBatches, w.queue)) / 1000;
    // The journey's small JPEGs render in milliseconds; 25 MB RAWs and 10 MB JPEGs take the bench's times.
    if (w.queue === 'thumbnails') seconds += PHOTOS * (RAW_RENDITIONS_SECONDS + JPEG_RENDITIONS_SECONDS);
    if (w.queue === 'zip-builds') seconds += (PHOTOS * (ORIGINAL_BYTES + EDITED_BYTES)) / ZIP_BYTES_PER_SECOND;
    return total + seconds * memoryGb(w.queue);
  }, 0);

  const classA = new Set([
    'PutObject',
    'UploadPart',
    'CopyObject',
    'PostObject',
    'CreateMultipartUpload',
    'CompleteMultipartUpload',
    'ListParts',
    'ListObjects',
  ]);
  const zipParts = parts(PHOTOS * ORIGINAL_BYTES) + 2 + parts(PHOTOS * EDITED_BYTES) + 2;
  // Counted: one PUT a file and one PUT a zip (all small). Priced: originals in parts, zips in 8 MiB parts.
  const s3ClassA =
    sum(
      (t) => t.s3,
      (k) => classA.has(k),
    ) +
    (multipartOriginals ? (parts(ORIGINAL_BYTES) + 2 - 1) * PHOTOS : 0) +
    (zipParts - 2);
  const s3ClassB = sum(
    (t) => t.s3,
    (k) => !classA.has(k) && !k.startsWith('Delete') && !k.startsWith('Abort'),
  );
  const zipGb = (PHOTOS * (ORIGINAL_BYTES + EDITED_BYTES)) / GiB;
  const storedGb = (PHOTOS * (ORIGINAL_BYTES + EDITED_BYTES + 2 * RENDITION_BYTES_PER_PICTURE)) / GiB;
  const gbMonths = storedGb + zipGb * (7 / 30);

  const sqsRequests = sum((t) => t.sqsSent) + 2 * workerInvocations;
  const stripeRoutes = new Set(routes.filter((r) => r.grants.includes('stripe')).map(routeKey));
  const secretsCalls = sum(
    (t) => t.api,
    (k) => stripeRoutes.has(k),
  );
  const logBytes =
    sum((t) => new Map([['log', t.logBytes]])) +
    (apiRequests + workerInvocations) * PLATFORM_LOG_BYTES_PER_INVOCATION +
    apiRequests * ACCESS_LOG_BYTES_PER_REQUEST;

  const lines: [string, number, string, number][] = [
    ['API Gateway (HTTP API) requests', apiRequests, 'requests', prices.apiRequest],
    ['Lambda requests (routes + workers)', apiRequests + workerInvocations, 'requests', prices.lambdaRequest],
    ['Lambda compute, routes (512 MB)', (apiMs / 1000) * 0.5, 'GB-s', prices.lambdaGbSecond],
    ['Lambda compute, workers', workerGbSeconds, 'GB-s', prices.lambdaGbSecond],
    ['DynamoDB reads', sum((t) => t.dynamoRead), 'read request units', prices.readUnit],
    ['DynamoDB writes', sum((t) => t.dynamoWrite), 'write request units', prices.writeUnit],
    ['S3 PUT, COPY, POST, LIST', s3ClassA, 'requests', prices.s3ClassA],
    ['S3 GET, HEAD and other', s3ClassB, 'requests', prices.s3ClassB],
    ['S3 Standard storage, 30 days (zips 7)', gbMonths, 'GB-months', prices.s3StandardGbMonth],
    ['SQS (sends, receives, deletes)', sqsRequests, 'requests', prices.sqsRequest],
    ['EventBridge Pipes', sum((t) => t.pipeEvents), 'events', prices.pipeEvent],
    ['SES', sum((t) => new Map([['emails', t.emails]])), 'emails', prices.email],
    ['Secrets Manager (at most; only cold starts read)', secretsCalls, 'calls', prices.secretsCall],
    ['CloudWatch Logs ingested', logBytes / 1e9, 'GB', prices.logGb],
  ];
  const total = lines.reduce((n, [, count, , unit]) => n + count * unit, 0);
  console.log(
    `\nOne order of ${PHOTOS} photos of ${ORIGINAL_BYTES / MiB} MiB (edited ${EDITED_BYTES / MiB} MiB), us-east-1:\n`,
  );
  console.log('| Line | Count | Unit | Price a unit ($) | Cost ($) | Share |');
  console.log('|---|---:|---|---:|---:|---:|');
  for (const [what, count, unit, each] of lines) {
    const cost = count * each;
    console.log(
      `| ${what} | ${count < 10 ? count.toPrecision(3) : count.toFixed(0)} | ${unit} | ${each.toPrecision(3)} | ${cost.toFixed(6)} | ${((cost / total) * 100).toFixed(1)} % |`,
    );
  }
  console.log(`| **Total** | | | | **${total.toFixed(4)}** | |`);
  console.log(
    `\nPer photo: $${(total / PHOTOS).toFixed(5)}; without storage: $${((total - gbMonths * prices.s3StandardGbMonth) / PHOTOS).toFixed(5)}`,
  );
};

const round = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : Number(n.toFixed(2)).toString());

/** The counts a run saved, to price again (say, with other assumptions) without a run. */
const priceSavedCounts = (file: string) => {
  const saved = JSON.parse(readFileSync(file, 'utf8')) as { photos: number; tally: Record<string, unknown> }[];
  report(
    saved.map(({ photos, tally: t }) => ({
      photos,
      tally: Object.fromEntries(
        Object.entries(t).map(([k, v]) => [k, typeof v === 'number' ? v : new Map(Object.entries(v as object))]),
      ) as unknown as Tally,
    })),
  );
};

// Ctrl-C: exit through process.exit, so the stack's emulators are stopped on the way out.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));
if (priceOnly) priceSavedCounts(process.argv[3] ?? countsFile);
else await main();
process.exit(0);
