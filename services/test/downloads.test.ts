import { randomBytes } from 'node:crypto';
import { HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ZipBuildMessage } from '@marketplace/events/order-events';
import { type CompletedDownloadView, editedPrefix } from '@marketplace/events/orders';
import { ulid } from 'ulid';
import { beforeAll, describe, expect, it } from 'vitest';
import { publish } from '../src/adapters/queue-publisher';
import { dynamo } from '../src/data/client';
import {
  claimOrder,
  completeOrder,
  createOrder,
  getOrder,
  markOrderPaid,
  nextOrderNumber,
  registerEdited,
} from '../src/data/orders';
import { anEditor, aPhotographer, as, call, db, outboxStreamRecord, type TestAccount, waitFor } from './support';
import { unzipByName } from './unzip';

const s3 = new S3Client({ region: 'us-east-1', endpoint: process.env.S3_ENDPOINT, forcePathStyle: true });
const bucket = () => process.env.PHOTOS_BUCKET!;
const MB = 1024 * 1024;

interface EditedFile {
  filename: string;
  bytes: Buffer;
}

/** An order taken through payment and claiming to the editor's upload of these edited files. */
const anOrderInProgress = async ({
  photographer,
  editor,
  name,
  files,
}: {
  photographer: TestAccount;
  editor: TestAccount;
  name?: string;
  files: EditedFile[];
}) => {
  const orderId = ulid();
  const paymentIntentId = `pi_test_${ulid()}`;
  const input = { jobTypeId: 'twilight', photoCount: files.length, ...(name ? { name } : {}) };
  await createOrder({
    orderId,
    orderNumber: await nextOrderNumber(),
    photographer: { userId: photographer.uid, name: 'Pat Photographer' },
    jobType: { jobTypeId: 'twilight', name: 'Twilight', pricePerPhotoCents: 500 },
    input,
    totalAmountCents: files.length * 500,
    stripePaymentIntentId: paymentIntentId,
  });
  await markOrderPaid({ orderId, paymentIntentId, amountCents: files.length * 500, via: 'webhook' });
  const order = await claimOrder({
    orderId,
    editor: { userId: editor.uid, name: 'Eddie Editor', email: editor.email },
    rateCents: 50,
  });
  for (const [index, file] of files.entries()) {
    const key = `${editedPrefix(orderId)}${index}-${file.filename}`;
    await s3.send(new PutObjectCommand({ Bucket: bucket(), Key: key, Body: file.bytes }));
    await registerEdited({
      order,
      editorId: editor.uid,
      key,
      filename: file.filename,
      size: file.bytes.length,
      lastModified: new Date().toISOString(),
    });
  }
  return orderId;
};

const aCompletedOrder = async (options: Parameters<typeof anOrderInProgress>[0]) => {
  const orderId = await anOrderInProgress(options);
  await completeOrder({ orderId, editorId: options.editor.uid });
  return orderId;
};

const editedDownload = async (orderId: string) => (await db().download.get({ orderId, kind: 'edited' }).go()).data;

const whenReady = (orderId: string) =>
  waitFor(
    () => editedDownload(orderId),
    (download) => download?.status === 'ready',
    30_000,
  );

/** Asks the route until it answers 200, as the browser's polling does. */
const downloadWhenReady = (photographer: TestAccount, orderId: string) =>
  waitFor(
    () => as(photographer).get(`/api/orders/${orderId}/download-completed`),
    (response) => response.status !== 202,
    30_000,
  );

/** Backdates a record's last sign of life, as if its build had died that long ago. */
const backdate = async (orderId: string, minutes: number) => {
  const { Key, TableName } = db().download.get({ orderId, kind: 'edited' }).params() as {
    Key: Record<string, string>;
    TableName: string;
  };
  await DynamoDBDocumentClient.from(dynamo()).send(
    new UpdateCommand({
      TableName,
      Key,
      UpdateExpression: 'SET updatedAt = :then',
      ExpressionAttributeValues: { ':then': new Date(Date.now() - minutes * 60_000).toISOString() },
    }),
  );
};

/**
 * The edited zip requests sent to the zip queue for this order (read from the local SQS stand-in),
 * not counting outbox records: the stream may deliver those again at any time, as a Pipe may.
 */
const editedZipRequestsSent = async (orderId: string) => {
  const response = await fetch(process.env.SQS_ENDPOINT!, {
    method: 'POST',
    headers: { 'x-amz-target': 'Local.Sent', 'content-type': 'application/x-amz-json-1.0' },
    body: JSON.stringify({ QueueUrl: JSON.parse(process.env.QUEUE_URLS!)['zip-builds'], BodyContains: orderId }),
  });
  const { Messages } = (await response.json()) as { Messages: { body: string }[] };
  return Messages.map((m) => JSON.parse(m.body) as Partial<ZipBuildMessage> & { dynamodb?: unknown }).filter(
    (body) => !body.dynamodb && body.orderId === orderId && body.kind === 'edited',
  ).length;
};

const zipRequest = (orderId: string): ZipBuildMessage => ({
  orderId,
  kind: 'edited',
  requestedAt: new Date().toISOString(),
});

/** The completion event as the pipe delivers it: the outbox item's stream record. */
const completionStreamRecord = (orderId: string) =>
  outboxStreamRecord({
    eventId: ulid(),
    orderId,
    eventType: 'order_completed',
    description: 'The editor delivered the edited photos',
    occurredAt: new Date().toISOString(),
    metadata: {},
  });

describe('the edited photos zip', () => {
  let photographer: TestAccount;
  let editor: TestAccount;
  let orderId: string;
  // Two files share a name (the zip must keep both); together they pass one 8 MiB upload part.
  const files: EditedFile[] = [
    { filename: 'front.jpg', bytes: randomBytes(4 * MB) },
    { filename: 'front.jpg', bytes: randomBytes(3 * MB) },
    { filename: 'kitchen.jpg', bytes: randomBytes(2 * MB + 123) },
  ];

  beforeAll(async () => {
    [photographer, editor] = await Promise.all([aPhotographer(), anEditor()]);
    orderId = await aCompletedOrder({ photographer, editor, name: 'Maple Street Café', files });
  }, 60_000);

  it('is built when the order completes, before anyone asks for it', async () => {
    const download = await whenReady(orderId);
    expect(download).toMatchObject({ status: 'ready', fileCount: 3, filesDone: 3 });
    expect(download?.zipKey).toMatch(new RegExp(`^zips/${orderId}/edited-[0-9a-f]+\\.zip$`));
  }, 40_000);

  it('downloads through a five-minute link named as the spec says, holding every edited photo byte for byte', async () => {
    await whenReady(orderId);
    const response = await as(photographer).get(`/api/orders/${orderId}/download-completed`);
    expect(response.status).toBe(200);
    const view = response.body as Extract<CompletedDownloadView, { status: 'ready' }>;
    expect(view).toMatchObject({ status: 'ready', filename: 'Maple_Street_Café_edited_photos.zip', fileCount: 3 });
    expect(new URL(view.url).searchParams.get('X-Amz-Expires')).toBe('300');

    const zipResponse = await fetch(view.url);
    expect(zipResponse.status).toBe(200);
    expect(zipResponse.headers.get('content-disposition')).toBe(
      `attachment; filename="Maple_Street_Caf__edited_photos.zip"; filename*=UTF-8''Maple_Street_Caf%C3%A9_edited_photos.zip`,
    );
    const zip = Buffer.from(await zipResponse.arrayBuffer());
    expect(view.sizeBytes).toBe(zip.length);

    const entries = await unzipByName(zip);
    // In listing order (no originals to follow: by name), each named for the listing, so two
    // files of one name stay two entries.
    expect([...entries.keys()]).toEqual([
      '01_Maple_Street_Cafe_front.jpg',
      '02_Maple_Street_Cafe_front.jpg',
      '03_Maple_Street_Cafe_kitchen.jpg',
    ]);
    expect(entries.get('01_Maple_Street_Cafe_front.jpg')!.bytes.equals(files[0]!.bytes)).toBe(true);
    expect(entries.get('02_Maple_Street_Cafe_front.jpg')!.bytes.equals(files[1]!.bytes)).toBe(true);
    expect(entries.get('03_Maple_Street_Cafe_kitchen.jpg')!.bytes.equals(files[2]!.bytes)).toBe(true);
    // Stored, not deflated: photos do not shrink and storing is three times faster.
    for (const { entry } of entries.values()) expect(entry.compressionMethod).toBe(0);
  }, 40_000);

  it('is not built again when its request is delivered again, in either form', async () => {
    const before = await whenReady(orderId);
    const objectBefore = await s3.send(new HeadObjectCommand({ Bucket: bucket(), Key: before!.zipKey! }));

    await publish('zip-builds', [zipRequest(orderId), completionStreamRecord(orderId), zipRequest(orderId)]);
    // Longer than the queue's delivery and a build of these files; LastModified has whole seconds.
    await new Promise((r) => setTimeout(r, 2500));

    expect(await editedDownload(orderId)).toEqual(before);
    const objectAfter = await s3.send(new HeadObjectCommand({ Bucket: bucket(), Key: before!.zipKey! }));
    expect(objectAfter.LastModified).toEqual(objectBefore.LastModified);
    expect(objectAfter.ETag).toBe(objectBefore.ETag);
  }, 40_000);

  it('is built again on request when its record is missing, answering 202 with progress until it is ready', async () => {
    await whenReady(orderId);
    await db().download.delete({ orderId, kind: 'edited' }).go();

    const first = await as(photographer).get(`/api/orders/${orderId}/download-completed`);
    expect(first).toEqual({ status: 202, body: { status: 'building', filesDone: 0, fileCount: 3 } });

    const ready = await downloadWhenReady(photographer, orderId);
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ready', fileCount: 3 });
  }, 40_000);

  it('reports a live build of the same files without building again, and takes over one that stopped', async () => {
    const ready = await whenReady(orderId);
    // A build of these very files, alive and two files in.
    await db()
      .download.patch({ orderId, kind: 'edited' })
      .set({ status: 'building', filesDone: 2 })
      .remove(['zipKey', 'sizeBytes'])
      .go();

    const live = await as(photographer).get(`/api/orders/${orderId}/download-completed`);
    expect(live).toEqual({ status: 202, body: { status: 'building', filesDone: 2, fileCount: 3 } });
    await new Promise((r) => setTimeout(r, 1500));
    expect(await editedDownload(orderId)).toMatchObject({ status: 'building', filesDone: 2 });

    // Silent for longer than a build's lease: the next request starts it over.
    await backdate(orderId, 10);
    const stalled = await as(photographer).get(`/api/orders/${orderId}/download-completed`);
    expect(stalled).toEqual({ status: 202, body: { status: 'building', filesDone: 0, fileCount: 3 } });
    const rebuilt = await downloadWhenReady(photographer, orderId);
    expect(rebuilt.status).toBe(200);
    expect(await editedDownload(orderId)).toMatchObject({ status: 'ready', zipKey: ready!.zipKey, filesDone: 3 });
  }, 40_000);

  it('asks for no new build on every poll right after a build of the same files failed', async () => {
    await whenReady(orderId);
    await db().download.patch({ orderId, kind: 'edited' }).set({ status: 'failed', error: 'S3 was unavailable' }).go();

    const requestsBefore = await editedZipRequestsSent(orderId);
    const response = await as(photographer).get(`/api/orders/${orderId}/download-completed`);
    expect(response).toEqual({ status: 202, body: { status: 'building', filesDone: 0, fileCount: 3 } });
    await new Promise((r) => setTimeout(r, 1500));
    expect(await editedZipRequestsSent(orderId)).toBe(requestsBefore);

    // A minute later, the next poll tries again.
    await backdate(orderId, 2);
    expect((await downloadWhenReady(photographer, orderId)).status).toBe(200);
  }, 40_000);

  it('is for the photographer who owns the order only', async () => {
    const path = `/api/orders/${orderId}/download-completed`;
    const otherPhotographer = await aPhotographer();
    expect((await as(otherPhotographer).get(path)).status).toBe(404);
    expect((await as(editor).get(path)).status).toBe(403);
    expect((await call(path)).status).toBe(401);
  }, 40_000);

  it('refuses an order that is not completed, and builds no zip of its unfinished edits', async () => {
    const inProgress = await anOrderInProgress({
      photographer,
      editor,
      files: [{ filename: 'draft.jpg', bytes: randomBytes(1000) }],
    });
    const response = await as(photographer).get(`/api/orders/${inProgress}/download-completed`);
    expect(response).toEqual({
      status: 409,
      body: { error: 'CONFLICT', message: 'Only completed orders can be downloaded' },
    });
    await publish('zip-builds', [zipRequest(inProgress)]);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await editedDownload(inProgress)).toBeNull();
    expect((await getOrder(inProgress))?.status).toBe('in_progress');
  }, 40_000);
});
