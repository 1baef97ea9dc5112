import { randomBytes, randomUUID } from 'node:crypto';
import { HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import {
  CLAIMED_ORDERS,
  DATA_EXPORT_RUNNING_MESSAGE,
  type DataExportView,
  ORDERS_IN_PROGRESS,
} from '@marketplace/events/account-data';
import { defaultEditingStyle } from '@marketplace/events/editing-style';
import { editedPrefix, originalsPrefix } from '@marketplace/events/orders';
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { createStripeCustomer, savedCards } from '../src/adapters/stripe-cards';
import { getAccountDeletion, purgeDueAccounts, purgedEmail } from '../src/data/account-deletion';
import { exportZipKey, getDataExport } from '../src/data/data-exports';
import { assignmentCounterName, ORDERS_SCOPE } from '../src/data/order-assignment';
import {
  claimOrder,
  completeOrder,
  createOrder,
  getOrder,
  markOrderPaid,
  nextOrderNumber,
  registerEdited,
  registerOriginal,
} from '../src/data/orders';
import { DATA_EXPORT_EMAIL_SUBJECT } from '../src/domain/data-export-email';
import { profilePictureObjects } from '../src/domain/profile-pictures';
import { exportAccountData } from '../src/workers/export-account-data';
import { deleteKeys, deletePrefix, purgeServices } from '../src/workers/purge-deleted-accounts';
import { stripe } from './stripe-sdk';
import { anEditor, aPhotographer, as, db, forgedToken, signIn, type TestAccount, waitFor } from './support';
import { unzipByName } from './unzip';

/**
 * 'Download my data' and 'Delete my account' on the local stack (docs/decisions/0106): the zip the
 * export worker writes (fed through the outbox), the email with its expiring link, one request at
 * a time, an account of more than a thousand orders read page by page; the deletion's checks
 * (a recent sign-in, the typed confirmation, no order in the account's hands) that write nothing
 * when they refuse, the soft delete with sign-in turned off, and the purge after the retention.
 */
const bucket = () => process.env.PHOTOS_BUCKET!;
const storage = () => new S3Client({ region: 'us-east-1', endpoint: process.env.S3_ENDPOINT, forcePathStyle: true });
const putObject = (key: string, bytes: Buffer = randomBytes(300)) =>
  storage().send(new PutObjectCommand({ Bucket: bucket(), Key: key, Body: bytes, ContentType: 'image/jpeg' }));
const exists = async (key: string) => {
  try {
    await storage().send(new HeadObjectCommand({ Bucket: bucket(), Key: key }));
    return true;
  } catch {
    return false;
  }
};

interface StoredEmail {
  destination: { to: string[] };
  subject: string;
  body: { text?: string; html?: string };
}

const inbox = async (to: string) => {
  const response = await fetch(`${process.env.SES_ENDPOINT}/store`);
  const { emails } = (await response.json()) as { emails: StoredEmail[] };
  return emails.filter((e) => e.destination.to.includes(to) && e.subject === DATA_EXPORT_EMAIL_SUBJECT);
};

/** A token of this account whose sign-in was `secondsAgo` ago (the emulator signs nothing). */
const staleToken = (account: TestAccount, secondsAgo: number) =>
  forgedToken({ sub: account.uid, email: account.email, auth_time: Math.floor(Date.now() / 1000) - secondsAgo });

const exportOf = async (account: TestAccount) =>
  ((await as(account).get('/api/account/data-export')).body as DataExportView).export;

const activityKinds = async (userId: string) => {
  const { data } = await db().securityActivity.query.byUser({ userId }).go();
  return (data as { kind: string }[]).map((row) => row.kind);
};

/** A paid order of the photographer (payment, billing entry and events written as the webhook writes them). */
const aPaidOrder = async (photographer: TestAccount, name = '12 Oak Street') => {
  const orderId = ulid();
  const paymentIntentId = `pi_test_${orderId}`;
  const order = await createOrder({
    orderId,
    orderNumber: await nextOrderNumber(),
    photographer: { userId: photographer.uid, name: 'Pat Photographer' },
    jobType: { jobTypeId: 'hdr', name: 'HDR', pricePerPhotoCents: 800 },
    input: { photoCount: 1, name },
    totalAmountCents: 800,
    stripePaymentIntentId: paymentIntentId,
  });
  const key = `${originalsPrefix(orderId)}${randomUUID()}-front.jpg`;
  await putObject(key);
  await registerOriginal({
    order: (await getOrder(orderId))!,
    key,
    filename: 'front.jpg',
    size: 300,
    contentType: 'image/jpeg',
    lastModified: new Date().toISOString(),
  });
  await markOrderPaid({ orderId, paymentIntentId, amountCents: order.totalAmountCents, via: 'webhook' });
  return (await getOrder(orderId))!;
};

/** Claimed by the editor with one edited file registered (the editor's claimed order). */
const anOrderInProgress = async (photographer: TestAccount, editor: TestAccount) => {
  const { orderId } = await aPaidOrder(photographer);
  await claimOrder({
    orderId,
    editor: { userId: editor.uid, name: 'Erin Editor', email: editor.email },
    rateCents: 50,
  });
  const key = `${editedPrefix(orderId)}${randomUUID()}-front.jpg`;
  await putObject(key);
  await registerEdited({
    order: (await getOrder(orderId))!,
    editorId: editor.uid,
    key,
    filename: 'front.jpg',
    size: 300,
    lastModified: new Date().toISOString(),
  });
  return (await getOrder(orderId))!;
};

const aCompletedOrder = async (photographer: TestAccount, editor: TestAccount) => {
  const order = await anOrderInProgress(photographer, editor);
  await completeOrder({ orderId: order.orderId, editorId: editor.uid });
  return (await getOrder(order.orderId))!;
};

const aShareLink = (photographer: TestAccount, orderId: string) =>
  db()
    .shareLink.create({
      tokenHash: randomBytes(32).toString('hex'),
      linkId: ulid(),
      orderId,
      photographerId: photographer.uid,
      expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    })
    .go();

const json = (entries: Awaited<ReturnType<typeof unzipByName>>, name: string) =>
  JSON.parse(entries.get(name)!.bytes.toString('utf8'));

describe("'Download my data'", () => {
  it("zips a photographer's records (orders, payments, billing, events, feedback, share links, photos as links) and emails a link that expires", async () => {
    const photographer = await aPhotographer({ displayName: 'Pat Photographer' });
    const editor = await anEditor();
    const delivered = await aCompletedOrder(photographer, editor);
    const paid = await aPaidOrder(photographer, '9 Elm Road');
    await aShareLink(photographer, delivered.orderId);
    const style = { ...defaultEditingStyle, sky: 'sunset', notes: 'Warm, never orange' };
    expect((await as(photographer).put('/api/profile/editing-style', style)).status).toBe(200);
    expect(
      (await as(photographer).post('/api/feedback', { type: 'suggestion', message: 'Dark mode, please' })).status,
    ).toBe(201);

    const started = await as(photographer).post('/api/account/data-export');
    expect(started.status).toBe(202);
    expect((started.body as DataExportView).export?.status).toBe('preparing');
    // One at a time: a second request while the first is prepared is refused, in words.
    const second = await as(photographer).post('/api/account/data-export');
    if (second.status === 409) {
      expect(second.body.message).toBe(DATA_EXPORT_RUNNING_MESSAGE);
    } else {
      // The worker was quicker than the second request: it found the first ready.
      expect(second.status).toBe(202);
    }

    const ready = await waitFor(
      () => exportOf(photographer),
      (e) => e?.status === 'ready',
      30_000,
    );
    expect(ready?.status).toBe('ready');
    expect(ready?.url).toContain('X-Amz-Expires=');
    expect(ready?.filename).toMatch(/^marketplace-data-\d{4}-\d\d-\d\d\.zip$/);
    const download = await fetch(ready!.url!);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toContain(ready!.filename!);
    const entries = await unzipByName(Buffer.from(await download.arrayBuffer()));
    expect([...entries.keys()]).toEqual([
      'README.txt',
      'profile.json',
      'orders.json',
      'order-events.json',
      'payments.json',
      'billing-entries.json',
      'share-links.json',
      'photos.json',
      'feedback.json',
      'earnings.json',
      'security-activity.json',
    ]);
    expect(entries.get('README.txt')!.bytes.toString()).toContain(photographer.email);
    expect(json(entries, 'profile.json')).toMatchObject({
      userId: photographer.uid,
      email: photographer.email,
      editingStyle: { sky: 'sunset', notes: 'Warm, never orange' },
    });
    const orders = json(entries, 'orders.json') as { orderId: string; yourRole: string }[];
    expect(orders.map((o) => o.orderId).sort()).toEqual([delivered.orderId, paid.orderId].sort());
    expect(orders.every((o) => o.yourRole === 'photographer')).toBe(true);
    const events = json(entries, 'order-events.json') as { orderId: string; eventType: string }[];
    expect(events.filter((e) => e.orderId === delivered.orderId).map((e) => e.eventType)).toEqual(
      expect.arrayContaining(['order_created', 'order_paid', 'order_claimed', 'order_completed']),
    );
    const payments = json(entries, 'payments.json') as { orderId: string; amountCents: number; status: string }[];
    expect(payments).toHaveLength(2);
    expect(payments.every((p) => p.amountCents === 800 && p.status === 'succeeded')).toBe(true);
    const billing = json(entries, 'billing-entries.json') as { kind: string; orderId: string }[];
    expect(billing.map((b) => b.orderId).sort()).toEqual([delivered.orderId, paid.orderId].sort());
    const links = json(entries, 'share-links.json') as Record<string, unknown>[];
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({ orderId: delivered.orderId });
    // The token's hash is ours, not the account's: it is left out.
    expect(links[0]).not.toHaveProperty('tokenHash');
    const photos = json(entries, 'photos.json') as { orderId: string; kind: string; filename: string; url: string }[];
    expect(photos.map((p) => `${p.orderId}/${p.kind}`).sort()).toEqual(
      [`${delivered.orderId}/edited`, `${delivered.orderId}/original`, `${paid.orderId}/original`].sort(),
    );
    const photo = await fetch(photos[0]!.url);
    expect(photo.status).toBe(200);
    expect(new URL(photos[0]!.url).searchParams.get('X-Amz-Expires')).toBe(String(7 * 24 * 60 * 60));
    expect(json(entries, 'feedback.json')).toEqual([expect.objectContaining({ message: 'Dark mode, please' })]);
    expect(json(entries, 'security-activity.json')).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'data_download_requested' })]),
    );
    expect(await activityKinds(photographer.uid)).toContain('data_download_requested');

    // The email always goes out, once, with a link that lasts the download's seven days.
    const mails = await waitFor(
      () => inbox(photographer.email),
      (found) => found.length > 0,
      10_000,
    );
    expect(mails).toHaveLength(1);
    const emailed = mails[0]!.body.text!.match(/Download it: (\S+)/)![1]!;
    const emailedUrl = new URL(emailed);
    expect(Number(emailedUrl.searchParams.get('X-Amz-Expires'))).toBeGreaterThan(6 * 24 * 60 * 60);
    expect(Number(emailedUrl.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(7 * 24 * 60 * 60);
    expect((await fetch(emailed)).status).toBe(200);
    // A redelivered message sends no second email.
    expect(await exportAccountData(photographer.uid)).toBe('already-sent');
    expect(await inbox(photographer.email)).toHaveLength(1);

    // Once its time has passed the page shows no link; a new request may start.
    await db()
      .dataExport.patch({ userId: photographer.uid })
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .go();
    expect(await exportOf(photographer)).toMatchObject({ status: 'expired', url: null });
    expect((await as(photographer).post('/api/account/data-export')).status).toBe(202);
  }, 60_000);

  it('reads an account of more than a thousand orders page by page, every order in the zip', async () => {
    const photographer = await aPhotographer();
    const count = 1_050;
    const now = Date.now();
    const base = await nextOrderNumber();
    const orders = Array.from({ length: count }, (_, i) => ({
      orderId: ulid(now - i * 1000),
      orderNumber: base * 10_000 + i,
      photographerId: photographer.uid,
      photographerName: 'Bulk Photographer',
      photographerSortName: 'bulk photographer',
      jobTypeId: 'hdr',
      jobTypeName: 'HDR',
      pricePerPhotoCents: 800,
      photoCount: 1,
      totalAmountCents: 800,
      status: 'pending_payment' as const,
      createdAt: new Date(now - i * 1000).toISOString(),
    }));
    // Written straight into the shared table, so the admin list's total of unassigned orders is
    // moved with them, as the order writes move it: the race tests hold it equal to the orders.
    for (let i = 0; i < orders.length; i += 25) {
      const batch = orders.slice(i, i + 25);
      await db().order.put(batch).go();
      await db()
        .counter.update({ scope: ORDERS_SCOPE, name: assignmentCounterName('unassigned') })
        .add({ value: batch.length })
        .go();
    }
    // The request as the route writes it, then the worker run directly (the queue's delivery is the other test's).
    await db()
      .dataExport.put({
        userId: photographer.uid,
        exportId: ulid(),
        status: 'preparing',
        requestedAt: new Date().toISOString(),
      })
      .go();
    expect(await exportAccountData(photographer.uid)).toBe('built');
    const record = await getDataExport(photographer.uid, { consistent: true });
    expect(record?.counts).toMatchObject({ orders: count, payments: 0 });
    const zip = await storage().send(
      new (await import('@aws-sdk/client-s3')).GetObjectCommand({ Bucket: bucket(), Key: record!.zipKey! }),
    );
    const entries = await unzipByName(Buffer.from(await zip.Body!.transformToByteArray()));
    const listed = json(entries, 'orders.json') as { orderId: string }[];
    expect(new Set(listed.map((o) => o.orderId)).size).toBe(count);
    expect(record!.zipKey).toBe(exportZipKey(photographer.uid, record!.exportId));
  }, 180_000);
});

describe("'Delete my account'", () => {
  const userRecord = async (uid: string) => (await db().user.get({ userId: uid }).go({ consistent: true })).data!;

  it('is refused without a recent sign-in, or without the typed confirmation, and writes nothing', async () => {
    const photographer = await aPhotographer();
    const before = await userRecord(photographer.uid);
    const stale = await as({ token: staleToken(photographer, 10 * 60) }).post('/api/account/delete', {
      confirmation: 'DELETE',
    });
    expect(stale.status).toBe(403);
    expect(stale.body.error).toBe('RECENT_SIGN_IN_REQUIRED');
    for (const confirmation of ['delete', 'DELETE ', '', 'yes']) {
      const wrong = await as(photographer).post('/api/account/delete', { confirmation });
      expect(wrong.status).toBe(400);
      expect(wrong.body.message).toMatch(/Type DELETE/);
    }
    expect((await as(photographer).post('/api/account/delete', {})).status).toBe(400);
    const after = await userRecord(photographer.uid);
    expect(after.updatedAt).toBe(before.updatedAt);
    expect(after.isActive).toBe(true);
    expect(await getAccountDeletion(photographer.uid)).toBeNull();
    expect(await activityKinds(photographer.uid)).not.toContain('account_deleted');
  });

  it('tells a photographer with an order in progress, and an editor holding claimed orders, what to finish first', async () => {
    const photographer = await aPhotographer();
    const editor = await anEditor();
    await anOrderInProgress(photographer, editor);
    const asPhotographer = await as(photographer).post('/api/account/delete', { confirmation: 'DELETE' });
    expect(asPhotographer.status).toBe(409);
    expect(asPhotographer.body.error).toBe(ORDERS_IN_PROGRESS);
    expect(asPhotographer.body.message).toMatch(/1 order in progress/);
    const asEditor = await as(editor).post('/api/account/delete', { confirmation: 'DELETE' });
    expect(asEditor.status).toBe(409);
    expect(asEditor.body.error).toBe(CLAIMED_ORDERS);
    expect(asEditor.body.message).toMatch(/1 claimed order/);
    expect((await userRecord(photographer.uid)).isActive).toBe(true);
    expect((await userRecord(editor.uid)).isActive).toBe(true);
    expect(await getAccountDeletion(editor.uid)).toBeNull();
  });

  it('soft-deletes as the admin does, turns sign-in off, and the purge after the retention clears the personal data; the other party keeps the order', async () => {
    const photographer = await aPhotographer({ displayName: 'Dana Deleted' });
    const editor = await anEditor();
    const order = await aCompletedOrder(photographer, editor);
    const pictureKey = `profiles/${photographer.uid}/image/${randomUUID()}.jpg`;
    // The picture's sizes are named by a hash outside the user's folder (domain/profile-pictures.ts).
    const pictureObjects = profilePictureObjects(pictureKey);
    for (const key of pictureObjects) await putObject(key);
    const zipKey = exportZipKey(photographer.uid, ulid());
    await putObject(zipKey);
    // A saved card at the Stripe fake, as a first payment that saved it leaves it.
    const customer = await createStripeCustomer({ userId: photographer.uid, email: photographer.email });
    await (await stripe()).paymentMethods.attach('pm_card_visa', { customer });
    expect(await savedCards(customer)).toHaveLength(1);
    await db()
      .user.patch({ userId: photographer.uid })
      .set({
        displayName: 'Dana Deleted',
        phone: '+15551234567',
        stripeCustomerId: customer,
        profileImageKey: pictureKey,
        editingStyle: { ...defaultEditingStyle, notes: 'Personal words' },
      })
      .go();
    expect((await db().userEmail.get({ email: photographer.email }).go({ consistent: true })).data?.userId).toBe(
      photographer.uid,
    );

    const deleted = await as(photographer).post('/api/account/delete', { confirmation: 'DELETE' });
    expect(deleted.status).toBe(200);
    const { deletedAt, purgeAfter } = deleted.body as { deletedAt: string; purgeAfter: string };
    expect(Date.parse(purgeAfter) - Date.parse(deletedAt)).toBeGreaterThanOrEqual(30 * 86_400_000 - 5_000);
    const soft = await userRecord(photographer.uid);
    expect(soft).toMatchObject({ isActive: false, displayName: 'Dana Deleted', email: photographer.email });
    expect(soft.deletedAt).toBeTruthy();
    expect(await activityKinds(photographer.uid)).toContain('account_deleted');
    // The API refuses the account at once; the identity worker turns its sign-in off.
    expect((await as(photographer).get('/api/auth/me')).status).toBe(403);
    const applied = await waitFor(
      () => userRecord(photographer.uid),
      (u) => !u.signInRequestedAt,
      15_000,
    );
    expect(applied.signInRequestedAt).toBeUndefined();
    await expect(signIn(photographer.email, 'test-password')).rejects.toThrow(/USER_DISABLED/);

    // Not due yet: nothing is removed.
    await purgeDueAccounts({ deletePrefix, deleteKeys, detachCards: async () => 0 }, new Date());
    expect((await userRecord(photographer.uid)).displayName).toBe('Dana Deleted');

    const summary = await purgeDueAccounts(purgeServices, new Date(Date.parse(purgeAfter) + 1000));
    expect(summary.purged).toBeGreaterThanOrEqual(1);
    const purged = await userRecord(photographer.uid);
    expect(purged.displayName).toBeUndefined();
    expect(purged.phone).toBeUndefined();
    expect(purged.stripeCustomerId).toBeUndefined();
    expect((purged as { editingStyle?: unknown }).editingStyle).toBeUndefined();
    expect(await savedCards(customer)).toEqual([]);
    expect(purged.email).toBe(purgedEmail(photographer.uid));
    expect(purged.isActive).toBe(false);
    expect((await db().userEmail.get({ email: photographer.email }).go({ consistent: true })).data).toBeNull();
    for (const key of pictureObjects) expect(await exists(key), key).toBe(false);
    expect(await exists(zipKey)).toBe(false);
    expect((await getAccountDeletion(photographer.uid))?.purgedAt).toBeTruthy();
    // The editor's order stays whole and readable.
    const seen = await as(editor).get(`/api/orders/${order.orderId}`);
    expect(seen.status).toBe(200);
    expect(seen.body.status ?? seen.body.order?.status).toBe('completed');
    // A second run finds nothing more to do.
    const again = await purgeDueAccounts(
      { deletePrefix, deleteKeys, detachCards: async () => 0 },
      new Date(Date.parse(purgeAfter) + 1000),
    );
    expect(again.failed).toBe(0);
  }, 60_000);
});
