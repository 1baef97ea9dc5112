import { randomBytes, randomUUID } from 'node:crypto';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { type CompletedDownloadView, editedPrefix, type OrderDetailView } from '@marketplace/events/orders';
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import {
  claimOrder,
  completeOrder,
  createOrder,
  listImages,
  markOrderPaid,
  nextOrderNumber,
  type OrderRecord,
  registerEdited,
} from '../src/data/orders';
import { zipSources } from '../src/data/zip-sources';
import { anEditor, aPhotographer, as, db, type TestAccount, waitFor } from './support';
import { unzipByName } from './unzip';

/** Revision rounds: the state machine, re-delivery without a second earning, and the rebuilt zip. */
const bucket = () => process.env.PHOTOS_BUCKET!;
const storage = () => new S3Client({ region: 'us-east-1', endpoint: process.env.S3_ENDPOINT, forcePathStyle: true });
const RATE_CENTS = 50;
const PHOTOS = 2;
const DAY_MS = 24 * 60 * 60 * 1000;

const orderOf = async (orderId: string) => (await db().order.get({ orderId }).go()).data as OrderRecord;

/** An edited file put in storage and registered through the data layer, as a finished upload would be. */
const anEditedUpload = async (orderId: string, editor: TestAccount, filename: string) => {
  const key = `${editedPrefix(orderId)}${randomUUID()}-${filename}`;
  const bytes = randomBytes(600);
  await storage().send(new PutObjectCommand({ Bucket: bucket(), Key: key, Body: bytes }));
  await registerEdited({
    order: await orderOf(orderId),
    editorId: editor.uid,
    key,
    filename,
    size: bytes.length,
    lastModified: new Date().toISOString(),
  });
  return { key, bytes };
};

/** A completed order with two edited files, made through the data layer. */
const aCompletedOrder = async (photographer: TestAccount, editor: TestAccount) => {
  const orderId = ulid();
  const paymentIntentId = `pi_test_${orderId}`;
  await createOrder({
    orderId,
    orderNumber: await nextOrderNumber(),
    photographer: { userId: photographer.uid, name: 'Pat Photographer' },
    jobType: { jobTypeId: 'hdr', name: 'HDR', pricePerPhotoCents: 800 },
    input: { photoCount: PHOTOS, name: 'Elm Court' },
    totalAmountCents: PHOTOS * 800,
    stripePaymentIntentId: paymentIntentId,
  });
  await markOrderPaid({ orderId, paymentIntentId, amountCents: PHOTOS * 800, via: 'webhook' });
  await claimOrder({
    orderId,
    editor: { userId: editor.uid, name: 'Eddie', email: editor.email },
    rateCents: RATE_CENTS,
  });
  const kitchen = await anEditedUpload(orderId, editor, 'kitchen.jpg');
  const porch = await anEditedUpload(orderId, editor, 'porch.jpg');
  await completeOrder({ orderId, editorId: editor.uid });
  return { orderId, kitchen, porch };
};

const counters = async (scope: string) => {
  const { data } = await db().counter.query.byScope({ scope }).go();
  return Object.fromEntries(data.map((c) => [c.name, c.value])) as Record<string, number>;
};

const revisionsOf = async (orderId: string) => (await db().orderRevision.query.byOrder({ orderId }).go()).data;
const eventsOf = async (orderId: string) => (await db().orderEvent.query.byOrder({ orderId }).go()).data;

const request = (photographer: TestAccount, orderId: string, body: unknown) =>
  as(photographer).post(`/api/orders/${orderId}/revisions`, body);

describe('requesting a revision', () => {
  it('sends a completed order back to its editor with the notes, one round at a time, two rounds at most', async () => {
    const [photographer, editor] = await Promise.all([aPhotographer(), anEditor()]);
    const { orderId, kitchen } = await aCompletedOrder(photographer, editor);
    const before = await orderOf(orderId);
    expect(before.revisionCount ?? 0).toBe(0);

    const detail = await as(photographer).get(`/api/orders/${orderId}`);
    expect(detail.body).toMatchObject({ canRequestRevision: true, revisionUnavailableReason: null, revisions: [] });

    const first = await request(photographer, orderId, {
      note: 'The sky in the kitchen window is still grey.',
      photoNotes: [{ key: kitchen.key, note: 'Replace the sky' }],
    });
    expect(first.status).toBe(201);
    const view = first.body as OrderDetailView;
    expect(view).toMatchObject({
      status: 'revision_requested',
      canRequestRevision: false,
      revisionUnavailableReason: 'A revision is in progress.',
      isLate: false,
    });
    expect(view.revisions).toEqual([
      {
        round: 1,
        note: 'The sky in the kitchen window is still grey.',
        photoNotes: [{ key: kitchen.key, filename: 'kitchen.jpg', note: 'Replace the sky' }],
        requestedAt: expect.any(String),
        completedAt: null,
        // A Standard order's round is due 48 hours after the request.
        dueAt: new Date(Date.parse(view.revisions[0]!.requestedAt) + 48 * 60 * 60 * 1000).toISOString(),
      },
    ]);
    expect(await orderOf(orderId)).toMatchObject({ status: 'revision_requested', revisionCount: 1 });

    // Back in the same editor's My Assignments, with the notes.
    const assignments = await as(editor).get('/api/orders/my-assignments');
    expect(assignments.status).toBe(200);
    const listed = (assignments.body.orders as { id: string; status: string; revision: unknown }[]).find(
      (o) => o.id === orderId,
    );
    expect(listed).toMatchObject({
      status: 'revision_requested',
      revision: { round: 1, note: 'The sky in the kitchen window is still grey.' },
    });
    // The editor sees the round on the order too, but may not ask for one.
    expect((await as(editor).get(`/api/orders/${orderId}`)).body).toMatchObject({
      canRequestRevision: false,
      revisionUnavailableReason: null,
      revisions: [{ round: 1 }],
    });

    // While it is open, another request is refused.
    const again = await request(photographer, orderId, { note: 'And the porch' });
    expect(again).toMatchObject({ status: 409, body: { message: 'A revision is in progress.' } });

    // Round 2 after a re-delivery; then a third is refused with the reason.
    await anEditedUpload(orderId, editor, 'kitchen.jpg');
    await completeOrder({ orderId, editorId: editor.uid });
    expect((await request(photographer, orderId, { note: 'Still grey' })).status).toBe(201);
    await anEditedUpload(orderId, editor, 'kitchen.jpg');
    await completeOrder({ orderId, editorId: editor.uid });
    const third = await request(photographer, orderId, { note: 'One more time' });
    expect(third).toMatchObject({ status: 409, body: { message: 'This order has used its 2 free revision rounds.' } });
    expect(await revisionsOf(orderId)).toHaveLength(2);
    expect((await as(photographer).get(`/api/orders/${orderId}`)).body).toMatchObject({
      status: 'completed',
      canRequestRevision: false,
      revisionUnavailableReason: 'This order has used its 2 free revision rounds.',
    });
  }, 60_000);

  it('is refused after 7 days with the delivery date, and nothing is written', async () => {
    const [photographer, editor] = await Promise.all([aPhotographer(), anEditor()]);
    const { orderId } = await aCompletedOrder(photographer, editor);
    const delivered = new Date(Date.now() - 7 * DAY_MS - 60_000);
    await db().order.patch({ orderId }).set({ completedAt: delivered.toISOString() }).go();

    const response = await request(photographer, orderId, { note: 'Too late?' });
    const date = delivered.toLocaleDateString('en-US', {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      timeZone: 'UTC',
    });
    const reason = `Revisions can be requested within 7 days of delivery. This order was delivered on ${date}.`;
    expect(response).toMatchObject({ status: 409, body: { message: reason } });
    expect(await orderOf(orderId)).toMatchObject({ status: 'completed', revisionCount: 0 });
    expect(await revisionsOf(orderId)).toHaveLength(0);
    expect((await as(photographer).get(`/api/orders/${orderId}`)).body).toMatchObject({
      canRequestRevision: false,
      revisionUnavailableReason: reason,
    });
  }, 30_000);

  it('counts the window for a second round from the re-delivery, and keeps the first completion date', async () => {
    const [photographer, editor] = await Promise.all([aPhotographer(), anEditor()]);
    const { orderId } = await aCompletedOrder(photographer, editor);
    const firstCompletedAt = (await orderOf(orderId)).completedAt;
    expect((await request(photographer, orderId, { note: 'Round one' })).status).toBe(201);
    await anEditedUpload(orderId, editor, 'porch.jpg');
    await completeOrder({ orderId, editorId: editor.uid });
    expect((await orderOf(orderId)).completedAt).toBe(firstCompletedAt);

    const redelivered = new Date(Date.now() - 8 * DAY_MS);
    await db().orderRevision.patch({ orderId, round: 1 }).set({ completedAt: redelivered.toISOString() }).go();
    const date = redelivered.toLocaleDateString('en-US', {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      timeZone: 'UTC',
    });
    expect(await request(photographer, orderId, { note: 'Round two' })).toMatchObject({
      status: 409,
      body: { message: `Revisions can be requested within 7 days of delivery. This order was delivered on ${date}.` },
    });
    expect(await revisionsOf(orderId)).toHaveLength(1);
  }, 30_000);

  it('lets one of two requests at once win; the other gets 409', async () => {
    const [photographer, editor] = await Promise.all([aPhotographer(), anEditor()]);
    const { orderId } = await aCompletedOrder(photographer, editor);
    const active = (await counters(`editor#${editor.uid}`)).activeOrders ?? 0;
    const responses = await Promise.all([
      request(photographer, orderId, { note: 'First' }),
      request(photographer, orderId, { note: 'Second' }),
    ]);
    expect(responses.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await revisionsOf(orderId)).toHaveLength(1);
    expect((await counters(`editor#${editor.uid}`)).activeOrders).toBe(active + 1);
    expect(await orderOf(orderId)).toMatchObject({ revisionCount: 1 });
  }, 30_000);

  it('refuses a photo note on a file that is not one of the edited photos (400, nothing written)', async () => {
    const [photographer, editor] = await Promise.all([aPhotographer(), anEditor()]);
    const { orderId } = await aCompletedOrder(photographer, editor);
    const response = await request(photographer, orderId, {
      note: 'Fix it',
      photoNotes: [{ key: `${editedPrefix(orderId)}not-there.jpg`, note: 'This one' }],
    });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/not one of this order/);
    expect((await request(photographer, orderId, { note: '' })).status).toBe(400);
    expect(await orderOf(orderId)).toMatchObject({ status: 'completed', revisionCount: 0 });
    expect(await revisionsOf(orderId)).toHaveLength(0);
  }, 30_000);

  it('is 404 to another photographer and 403 to an editor', async () => {
    const [photographer, editor, stranger] = await Promise.all([aPhotographer(), anEditor(), aPhotographer()]);
    const { orderId } = await aCompletedOrder(photographer, editor);
    expect((await request(stranger, orderId, { note: 'Mine now' })).status).toBe(404);
    expect((await request(editor, orderId, { note: 'Me too' })).status).toBe(403);
    expect(await revisionsOf(orderId)).toHaveLength(0);
  }, 30_000);
});

describe('re-delivering a revision', () => {
  it('keeps the last delivery downloadable while the revision is with the editor', async () => {
    const [photographer, editor] = await Promise.all([aPhotographer(), anEditor()]);
    const { orderId, kitchen } = await aCompletedOrder(photographer, editor);
    await waitFor(
      async () => (await db().download.get({ orderId, kind: 'edited' }).go()).data,
      (d) => d?.status === 'ready',
      30_000,
    );
    expect((await request(photographer, orderId, { note: 'Warmer light' })).status).toBe(201);
    await anEditedUpload(orderId, editor, 'kitchen.jpg');

    const link = await as(photographer).get(`/api/orders/${orderId}/download-completed`);
    expect(link.status).toBe(200);
    const view = link.body as Extract<CompletedDownloadView, { status: 'ready' }>;
    const entries = await unzipByName(Buffer.from(await (await fetch(view.url)).arrayBuffer()));
    // The zip the photographer already had: the first kitchen.jpg, not the one being re-edited.
    expect(entries.get('01_Elm_Court_kitchen.jpg')!.bytes.equals(kitchen.bytes)).toBe(true);
    expect((await as(editor).get(`/api/orders/${orderId}/download-completed`)).status).toBe(403);
  });

  it('needs a new edited file, replaces the file of the same name, rebuilds the zip and books no second earning', async () => {
    const [photographer, editor] = await Promise.all([aPhotographer(), anEditor()]);
    const { orderId, kitchen, porch } = await aCompletedOrder(photographer, editor);
    const editorScope = `editor#${editor.uid}`;
    const photographerScope = `photographer#${photographer.uid}`;
    const booked = await counters(editorScope);
    expect(booked).toMatchObject({ completedOrders: 1, totalEarnings: PHOTOS * RATE_CENTS });

    expect((await request(photographer, orderId, { note: 'Brighter kitchen, please' })).status).toBe(201);
    expect((await counters(editorScope)).activeOrders).toBe(booked.activeOrders! + 1);
    expect((await counters(photographerScope)).activeOrders).toBe(1);

    // Nothing re-delivered yet: completion is refused and the order stays with the editor.
    const early = await as(editor).post(`/api/orders/${orderId}/complete`, {});
    expect(early.status).toBe(409);
    expect(early.body.message).toMatch(/re-edited photo/);
    expect((await orderOf(orderId)).status).toBe('revision_requested');

    // The editor uploads a new kitchen.jpg through the route's rules, then completes again.
    const signed = await as(editor).post(`/api/orders/${orderId}/edited-uploads/sign`, {
      method: 'PUT',
      key: `${editedPrefix(orderId)}${randomUUID()}-kitchen.jpg`,
      contentType: 'image/jpeg',
      size: 10,
    });
    expect(signed.status).toBe(200);
    const replacement = await anEditedUpload(orderId, editor, 'kitchen.jpg');
    const edited = await listImages(orderId, 'edited');
    expect(edited.map((i) => i.key).sort()).toEqual([replacement.key, porch.key].sort());
    expect((await as(photographer).get(`/api/orders/${orderId}/images`)).body.images).not.toContainEqual(
      expect.objectContaining({ key: kitchen.key }),
    );

    const done = await as(editor).post(`/api/orders/${orderId}/complete`, {});
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      status: 'completed',
      revisions: [{ round: 1, completedAt: expect.any(String) }],
    });
    const order = await orderOf(orderId);
    expect(order).toMatchObject({ status: 'completed', revisionCount: 1 });
    expect(order.revisionRequestedAt).toBeUndefined();

    // Earnings, payouts, completions and turnaround are booked once; the active counts are back.
    const after = await counters(editorScope);
    expect(after).toMatchObject({
      completedOrders: booked.completedOrders,
      totalEarnings: booked.totalEarnings,
      pendingPayouts: booked.pendingPayouts,
      turnaroundSeconds: booked.turnaroundSeconds,
      activeOrders: booked.activeOrders,
    });
    expect((await counters(photographerScope)).activeOrders).toBe(0);

    // The zip is rebuilt for the files the order has now: the new kitchen.jpg, one entry per name.
    const fingerprint = (await zipSources(order, 'edited')).fingerprint;
    await waitFor(
      async () => (await db().download.get({ orderId, kind: 'edited' }).go()).data,
      (d) => d?.status === 'ready' && d.sourceFingerprint === fingerprint,
      30_000,
    );
    const link = await as(photographer).get(`/api/orders/${orderId}/download-completed`);
    expect(link.status).toBe(200);
    const view = link.body as Extract<CompletedDownloadView, { status: 'ready' }>;
    const entries = await unzipByName(Buffer.from(await (await fetch(view.url)).arrayBuffer()));
    expect([...entries.keys()]).toEqual(['01_Elm_Court_kitchen.jpg', '02_Elm_Court_porch.jpg']);
    expect(entries.get('01_Elm_Court_kitchen.jpg')!.bytes.equals(replacement.bytes)).toBe(true);
    expect(entries.get('02_Elm_Court_porch.jpg')!.bytes.equals(porch.bytes)).toBe(true);

    // The log holds the request and both completions, the second marked as the revision's.
    const events = await waitFor(
      () => eventsOf(orderId),
      (found) => found.filter((e) => e.eventType === 'order_completed').length === 2,
    );
    const types = events.map((e) => e.eventType);
    expect(types.filter((t) => t === 'order_completed')).toHaveLength(2);
    expect(types.indexOf('revision_requested')).toBeGreaterThan(types.indexOf('order_completed'));
    expect(events.find((e) => e.eventType === 'revision_requested')?.metadata).toMatchObject({
      round: 1,
      editorId: editor.uid,
      note: 'Brighter kitchen, please',
      photoNoteCount: 0,
    });
    expect(events.filter((e) => e.eventType === 'order_completed').at(-1)?.metadata).toMatchObject({
      revisionRound: 1,
    });
  }, 60_000);
});
