import { randomBytes, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { type CompletedDownloadView, editedPrefix, originalsPrefix } from '@marketplace/events/orders';
import { ulid } from 'ulid';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  claimOrder,
  createOrder,
  markOrderPaid,
  NO_EDITED_UPLOAD,
  nextOrderNumber,
  registerEdited,
  registerOriginal,
} from '../src/data/orders';
import { anEditor, aPhotographer, as, call, db, type TestAccount, waitFor } from './support';
import { unzipByName } from './unzip';

/** The editor's side of an order: its activity log, edited uploads, completion and the originals zip. */
const bucket = () => process.env.PHOTOS_BUCKET!;
const storage = () => new S3Client({ region: 'us-east-1', endpoint: process.env.S3_ENDPOINT, forcePathStyle: true });
const EDITOR_RATE_CENTS = 50;

interface Original {
  filename: string;
  bytes: Buffer;
}

/** A paid order with these originals in storage, made through the data layer. */
const aPaidOrder = async (photographer: TestAccount, originals: Original[], name?: string) => {
  const orderId = ulid();
  const paymentIntentId = `pi_test_${orderId}`;
  const order = await createOrder({
    orderId,
    orderNumber: await nextOrderNumber(),
    photographer: { userId: photographer.uid, name: 'Pat Photographer' },
    jobType: { jobTypeId: 'hdr', name: 'HDR', pricePerPhotoCents: 800 },
    input: { photoCount: originals.length, ...(name ? { name } : {}) },
    totalAmountCents: originals.length * 800,
    stripePaymentIntentId: paymentIntentId,
  });
  for (const [index, original] of originals.entries()) {
    const key = `${originalsPrefix(orderId)}${index}-${original.filename}`;
    await storage().send(new PutObjectCommand({ Bucket: bucket(), Key: key, Body: original.bytes }));
    await registerOriginal({
      order,
      key,
      filename: original.filename,
      size: original.bytes.length,
      lastModified: new Date().toISOString(),
    });
  }
  await markOrderPaid({ orderId, paymentIntentId, amountCents: order.totalAmountCents, via: 'webhook' });
  return orderId;
};

const claim = (orderId: string, editor: TestAccount) =>
  claimOrder({
    orderId,
    editor: { userId: editor.uid, name: 'Eddie Editor', email: editor.email },
    rateCents: EDITOR_RATE_CENTS,
  });

const anOrderInProgress = async (photographer: TestAccount, editor: TestAccount, photoCount = 1) => {
  const orderId = await aPaidOrder(
    photographer,
    Array.from({ length: photoCount }, (_, i) => ({ filename: `room-${i}.jpg`, bytes: randomBytes(500) })),
  );
  await claim(orderId, editor);
  return orderId;
};

/** An edited file put in storage and registered through the data layer, as a finished upload would be. */
const anEditedUpload = async (orderId: string, editor: TestAccount, filename = 'room-edited.jpg') => {
  const order = (await db().order.get({ orderId }).go()).data!;
  const key = `${editedPrefix(orderId)}${randomUUID()}-${filename}`;
  const bytes = randomBytes(700);
  await storage().send(new PutObjectCommand({ Bucket: bucket(), Key: key, Body: bytes }));
  await registerEdited({
    order: order as Parameters<typeof registerEdited>[0]['order'],
    editorId: editor.uid,
    key,
    filename,
    size: bytes.length,
    lastModified: new Date().toISOString(),
  });
  return { key, bytes };
};

const editedKey = (orderId: string, filename: string) => `${editedPrefix(orderId)}${randomUUID()}-${filename}`;

const signEdited = (account: TestAccount, orderId: string, body: Record<string, unknown>) =>
  as(account).post(`/api/orders/${orderId}/edited-uploads/sign`, body);

const registerEditedUpload = (account: TestAccount, orderId: string, key: string, filename: string) =>
  as(account).post(`/api/orders/${orderId}/edited-uploads/complete`, { key, filename });

/**
 * A request to a signed S3 URL. Not fetch: under some test port offsets the S3 stand-in lands on a
 * port fetch refuses to dial (6665-6669).
 */
const sendToS3 = (url: string, init: { method: string; headers?: Record<string, string>; body?: Buffer }) =>
  new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
    const outgoing = request(url, { method: init.method, headers: init.headers ?? {} }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }));
    });
    outgoing.on('error', reject);
    outgoing.end(init.body);
  });

const postEditedImage = (account: TestAccount, orderId: string, files: { name: string; body: Buffer }[]) => {
  const form = new FormData();
  for (const file of files) form.append('editedImage', new Blob([new Uint8Array(file.body)]), file.name);
  return fetch(`${process.env.API_URL}/api/orders/${orderId}/images/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${account.token}` },
    body: form,
  }).then(async (response) => ({ status: response.status, body: JSON.parse(await response.text()) }));
};

const eventsOf = async (orderId: string) => (await db().orderEvent.query.byOrder({ orderId }).go()).data;

const editorCounters = async (editorId: string) => {
  const { data } = await db()
    .counter.query.byScope({ scope: `editor#${editorId}` })
    .go();
  return Object.fromEntries(data.map((c) => [c.name, c.value]));
};

const downloadRecord = async (orderId: string, kind: 'edited' | 'originals') =>
  (await db().download.get({ orderId, kind }).go()).data;

describe("an order's activity log", () => {
  it('lists the events in time order to the photographer and the claiming editor, and 404 to anyone else', async () => {
    const [photographer, editor] = await Promise.all([aPhotographer(), anEditor()]);
    const orderId = await anOrderInProgress(photographer, editor);
    await waitFor(
      () => eventsOf(orderId),
      (events) => events.some((e) => e.eventType === 'order_claimed'),
    );

    for (const viewer of [photographer, editor]) {
      const response = await as(viewer).get(`/api/orders/${orderId}/events`);
      expect(response.status).toBe(200);
      const events = response.body.events as { id: string; eventType: string; createdAt: string }[];
      expect(events.map((e) => e.eventType)).toEqual([
        'order_created',
        'image_uploaded',
        'order_paid',
        'order_claimed',
      ]);
      expect(events.map((e) => e.id)).toEqual(events.map((e) => e.id).sort());
      expect(events[0]).toMatchObject({ description: expect.any(String), metadata: { photoCount: 1 } });
    }

    expect((await as(await aPhotographer()).get(`/api/orders/${orderId}/events`)).status).toBe(404);
    expect((await as(await anEditor()).get(`/api/orders/${orderId}/events`)).status).toBe(404);
    expect((await call(`/api/orders/${orderId}/events`)).status).toBe(401);
  }, 40_000);
});

describe('signing an edited upload', () => {
  let photographer: TestAccount;
  let editor: TestAccount;
  let orderId: string;

  beforeAll(async () => {
    [photographer, editor] = await Promise.all([aPhotographer(), anEditor()]);
    orderId = await anOrderInProgress(photographer, editor);
  }, 30_000);

  it('signs a PUT under the order edited prefix for the claiming editor, an archive as well as a photo', async () => {
    for (const filename of ['kitchen.jpg', 'all-rooms.zip', 'night.CR2', 'batch.7z']) {
      const key = editedKey(orderId, filename);
      const response = await signEdited(editor, orderId, { method: 'PUT', key, contentType: 'image/jpeg', size: 1234 });
      expect(response.status, filename).toBe(200);
      expect(response.body.key).toBe(key);
      expect(decodeURIComponent(new URL(response.body.url).pathname)).toBe(`/${bucket()}/${key}`);
    }
  });

  it('signs a large archive in parts, up to the edited file cap', async () => {
    const key = editedKey(orderId, 'everything.zip');
    const start = await signEdited(editor, orderId, { method: 'POST', key, size: 1024 * 1024 * 1024 });
    expect(start.status).toBe(200);
    const part = await signEdited(editor, orderId, { method: 'PUT', key, uploadId: 'upload-1', partNumber: 100 });
    expect(part.status).toBe(200);
    const tooLarge = await signEdited(editor, orderId, { method: 'POST', key, size: 3 * 1024 * 1024 * 1024 });
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body.message).toMatch(/at most 2 GB/);
  });

  it("refuses keys outside the order's edited prefix", async () => {
    const otherOrderId = await anOrderInProgress(photographer, editor);
    const outside = [`${originalsPrefix(orderId)}${randomUUID()}-a.jpg`, editedKey(otherOrderId, 'a.jpg'), 'a.jpg'];
    for (const key of outside) {
      expect((await signEdited(editor, orderId, { method: 'PUT', key, size: 10 })).status, key).toBe(403);
    }
    const trick = `${editedPrefix(orderId)}../originals/a.jpg`;
    expect((await signEdited(editor, orderId, { method: 'PUT', key: trick, size: 10 })).status).toBe(400);
  });

  it('refuses file types that are neither images nor accepted archives', async () => {
    for (const filename of ['notes.txt', 'invoice.pdf', 'tool.exe', 'photos.tar']) {
      const response = await signEdited(editor, orderId, {
        method: 'PUT',
        key: editedKey(orderId, filename),
        size: 10,
      });
      expect(response.status, filename).toBe(400);
    }
  });

  it('refuses another editor with 404, the photographer with 403 and anonymous callers with 401', async () => {
    const body = { method: 'PUT', key: editedKey(orderId, 'a.jpg'), size: 10 };
    expect((await signEdited(await anEditor(), orderId, body)).status).toBe(404);
    expect((await signEdited(photographer, orderId, body)).status).toBe(403);
    expect((await call(`/api/orders/${orderId}/edited-uploads/sign`, { method: 'POST', body })).status).toBe(401);
  });

  it('refuses an editor the order is offered to but who has not claimed it with 403', async () => {
    const paidOrderId = await aPaidOrder(photographer, [{ filename: 'a.jpg', bytes: randomBytes(10) }]);
    const response = await signEdited(editor, paidOrderId, {
      method: 'PUT',
      key: editedKey(paidOrderId, 'a.jpg'),
      size: 10,
    });
    expect(response.status).toBe(403);
  });

  it('refuses a completed order with 409', async () => {
    const completedId = await anOrderInProgress(photographer, editor);
    await anEditedUpload(completedId, editor);
    expect((await as(editor).post(`/api/orders/${completedId}/complete`, {})).status).toBe(200);
    const response = await signEdited(editor, completedId, {
      method: 'PUT',
      key: editedKey(completedId, 'late.jpg'),
      size: 10,
    });
    expect(response.status).toBe(409);
  }, 20_000);
});

describe('registering an edited upload', () => {
  it('counts a file that arrived through a signed PUT once, however often it is registered', async () => {
    const [photographer, editor] = await Promise.all([aPhotographer(), anEditor()]);
    const orderId = await anOrderInProgress(photographer, editor);
    const key = editedKey(orderId, 'all-rooms.zip');
    const bytes = randomBytes(2048);
    const signed = await signEdited(editor, orderId, {
      method: 'PUT',
      key,
      contentType: 'application/zip',
      size: bytes.length,
    });
    expect(signed.status).toBe(200);
    expect((await sendToS3(signed.body.url, { method: 'PUT', headers: signed.body.headers, body: bytes })).status).toBe(
      200,
    );

    const first = await registerEditedUpload(editor, orderId, key, 'all-rooms.zip');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      image: { key, filename: 'all-rooms.zip', size: 2048, kind: 'edited' },
      editorUploadCount: 1,
    });
    const again = await registerEditedUpload(editor, orderId, key, 'all-rooms.zip');
    expect(again.body.editorUploadCount).toBe(1);

    const images = (await db().orderImage.query.byOrder({ orderId, kind: 'edited' }).go()).data;
    expect(images.map((i) => i.key)).toEqual([key]);
    const uploadEvents = await waitFor(
      () => eventsOf(orderId),
      (events) => events.some((e) => e.eventType === 'edited_image_uploaded'),
    );
    expect(uploadEvents.filter((e) => e.eventType === 'edited_image_uploaded')).toHaveLength(1);
  }, 30_000);

  it('refuses a file that never arrived, and one outside the edited prefix', async () => {
    const [photographer, editor] = await Promise.all([aPhotographer(), anEditor()]);
    const orderId = await anOrderInProgress(photographer, editor);
    expect((await registerEditedUpload(editor, orderId, editedKey(orderId, 'ghost.jpg'), 'ghost.jpg')).status).toBe(
      404,
    );
    const original = `${originalsPrefix(orderId)}0-room-0.jpg`;
    expect((await registerEditedUpload(editor, orderId, original, 'room-0.jpg')).status).toBe(403);
    expect((await db().order.get({ orderId }).go()).data?.editorUploadCount).toBe(0);
  }, 30_000);
});

describe('registering several edited uploads at once', () => {
  const putEdited = async (orderId: string, filename: string) => {
    const key = editedKey(orderId, filename);
    await storage().send(new PutObjectCommand({ Bucket: bucket(), Key: key, Body: randomBytes(300) }));
    return { key, filename };
  };

  it('counts every file of the call once, only for the claiming editor', async () => {
    const [photographer, editor, otherEditor] = await Promise.all([aPhotographer(), anEditor(), anEditor()]);
    const orderId = await anOrderInProgress(photographer, editor, 2);
    const files = [await putEdited(orderId, 'room-0-edited.jpg'), await putEdited(orderId, 'room-1-edited.jpg')];
    const registerAll = (account: TestAccount) =>
      as(account).post(`/api/orders/${orderId}/edited-uploads/complete`, { files });
    expect((await registerAll(otherEditor)).status).toBe(404);
    expect((await registerAll(photographer)).status).toBe(403);

    const response = await registerAll(editor);
    expect(response.status).toBe(200);
    expect(response.body.editorUploadCount).toBe(2);
    expect(response.body.images).toEqual(
      files.map(({ key, filename }) => expect.objectContaining({ key, filename, size: 300, kind: 'edited' })),
    );
    expect((await registerAll(editor)).body.editorUploadCount).toBe(2);
    const images = (await db().orderImage.query.byOrder({ orderId, kind: 'edited' }).go()).data;
    expect(images.map((i) => i.key).sort()).toEqual(files.map(({ key }) => key).sort());
  }, 30_000);

  it('counts none of the files when one never arrived or lies outside the edited prefix', async () => {
    const [photographer, editor] = await Promise.all([aPhotographer(), anEditor()]);
    const orderId = await anOrderInProgress(photographer, editor);
    const arrived = await putEdited(orderId, 'room-0-edited.jpg');
    const registerAll = (files: { key: string; filename: string }[]) =>
      as(editor).post(`/api/orders/${orderId}/edited-uploads/complete`, { files });
    const ghost = await registerAll([arrived, { key: editedKey(orderId, 'ghost.jpg'), filename: 'ghost.jpg' }]);
    expect(ghost.status).toBe(404);
    expect(ghost.body.message).toMatch(/ghost\.jpg has not arrived/);
    const original = { key: `${originalsPrefix(orderId)}0-room-0.jpg`, filename: 'room-0.jpg' };
    expect((await registerAll([arrived, original])).status).toBe(403);
    expect((await db().order.get({ orderId }).go()).data?.editorUploadCount).toBe(0);
    expect((await db().orderImage.query.byOrder({ orderId, kind: 'edited' }).go()).data).toEqual([]);
  }, 30_000);
});

describe('POST /api/orders/{id}/images/upload', () => {
  it('stores one small file under the edited prefix, registers it and answers its file name', async () => {
    const [photographer, editor] = await Promise.all([aPhotographer(), anEditor()]);
    const orderId = await anOrderInProgress(photographer, editor);
    const body = randomBytes(3000);
    const response = await postEditedImage(editor, orderId, [{ name: 'porch.png', body }]);
    expect(response).toEqual({ status: 200, body: { filename: 'porch.png' } });

    const images = (await db().orderImage.query.byOrder({ orderId, kind: 'edited' }).go()).data;
    expect(images).toHaveLength(1);
    expect(images[0]!.key.startsWith(editedPrefix(orderId))).toBe(true);
    expect(images[0]).toMatchObject({ filename: 'porch.png', size: 3000, uploadedBy: editor.uid });
    const stored = await storage().send(new GetObjectCommand({ Bucket: bucket(), Key: images[0]!.key }));
    expect(Buffer.from(await stored.Body!.transformToByteArray()).equals(body)).toBe(true);
    expect((await db().order.get({ orderId }).go()).data?.editorUploadCount).toBe(1);
  }, 30_000);

  it('asks for a file when none is sent, and refuses types editors cannot deliver', async () => {
    const [photographer, editor] = await Promise.all([aPhotographer(), anEditor()]);
    const orderId = await anOrderInProgress(photographer, editor);
    const none = await postEditedImage(editor, orderId, []);
    expect(none).toEqual({ status: 400, body: { error: 'BAD_REQUEST', message: 'Please select a file to upload' } });
    const text = await postEditedImage(editor, orderId, [{ name: 'notes.txt', body: randomBytes(10) }]);
    expect(text.status).toBe(400);
    expect((await db().order.get({ orderId }).go()).data?.editorUploadCount).toBe(0);
  }, 30_000);
});

describe('completing an order', () => {
  it('is refused with 409 until at least one edited file is uploaded', async () => {
    const [photographer, editor] = await Promise.all([aPhotographer(), anEditor()]);
    const orderId = await anOrderInProgress(photographer, editor);
    const response = await as(editor).post(`/api/orders/${orderId}/complete`, { editorNotes: 'Done' });
    expect(response).toEqual({ status: 409, body: { error: 'CONFLICT', message: NO_EDITED_UPLOAD } });
    expect((await db().order.get({ orderId }).go()).data?.status).toBe('in_progress');
  }, 30_000);

  it('is refused to an editor who cannot see the order (404) and to one it is only offered to (403)', async () => {
    const [photographer, editor] = await Promise.all([aPhotographer(), anEditor()]);
    const orderId = await anOrderInProgress(photographer, editor);
    await anEditedUpload(orderId, editor);
    expect((await as(await anEditor()).post(`/api/orders/${orderId}/complete`, {})).status).toBe(404);

    const offeredId = await aPaidOrder(photographer, [{ filename: 'a.jpg', bytes: randomBytes(10) }]);
    expect((await as(editor).post(`/api/orders/${offeredId}/complete`, {})).status).toBe(403);
    expect((await as(photographer).post(`/api/orders/${orderId}/complete`, {})).status).toBe(403);
    expect((await db().order.get({ orderId }).go()).data?.status).toBe('in_progress');
  }, 30_000);

  it('completes once when the claiming editor sends it twice at once, booking one earning, and builds the edited zip', async () => {
    const [photographer, editor] = await Promise.all([aPhotographer(), anEditor()]);
    const orderId = await anOrderInProgress(photographer, editor, 3);
    await anEditedUpload(orderId, editor);
    const before = await editorCounters(editor.uid);

    const results = await Promise.all(
      [1, 2].map(() => as(editor).post(`/api/orders/${orderId}/complete`, { editorNotes: 'Brightened every room.' })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const completed = results.find((r) => r.status === 200)!.body;
    expect(completed).toMatchObject({ id: orderId, status: 'completed', editorNotes: 'Brightened every room.' });
    expect(completed.completedAt).toEqual(expect.any(String));

    const after = await editorCounters(editor.uid);
    expect(after.completedOrders).toBe((before.completedOrders ?? 0) + 1);
    expect(after.totalEarnings).toBe((before.totalEarnings ?? 0) + 3 * EDITOR_RATE_CENTS);
    expect(after.pendingPayouts).toBe((before.pendingPayouts ?? 0) + 3 * EDITOR_RATE_CENTS);
    expect(after.activeOrders).toBe((before.activeOrders ?? 0) - 1);

    const edited = await waitFor(
      () => downloadRecord(orderId, 'edited'),
      (download) => download?.status === 'ready',
      30_000,
    );
    expect(edited).toMatchObject({ status: 'ready', fileCount: 1 });
  }, 45_000);
});

describe("the originals zip for the editor ('Download All')", () => {
  let photographer: TestAccount;
  let editor: TestAccount;
  let orderId: string;
  const originals: Original[] = [
    { filename: 'front.jpg', bytes: randomBytes(40_000) },
    { filename: 'kitchen.cr2', bytes: randomBytes(30_000) },
  ];

  beforeAll(async () => {
    [photographer, editor] = await Promise.all([aPhotographer(), anEditor()]);
    orderId = await aPaidOrder(photographer, originals, 'Maple Street');
  }, 30_000);

  it('is built when the order is paid, before anyone asks for it', async () => {
    const download = await waitFor(
      () => downloadRecord(orderId, 'originals'),
      (found) => found?.status === 'ready',
      30_000,
    );
    expect(download).toMatchObject({ status: 'ready', fileCount: 2 });
  }, 40_000);

  it('hands the claiming editor a link whose zip holds every original byte for byte, and logs the download', async () => {
    await claim(orderId, editor);
    const response = await waitFor(
      () => as(editor).get(`/api/orders/${orderId}/images/download-all`),
      (r) => r.status !== 202,
      30_000,
    );
    expect(response.status).toBe(200);
    const view = response.body as Extract<CompletedDownloadView, { status: 'ready' }>;
    expect(view).toMatchObject({ status: 'ready', filename: 'Maple Street_images.zip', fileCount: 2 });

    const zip = await sendToS3(view.url, { method: 'GET' });
    expect(zip.status).toBe(200);
    expect(view.sizeBytes).toBe(zip.body.length);
    const entries = await unzipByName(zip.body);
    expect([...entries.keys()].sort()).toEqual(['front.jpg', 'kitchen.cr2']);
    expect(entries.get('front.jpg')!.bytes.equals(originals[0]!.bytes)).toBe(true);
    expect(entries.get('kitchen.cr2')!.bytes.equals(originals[1]!.bytes)).toBe(true);

    const events = await waitFor(
      () => eventsOf(orderId),
      (found) => found.some((e) => e.eventType === 'image_downloaded'),
    );
    const downloaded = events.filter((e) => e.eventType === 'image_downloaded');
    expect(downloaded).toHaveLength(1);
    expect(downloaded[0]).toMatchObject({ actorId: editor.uid, metadata: { kind: 'originals', fileCount: 2 } });
  }, 45_000);

  it('is for the claiming editor only', async () => {
    const path = `/api/orders/${orderId}/images/download-all`;
    expect((await as(await anEditor()).get(path)).status).toBe(404);
    expect((await as(photographer).get(path)).status).toBe(403);
    expect((await call(path)).status).toBe(401);
  }, 30_000);
});
