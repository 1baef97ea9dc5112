import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import {
  DeleteObjectsCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ZipBuildMessage } from '@marketplace/events/order-events';
import { type CompletedDownloadView, editedPrefix } from '@marketplace/events/orders';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { dynamo } from '../src/data/client';
import { BUILD_LEASE_MS, zipKeyFor } from '../src/data/downloads';
import { claimOrder, createOrder, getOrder, markOrderPaid, nextOrderNumber } from '../src/data/orders';
import { zipSources } from '../src/data/zip-sources';
import { anEditor, aPhotographer, as, db, type TestAccount, waitFor } from './support';

/**
 * The zip worker killed (SIGKILL, in its own process) in the middle of a 500 MB zip: no half zip
 * may become visible, and the redelivered message must build a valid one.
 */
const MB = 1024 * 1024;
const FILE_COUNT = 20;
const FILE_BYTES = 25 * MB;
/** Killed once S3 holds this many 8 MiB parts of the zip (64 MiB of about 500). */
const KILL_AFTER_PARTS = 8;

const here = path.dirname(fileURLToPath(import.meta.url));
const s3 = new S3Client({ region: 'us-east-1', endpoint: process.env.S3_ENDPOINT, forcePathStyle: true });
const bucket = () => process.env.PHOTOS_BUCKET!;

/** CRC-32 (the zip format's, IEEE), eight bytes a step, to check each entry's stored checksum against its bytes. */
const CRC_TABLES = (() => {
  const tables = Array.from({ length: 8 }, () => new Int32Array(256));
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    tables[0]![n] = c;
  }
  for (let n = 0; n < 256; n++) {
    let c = tables[0]![n]!;
    for (let t = 1; t < 8; t++) {
      c = tables[0]![c & 0xff]! ^ (c >>> 8);
      tables[t]![n] = c;
    }
  }
  return tables as [Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array];
})();
const crc32 = (bytes: Uint8Array, previous = 0) => {
  const [t0, t1, t2, t3, t4, t5, t6, t7] = CRC_TABLES;
  let crc = ~previous;
  let i = 0;
  for (; i + 8 <= bytes.length; i += 8) {
    const a = crc ^ (bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24));
    const b = bytes[i + 4]! | (bytes[i + 5]! << 8) | (bytes[i + 6]! << 16) | (bytes[i + 7]! << 24);
    crc =
      t7[a & 0xff]! ^
      t6[(a >>> 8) & 0xff]! ^
      t5[(a >>> 16) & 0xff]! ^
      t4[a >>> 24]! ^
      t3[b & 0xff]! ^
      t2[(b >>> 8) & 0xff]! ^
      t1[(b >>> 16) & 0xff]! ^
      t0[b >>> 24]!;
  }
  for (; i < bytes.length; i++) crc = t0[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return ~crc >>> 0;
};

interface Source {
  filename: string;
  key: string;
  size: number;
  crc: number;
}

/**
 * A completed order holding 500 MB of edited files (random bytes: photos do not compress). Its
 * records are written straight to the table, without the outbox's completion event, so the only
 * build is the one this test starts and kills.
 */
const aCompletedOrderOf500Mb = async (photographer: TestAccount, editor: TestAccount) => {
  const orderId = ulid();
  const paymentIntentId = `pi_test_${orderId}`;
  const created = await createOrder({
    orderId,
    orderNumber: await nextOrderNumber(),
    photographer: { userId: photographer.uid, name: 'Pat Photographer' },
    jobType: { jobTypeId: 'hdr', name: 'HDR', pricePerPhotoCents: 800 },
    input: { photoCount: FILE_COUNT, name: 'Killed Zip Lane' },
    totalAmountCents: FILE_COUNT * 800,
    stripePaymentIntentId: paymentIntentId,
  });
  await markOrderPaid({ orderId, paymentIntentId, amountCents: FILE_COUNT * 800, via: 'webhook' });
  await claimOrder({
    orderId,
    editor: { userId: editor.uid, name: 'Eddie Editor', email: editor.email },
    rateCents: 50,
  });
  const sources: Source[] = [];
  const put = async (i: number) => {
    const filename = `room-${String(i + 1).padStart(2, '0')}.jpg`;
    const key = `${editedPrefix(orderId)}${filename}`;
    const bytes = randomBytes(FILE_BYTES);
    await s3.send(new PutObjectCommand({ Bucket: bucket(), Key: key, Body: bytes }));
    await db()
      .orderImage.create({
        orderId,
        kind: 'edited',
        key,
        filename,
        size: bytes.length,
        uploadedBy: editor.uid,
        lastModified: new Date().toISOString(),
        thumbnail: 'placeholder',
      })
      .go();
    sources.push({ filename, key, size: bytes.length, crc: crc32(bytes) });
  };
  // Four at a time: enough to keep the S3 stand-in busy without holding 500 MB in memory.
  for (let i = 0; i < FILE_COUNT; i += 4) {
    await Promise.all(Array.from({ length: Math.min(4, FILE_COUNT - i) }, (_, j) => put(i + j)));
  }
  await db()
    .order.patch({ orderId })
    .set({ status: 'completed', completedAt: new Date().toISOString(), editorUploadCount: FILE_COUNT })
    .composite({ createdAt: created.createdAt, editorId: editor.uid })
    .go();
  return { orderId, sources: sources.sort((a, b) => a.filename.localeCompare(b.filename)) };
};

/** Runs the zip worker on the message in a child process and SIGKILLs it once S3 holds enough parts. */
const runWorkerAndKill = (message: ZipBuildMessage, messageId: string) =>
  new Promise<{ uploadId: string; key: string; partsSeen: number; signal: NodeJS.Signals | null }>(
    (resolve, reject) => {
      const child: ChildProcess = spawn(
        process.execPath,
        ['--import', 'tsx', path.join(here, 'zip-worker-process.ts'), JSON.stringify(message), messageId],
        { env: { ...process.env, LOG_LEVEL: 'ERROR' }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let uploadId = '';
      let key = '';
      let partsSeen = 0;
      let output = '';
      let pending = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        pending += chunk.toString();
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) {
          output += `${line}\n`;
          if (!line.startsWith('PART ')) continue;
          const part = JSON.parse(line.slice(5)) as { uploadId: string; key: string };
          uploadId = part.uploadId;
          key = part.key;
          partsSeen += 1;
          if (partsSeen === KILL_AFTER_PARTS) child.kill('SIGKILL');
        }
      });
      child.stderr!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      child.on('error', reject);
      child.on('exit', (code, signal) => {
        if (signal === 'SIGKILL') resolve({ uploadId, key, partsSeen, signal });
        else reject(new Error(`the worker was not killed: it exited ${code} after ${partsSeen} parts\n${output}`));
      });
    },
  );

/** The download link read as yauzl reads a file: each range it asks for is a ranged GET of the link. */
const readZipFromUrl = async (url: string, size: number) => {
  class RangedReader extends yauzl.RandomAccessReader {
    override _readStreamForRange(start: number, end: number) {
      const stream = new PassThrough();
      fetch(url, { headers: { range: `bytes=${start}-${end - 1}` } })
        .then((response) => {
          if (response.status !== 206 && response.status !== 200) throw new Error(`ranged GET ${response.status}`);
          Readable.fromWeb(response.body as never).pipe(stream);
        })
        .catch((error) => stream.destroy(error));
      return stream;
    }
  }
  const zipfile = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromRandomAccessReader(new RangedReader(), size, { lazyEntries: true }, (error, opened) =>
      error || !opened ? reject(error) : resolve(opened),
    ),
  );
  const entries: { name: string; size: number; storedSize: number; storedCrc: number; crc: number; read: number }[] =
    [];
  await new Promise<void>((resolve, reject) => {
    zipfile.on('entry', (entry: yauzl.Entry) => {
      zipfile.openReadStream(entry, (error, stream) => {
        if (error || !stream) return reject(error);
        let crc = 0;
        let read = 0;
        stream.on('data', (chunk: Buffer) => {
          crc = crc32(chunk, crc);
          read += chunk.length;
        });
        stream.on('end', () => {
          entries.push({
            name: entry.fileName,
            size: entry.uncompressedSize,
            storedSize: entry.compressedSize,
            storedCrc: entry.crc32,
            crc,
            read,
          });
          zipfile.readEntry();
        });
        stream.on('error', reject);
      });
    });
    zipfile.on('end', () => resolve());
    zipfile.on('error', reject);
    zipfile.readEntry();
  });
  return entries;
};

const downloadRecord = async (orderId: string) => (await db().download.get({ orderId, kind: 'edited' }).go()).data;

/** Moves the build's last sign of life back in time, as the lease would have run out by the redelivery. */
const backdateBuild = async (orderId: string, ms: number) => {
  const { Key, TableName } = db().download.get({ orderId, kind: 'edited' }).params() as {
    Key: Record<string, string>;
    TableName: string;
  };
  await DynamoDBDocumentClient.from(dynamo()).send(
    new UpdateCommand({
      TableName,
      Key,
      UpdateExpression: 'SET updatedAt = :then',
      ExpressionAttributeValues: { ':then': new Date(Date.now() - ms).toISOString() },
    }),
  );
};

const objectExists = async (key: string) => {
  try {
    await s3.send(new HeadObjectCommand({ Bucket: bucket(), Key: key }));
    return true;
  } catch (error) {
    if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
    throw error;
  }
};

const deleteUnder = async (prefix: string) => {
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket(), Prefix: prefix }));
  const keys = (listed.Contents ?? []).map((object) => ({ Key: object.Key! }));
  if (keys.length) await s3.send(new DeleteObjectsCommand({ Bucket: bucket(), Delete: { Objects: keys } }));
};

describe('the zip worker killed in the middle of a 500 MB zip', () => {
  let photographer: TestAccount;
  let orderId: string;
  let sources: Source[];
  const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);
  const timings: string[] = [];

  beforeAll(async () => {
    const started = performance.now();
    let editor: TestAccount;
    [photographer, editor] = await Promise.all([aPhotographer(), anEditor()]);
    ({ orderId, sources } = await aCompletedOrderOf500Mb(photographer, editor));
    timings.push(`500 MB of files put in ${seconds(started)} s`);
  }, 300_000);

  afterAll(async () => {
    if (!orderId) return;
    await deleteUnder(`orders/${orderId}/`);
    await deleteUnder(`zips/${orderId}/`);
  }, 60_000);

  it('leaves no half zip anyone can see or be given, and the redelivered message builds a valid one', async () => {
    const message: ZipBuildMessage = { orderId, kind: 'edited', requestedAt: new Date().toISOString() };
    const order = await getOrder(orderId);
    const zipKey = zipKeyFor(orderId, 'edited', (await zipSources(order!, 'edited')).fingerprint);

    let started = performance.now();
    const killed = await runWorkerAndKill(message, ulid());
    timings.push(`worker killed after ${killed.partsSeen} parts, ${seconds(started)} s after its start`);
    expect(killed.signal).toBe('SIGKILL');
    expect(killed.key).toBe(zipKey);

    // The killed build's parts are in S3, but only as an unfinished multipart upload: no object.
    const parts = await s3.send(new ListPartsCommand({ Bucket: bucket(), Key: zipKey, UploadId: killed.uploadId }));
    expect(parts.Parts?.length).toBeGreaterThanOrEqual(KILL_AFTER_PARTS);
    expect(await objectExists(zipKey)).toBe(false);
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket(), Prefix: `zips/${orderId}/edited` }));
    expect(listed.KeyCount ?? 0).toBe(0);
    // The record still says "building", with fewer files done than the zip holds.
    const afterKill = await downloadRecord(orderId);
    expect(afterKill).toMatchObject({ status: 'building', fileCount: FILE_COUNT });
    expect(afterKill?.filesDone ?? 0).toBeLessThan(FILE_COUNT);
    expect(afterKill?.zipKey).toBeUndefined();
    // The photographer is told it is being built: no link to a zip that does not exist.
    const meanwhile = await as(photographer).get(`/api/orders/${orderId}/download-completed`);
    expect(meanwhile.status).toBe(202);
    expect(meanwhile.body).toMatchObject({ status: 'building', fileCount: FILE_COUNT });
    expect(meanwhile.body.url).toBeUndefined();

    // SQS redelivers the message after its visibility timeout (16 minutes), when the dead build's
    // five-minute lease has run out: the lease is moved back, and the same message sent again.
    await backdateBuild(orderId, BUILD_LEASE_MS + 60_000);
    const sqs = new SQSClient({ region: 'us-east-1', endpoint: process.env.SQS_ENDPOINT });
    const queueUrl = JSON.parse(process.env.QUEUE_URLS!)['zip-builds'];
    started = performance.now();
    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(message) }));
    sqs.destroy();

    const ready = await waitFor(
      () => downloadRecord(orderId),
      (download) => download?.status === 'ready' || download?.status === 'failed',
      300_000,
    );
    timings.push(`rebuilt in ${seconds(started)} s`);
    expect(ready).toMatchObject({ status: 'ready', zipKey, fileCount: FILE_COUNT, filesDone: FILE_COUNT });

    const response = await as(photographer).get(`/api/orders/${orderId}/download-completed`);
    expect(response.status).toBe(200);
    const view = response.body as Extract<CompletedDownloadView, { status: 'ready' }>;
    const totalBytes = sources.reduce((sum, source) => sum + source.size, 0);
    // Each STORE entry adds a few dozen bytes of headers; nothing is missing.
    expect(view.sizeBytes).toBeGreaterThan(totalBytes);
    expect(view.sizeBytes).toBeLessThan(totalBytes + FILE_COUNT * 200 + 1000);

    started = performance.now();
    const entries = await readZipFromUrl(view.url, view.sizeBytes);
    timings.push(`zip read back and checked in ${seconds(started)} s`);
    console.log(`zip killed mid-build: ${timings.join('; ')}`);
    // In listing order (no originals: by name), named for the listing.
    expect(entries.map((e) => e.name)).toEqual(
      sources.map(
        (s, i) => `${String(i + 1).padStart(2, '0')}_Killed_Zip_Lane_${s.filename.replace(/\.jpg$/, '')}.jpg`,
      ),
    );
    for (const [i, entry] of entries.entries()) {
      const source = sources[i]!;
      expect(entry, entry.name).toMatchObject({
        size: source.size,
        storedSize: source.size,
        read: source.size,
        storedCrc: source.crc,
        crc: source.crc,
      });
    }
  }, 600_000);
});
