import { randomBytes } from 'node:crypto';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SequenceView } from '@marketplace/events/delivery';
import { type CompletedDownloadView, editedPrefix } from '@marketplace/events/orders';
import sharp from 'sharp';
import { ulid } from 'ulid';
import { beforeAll, describe, expect, it } from 'vitest';
import { dynamo } from '../src/data/client';
import { getDelivery } from '../src/data/delivery';
import {
  claimOrder,
  completeOrder,
  createOrder,
  markOrderPaid,
  nextOrderNumber,
  registerEdited,
  registerOriginal,
} from '../src/data/orders';
import { zipSources } from '../src/data/zip-sources';
import { anEditor, aPhotographer, as, db, type TestAccount, waitFor } from './support';
import { unzipEntries } from './unzip';

const s3 = new S3Client({ region: 'us-east-1', endpoint: process.env.S3_ENDPOINT, forcePathStyle: true });
const bucket = () => process.env.PHOTOS_BUCKET!;

interface Original {
  filename: string;
  scene: number;
  /** When the file was taken (the browser's lastModified): the order within a scene. */
  takenAt: string;
}

/**
 * A completed order whose originals were taken in scenes out of name order, and whose edits are
 * named after them (one edit with no original at all).
 */
const aCompletedOrder = async ({
  photographer,
  editor,
  name,
  originals,
  edits,
  bytesOf = async (filename) => Buffer.from(`edited ${filename}`),
}: {
  photographer: TestAccount;
  editor: TestAccount;
  name: string;
  originals: Original[];
  edits: string[];
  /** The edited files' bytes, by name (text naming the file when not given). */
  bytesOf?: (filename: string) => Promise<Buffer>;
}) => {
  const orderId = ulid();
  const paymentIntentId = `pi_test_${ulid()}`;
  const created = await createOrder({
    orderId,
    orderNumber: await nextOrderNumber(),
    photographer: { userId: photographer.uid, name: 'Pat Photographer' },
    jobType: { jobTypeId: 'twilight', name: 'Twilight', pricePerPhotoCents: 500 },
    input: { photoCount: originals.length, name },
    totalAmountCents: originals.length * 500,
    stripePaymentIntentId: paymentIntentId,
  });
  for (const original of originals) {
    const key = `orders/${orderId}/originals/${original.filename}`;
    await s3.send(new PutObjectCommand({ Bucket: bucket(), Key: key, Body: randomBytes(64) }));
    await registerOriginal({
      order: created,
      key,
      filename: original.filename,
      size: 64,
      lastModified: original.takenAt,
      scene: original.scene,
    });
  }
  await markOrderPaid({ orderId, paymentIntentId, amountCents: originals.length * 500, via: 'webhook' });
  const order = await claimOrder({
    orderId,
    editor: { userId: editor.uid, name: 'Eddie Editor', email: editor.email },
    rateCents: 50,
  });
  const editedKeys = new Map<string, string>();
  for (const [index, filename] of edits.entries()) {
    const key = `${editedPrefix(orderId)}${index}-${filename}`;
    const bytes = await bytesOf(filename);
    await s3.send(new PutObjectCommand({ Bucket: bucket(), Key: key, Body: bytes }));
    await registerEdited({
      order,
      editorId: editor.uid,
      key,
      filename,
      size: bytes.length,
      lastModified: new Date().toISOString(),
    });
    editedKeys.set(filename, key);
  }
  await completeOrder({ orderId, editorId: editor.uid });
  return { orderId, editedKeys };
};

/** Asks a download until it answers 200, as the browser does, and opens the zip. */
const downloadedZip = async (photographer: TestAccount, orderId: string, route = 'download-completed') => {
  const response = await waitFor(
    () => as(photographer).get(`/api/orders/${orderId}/${route}`),
    (answer) => answer.status !== 202,
    60_000,
  );
  expect(response.status).toBe(200);
  const view = response.body as Extract<CompletedDownloadView, { status: 'ready' }>;
  const entries = await unzipEntries(Buffer.from(await (await fetch(view.url)).arrayBuffer()));
  return entries.map(({ name, bytes }) => ({ name, bytes, text: bytes.toString() }));
};

const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 10, minute)).toISOString();

describe('the listing order of a delivered order', () => {
  let photographer: TestAccount;
  let someoneElse: TestAccount;
  let editor: TestAccount;
  let orderId: string;
  let keys: Map<string, string>;

  beforeAll(async () => {
    [photographer, someoneElse, editor] = await Promise.all([aPhotographer(), aPhotographer(), anEditor()]);
    // Taken: the kitchen (scene 1), then the front (scene 2, two brackets), then the bath (scene 3).
    ({ orderId, editedKeys: keys } = await aCompletedOrder({
      photographer,
      editor,
      name: 'Oak Street 12',
      originals: [
        { filename: 'DSC_0300.CR2', scene: 3, takenAt: at(30) },
        { filename: 'DSC_0100.CR2', scene: 1, takenAt: at(10) },
        { filename: 'DSC_0201.CR2', scene: 2, takenAt: at(21) },
        { filename: 'DSC_0200.CR2', scene: 2, takenAt: at(20) },
      ],
      edits: ['DSC_0300_edited.jpg', 'extra-twilight.JPEG', 'DSC_0100.jpg', 'DSC_0200.tif'],
    }));
  }, 60_000);

  const sequence = async (account = photographer) => as(account).get(`/api/orders/${orderId}/sequence`);

  it("follows the originals' capture order until the photographer saves one, an unpaired edit last", async () => {
    const response = await sequence();
    expect(response.status).toBe(200);
    const view = response.body as SequenceView;
    expect(view).toMatchObject({ version: 0, isDefault: true, updatedAt: null, mlsLongEdge: 2048 });
    expect(view.photos.map((p) => p.filename)).toEqual([
      'DSC_0100.jpg',
      'DSC_0200.tif',
      'DSC_0300_edited.jpg',
      'extra-twilight.JPEG',
    ]);
    // Named for the listing: NN, the order's name, the original's base name (its own when unpaired).
    expect(view.photos.map((p) => p.entryName)).toEqual([
      '01_Oak_Street_12_DSC_0100.jpg',
      '02_Oak_Street_12_DSC_0200.tif',
      '03_Oak_Street_12_DSC_0300.jpg',
      '04_Oak_Street_12_extra-twilight.jpg',
    ]);
    expect(view.mls).toMatchObject({ longEdge: 2048 });
  });

  it('is only the photographer’s own', async () => {
    expect((await sequence(someoneElse)).status).toBe(404);
    expect((await sequence(editor)).status).toBe(403);
  });

  it('saves a new order, cover first, with its event, and the full-resolution zip follows it', async () => {
    const order = ['extra-twilight.JPEG', 'DSC_0300_edited.jpg', 'DSC_0100.jpg', 'DSC_0200.tif'].map(
      (filename) => keys.get(filename)!,
    );
    const saved = await as(photographer).put(`/api/orders/${orderId}/sequence`, { keys: order, version: 0 });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ version: 1 });

    const view = (await sequence()).body as SequenceView;
    expect(view).toMatchObject({ version: 1, isDefault: false });
    expect(view.photos.map((p) => p.key)).toEqual(order);
    expect(view.photos[0]).toMatchObject({ position: 1, entryName: '01_Oak_Street_12_extra-twilight.jpg' });

    const events = await waitFor(
      async () => (await db().orderEvent.query.byOrder({ orderId }).go({ pages: 'all' })).data,
      (list) => list.some((e) => e.eventType === 'listing_sequence_saved'),
    );
    expect(events.find((e) => e.eventType === 'listing_sequence_saved')).toMatchObject({ actorId: photographer.uid });

    const entries = await downloadedZip(photographer, orderId);
    expect(entries.map((e) => e.name)).toEqual([
      '01_Oak_Street_12_extra-twilight.jpg',
      '02_Oak_Street_12_DSC_0300.jpg',
      '03_Oak_Street_12_DSC_0100.jpg',
      '04_Oak_Street_12_DSC_0200.tif',
    ]);
    expect(entries.map((e) => e.text)).toEqual([
      'edited extra-twilight.JPEG',
      'edited DSC_0300_edited.jpg',
      'edited DSC_0100.jpg',
      'edited DSC_0200.tif',
    ]);
  }, 60_000);

  it('tells a second tab that another saved first, and lets it save over it when asked', async () => {
    const before = (await sequence()).body as SequenceView;
    const mine = before.photos.map((p) => p.key).reverse();
    const theirs = [...mine.slice(1), mine[0]!];
    // The first tab saves; the second still holds the version both loaded.
    expect(
      (await as(photographer).put(`/api/orders/${orderId}/sequence`, { keys: theirs, version: before.version })).status,
    ).toBe(200);
    const stale = await as(photographer).put(`/api/orders/${orderId}/sequence`, {
      keys: mine,
      version: before.version,
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      error: 'SEQUENCE_CHANGED',
      message: 'The photo order was changed in another tab or window. Load that order, or save yours over it.',
      details: { version: before.version + 1 },
    });
    expect(((await sequence()).body as SequenceView).photos.map((p) => p.key)).toEqual(theirs);

    // The second tab keeps its own: the last save wins.
    const replaced = await as(photographer).put(`/api/orders/${orderId}/sequence`, {
      keys: mine,
      version: before.version,
      replace: true,
    });
    expect(replaced.body).toEqual({ version: before.version + 2 });
    expect(((await sequence()).body as SequenceView).photos.map((p) => p.key)).toEqual(mine);
  });

  it('refuses a sequence that is not exactly the delivered photos, and changes nothing', async () => {
    const before = await getDelivery(orderId);
    const current = ((await sequence()).body as SequenceView).photos.map((p) => p.key);
    const put = (body: unknown) => as(photographer).put(`/api/orders/${orderId}/sequence`, body);
    const missing = await put({ keys: current.slice(1), version: before!.version });
    expect(missing).toMatchObject({ status: 400, body: { error: 'SEQUENCE_MISMATCH' } });
    const twice = await put({ keys: [current[0], ...current.slice(0, -1)], version: before!.version });
    expect(twice).toMatchObject({ status: 400, body: { error: 'DUPLICATE_PHOTO' } });
    const foreign = await put({
      keys: [...current.slice(1), `${editedPrefix(ulid())}x.jpg`],
      version: before!.version,
    });
    expect(foreign).toMatchObject({ status: 400, body: { error: 'SEQUENCE_MISMATCH' } });
    expect((await put({ keys: [], version: 0 })).status).toBe(400);
    expect(
      (await as(someoneElse).put(`/api/orders/${orderId}/sequence`, { keys: current, version: before!.version }))
        .status,
    ).toBe(404);
    expect(await getDelivery(orderId)).toEqual(before);
  });

  it('keeps a choice of MLS size per order, with its event', async () => {
    const put = (longEdge: unknown) => as(photographer).put(`/api/orders/${orderId}/mls-size`, { longEdge });
    expect((await put(1500)).status).toBe(400);
    const chosen = await put(3000);
    expect(chosen).toMatchObject({ status: 200, body: { mlsLongEdge: 3000 } });
    expect(((await sequence()).body as SequenceView).mlsLongEdge).toBe(3000);
    const events = await waitFor(
      async () => (await db().orderEvent.query.byOrder({ orderId }).go({ pages: 'all' })).data,
      (list) => list.some((e) => e.eventType === 'mls_size_changed'),
    );
    expect(events.find((e) => e.eventType === 'mls_size_changed')?.metadata).toMatchObject({ longEdge: 3000 });
    // The sequence is untouched by the size.
    expect((await getDelivery(orderId))?.sequence?.length).toBe(4);
  });

  it('names each zip by its entries, so the same files in another order are another zip', async () => {
    const order = { orderId, name: 'Oak Street 12', orderNumber: 1 };
    const first = await zipSources(order, 'edited');
    const view = (await sequence()).body as SequenceView;
    const swapped = [view.photos[1]!.key, view.photos[0]!.key, ...view.photos.slice(2).map((p) => p.key)];
    await as(photographer).put(`/api/orders/${orderId}/sequence`, { keys: swapped, version: view.version });
    const second = await zipSources(order, 'edited');
    expect(second.fingerprint).not.toBe(first.fingerprint);
    expect(second.entries.map((e) => e.key)).toEqual(swapped);
  });
});

describe('a size chosen while a sequence is saved', () => {
  it('keeps both, whichever lands first, with no error', async () => {
    const [photographer, editor] = await Promise.all([aPhotographer(), anEditor()]);
    const { orderId, editedKeys } = await aCompletedOrder({
      photographer,
      editor,
      name: 'Race Road',
      originals: [{ filename: 'R.CR2', scene: 1, takenAt: at(1) }],
      edits: ['R.jpg', 'S.jpg'],
    });
    const order = [editedKeys.get('S.jpg')!, editedKeys.get('R.jpg')!];
    const [saved, sized] = await Promise.all([
      as(photographer).put(`/api/orders/${orderId}/sequence`, { keys: order, version: 0 }),
      as(photographer).put(`/api/orders/${orderId}/mls-size`, { longEdge: 1024 }),
    ]);
    expect([saved.status, sized.status]).toEqual([200, 200]);
    expect(await getDelivery(orderId)).toMatchObject({ sequence: order, version: 1, mlsLongEdge: 1024 });
  }, 60_000);
});

describe('arranging an order that is not delivered yet', () => {
  it('is refused until the order is completed', async () => {
    const [photographer, editor] = await Promise.all([aPhotographer(), anEditor()]);
    const orderId = ulid();
    const paymentIntentId = `pi_test_${ulid()}`;
    await createOrder({
      orderId,
      orderNumber: await nextOrderNumber(),
      photographer: { userId: photographer.uid, name: 'Pat Photographer' },
      jobType: { jobTypeId: 'twilight', name: 'Twilight', pricePerPhotoCents: 500 },
      input: { photoCount: 1 },
      totalAmountCents: 500,
      stripePaymentIntentId: paymentIntentId,
    });
    await markOrderPaid({ orderId, paymentIntentId, amountCents: 500, via: 'webhook' });
    await claimOrder({
      orderId,
      editor: { userId: editor.uid, name: 'Eddie Editor', email: editor.email },
      rateCents: 50,
    });
    const saved = await as(photographer).put(`/api/orders/${orderId}/sequence`, { keys: ['a'], version: 0 });
    expect(saved).toMatchObject({ status: 409, body: { error: 'NOT_COMPLETED' } });
    const sized = await as(photographer).put(`/api/orders/${orderId}/mls-size`, { longEdge: 1024 });
    expect(sized).toMatchObject({ status: 409, body: { error: 'NOT_COMPLETED' } });
    expect((await as(photographer).get(`/api/orders/${orderId}/download-mls`)).status).toBe(409);
  });
});

/** The rendition-worker asks sent for this order (read from the local SQS stand-in). */
const copiesRequestsSent = async (orderId: string) => {
  const response = await fetch(process.env.SQS_ENDPOINT!, {
    method: 'POST',
    headers: { 'x-amz-target': 'Local.Sent', 'content-type': 'application/x-amz-json-1.0' },
    body: JSON.stringify({ QueueUrl: JSON.parse(process.env.QUEUE_URLS!).renditions, BodyContains: orderId }),
  });
  const { Messages } = (await response.json()) as { Messages: { body: string }[] };
  return Messages.filter((m) => (JSON.parse(m.body) as { request?: string }).request === 'mls-copies').length;
};

const aPhoto = (hue: number) =>
  sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r: hue, g: 120, b: 255 - hue } } })
    .jpeg()
    .toBuffer();

describe('the MLS-ready zip', () => {
  let photographer: TestAccount;
  let orderId: string;
  let keys: Map<string, string>;

  beforeAll(async () => {
    let editor: TestAccount;
    [photographer, editor] = await Promise.all([aPhotographer(), anEditor()]);
    ({ orderId, editedKeys: keys } = await aCompletedOrder({
      photographer,
      editor,
      name: 'Birch Lane',
      originals: [
        { filename: 'A.CR2', scene: 1, takenAt: at(1) },
        { filename: 'B.CR2', scene: 2, takenAt: at(2) },
      ],
      edits: ['A.jpg', 'B.jpg', 'notes.zip'],
      bytesOf: async (filename) =>
        filename.endsWith('.zip') ? Buffer.from('PK archive') : aPhoto(filename === 'A.jpg' ? 40 : 200),
    }));
  }, 60_000);

  it('holds the copies in listing order, named for the listing, leaving out what is no photo', async () => {
    await as(photographer).put(`/api/orders/${orderId}/sequence`, {
      keys: [keys.get('B.jpg'), keys.get('notes.zip'), keys.get('A.jpg')],
      version: 0,
    });
    const entries = await downloadedZip(photographer, orderId, 'download-mls');
    expect(entries.map((e) => e.name)).toEqual(['01_Birch_Lane_B.jpg', '03_Birch_Lane_A.jpg']);
    for (const entry of entries) {
      expect(await sharp(entry.bytes).metadata()).toMatchObject({ format: 'jpeg', width: 1600, height: 1200 });
    }
    const view = (await as(photographer).get(`/api/orders/${orderId}/sequence`)).body as SequenceView;
    expect(view.mls).toMatchObject({ ready: 2, pending: 0, skipped: [{ filename: 'notes.zip' }] });
  }, 90_000);

  it('asks for copies nobody is making, once, and hands the zip over when they are made', async () => {
    // As if the order had completed before copies were made: none recorded, completed long ago.
    const { data: copies } = await db().rendition.query.byOrder({ orderId }).go({ pages: 'all' });
    await db()
      .rendition.delete(copies.map(({ orderId: id, longEdge, editedKey }) => ({ orderId: id, longEdge, editedKey })))
      .go();
    const longAgo = new Date(Date.now() - 60 * 60_000).toISOString();
    await db().order.patch({ orderId }).set({ completedAt: longAgo }).go();
    // `updatedAt` follows every write through the entity, so it is set beneath it.
    const { Key, TableName } = db().orderDelivery.get({ orderId }).params() as {
      Key: Record<string, string>;
      TableName: string;
    };
    await DynamoDBDocumentClient.from(dynamo()).send(
      new UpdateCommand({
        TableName,
        Key,
        UpdateExpression: 'SET updatedAt = :then',
        ExpressionAttributeValues: { ':then': longAgo },
      }),
    );

    const first = await as(photographer).get(`/api/orders/${orderId}/download-mls`);
    expect(first).toMatchObject({ status: 202, body: { status: 'building', fileCount: 3 } });
    await as(photographer).get(`/api/orders/${orderId}/download-mls`);
    expect(await copiesRequestsSent(orderId)).toBe(1);

    const entries = await downloadedZip(photographer, orderId, 'download-mls');
    expect(entries.map((e) => e.name)).toEqual(['01_Birch_Lane_B.jpg', '03_Birch_Lane_A.jpg']);
    expect(await copiesRequestsSent(orderId)).toBe(1);
  }, 90_000);
});
