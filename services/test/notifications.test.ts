import { randomBytes, randomUUID } from 'node:crypto';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { OrderEventType } from '@marketplace/events/order-events';
import { editedPrefix } from '@marketplace/events/orders';
import { ulid } from 'ulid';
import { beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '../src/config';
import { setEditorRate } from '../src/data/editor-rates';
import { notificationMark, takeMark } from '../src/data/notification-marks';
import {
  claimOrder,
  completeOrder,
  createOrder,
  getOrder,
  markOrderPaid,
  nextOrderNumber,
  type OrderRecord,
  registerEdited,
} from '../src/data/orders';
import { outboxRecord } from '../src/data/transactions';
import { handler } from '../src/workers/send-notifications';
import { as, aUserWithRoles, db, outboxStreamRecord, sqsEvent, type TestAccount, waitFor } from './support';

/** One email as the SES stand-in keeps it (GET /store). */
interface StoredEmail {
  destination: { to: string[] };
  subject: string;
  body: { text?: string; html?: string };
}

const inbox = async (to: string) => {
  const response = await fetch(`${process.env.SES_ENDPOINT}/store`);
  const { emails } = (await response.json()) as { emails: StoredEmail[] };
  return emails.filter((e) => e.destination.to.includes(to));
};

/** The emails to this address whose subject names this order. */
const mailsAbout = async (to: string, orderNumber: number) =>
  (await inbox(to)).filter((e) => e.subject.includes(`#${orderNumber}`));

const siteUrl = () => process.env.SITE_URL!;
const storage = () => new S3Client({ region: 'us-east-1', endpoint: process.env.S3_ENDPOINT, forcePathStyle: true });

let photographer: TestAccount;
let editor: TestAccount;
let admin: TestAccount;

beforeAll(async () => {
  [photographer, editor, admin] = await Promise.all([
    aUserWithRoles(['photographer'], { displayName: 'Pat Photographer' }),
    aUserWithRoles(['editor'], { displayName: 'Eddie Editor' }),
    aUserWithRoles(['admin'], { displayName: 'Ada Admin' }),
  ]);
});

/** An order made through the data layer; paid (its order_paid event in the outbox) unless told not to. */
const anOrder = async ({ paid = true, photoCount = 3 } = {}) => {
  const orderId = ulid();
  const order = await createOrder({
    orderId,
    orderNumber: await nextOrderNumber(),
    photographer: { userId: photographer.uid, name: 'Pat Photographer' },
    jobType: { jobTypeId: 'hdr', name: 'HDR', pricePerPhotoCents: 800 },
    input: { photoCount, name: 'Kitchen & <Lounge>', editingRequirements: 'Bright windows, "true" whites.' },
    totalAmountCents: photoCount * 800,
    stripePaymentIntentId: `pi_test_${orderId}`,
  });
  if (paid) {
    await markOrderPaid({
      orderId,
      paymentIntentId: `pi_test_${orderId}`,
      amountCents: order.totalAmountCents,
      via: 'client',
    });
  }
  return (await getOrder(orderId))!;
};

const claim = (orderId: string) =>
  claimOrder({ orderId, editor: { userId: editor.uid, name: 'Eddie Editor', email: editor.email }, rateCents: 50 });

const anEditedFile = async (order: OrderRecord) => {
  const key = `${editedPrefix(order.orderId)}${randomUUID()}-room-edited.jpg`;
  const bytes = randomBytes(300);
  await storage().send(new PutObjectCommand({ Bucket: process.env.PHOTOS_BUCKET!, Key: key, Body: bytes }));
  await registerEdited({
    order: (await getOrder(order.orderId))!,
    editorId: editor.uid,
    key,
    filename: 'room-edited.jpg',
    size: bytes.length,
    lastModified: new Date().toISOString(),
  });
  return key;
};

/** The id of the order's latest event of this type, once the event log has stored it. */
const eventIdOf = async (orderId: string, eventType: OrderEventType) => {
  const events = await waitFor(
    async () => (await db().orderEvent.query.byOrder({ orderId }).go()).data,
    (found) => found.some((e) => e.eventType === eventType),
  );
  const event = events.filter((e) => e.eventType === eventType).at(-1);
  if (!event) throw new Error(`no ${eventType} event for order ${orderId}`);
  return event.eventId;
};

/** The outbox record of an event as the table's stream carries it (what the event log forwards). */
const streamRecordOf = async (eventId: string) => {
  const { data } = await db().outboxEvent.get({ eventId }).go();
  if (!data) throw new Error(`no outbox record ${eventId}`);
  return streamRecord(data);
};

const streamRecord = (item: Record<string, unknown>) => JSON.stringify(outboxStreamRecord(item));

/** A stream record of an event that never went through the outbox, for deliveries of our own. */
const syntheticRecord = (orderId: string, eventType: OrderEventType, metadata: Record<string, unknown> = {}) =>
  streamRecord(outboxRecord({ orderId, eventType, description: `test ${eventType}`, metadata }));

const deliver = (...bodies: string[]) =>
  handler(sqsEvent('notifications', bodies)) as Promise<{
    batchItemFailures: { itemIdentifier: string }[];
  }>;

/** Waits for the one email the stack's own delivery sends, then checks its parts. */
const theEmail = async (to: string, orderNumber: number, subject: string) => {
  const mails = await waitFor(
    () => mailsAbout(to, orderNumber),
    (found) => found.some((m) => m.subject === subject),
  );
  const matching = mails.filter((m) => m.subject === subject);
  expect(matching).toHaveLength(1);
  return matching[0]!;
};

/** The record delivered three more times one after another, then three times at once: still one email. */
const redeliverAndExpectOne = async (eventId: string, to: string, orderNumber: number, subject: string) => {
  const record = await streamRecordOf(eventId);
  for (let i = 0; i < 3; i += 1) expect((await deliver(record)).batchItemFailures).toEqual([]);
  const together = await Promise.all([deliver(record), deliver(record), deliver(record)]);
  for (const result of together) expect(result.batchItemFailures).toEqual([]);
  expect((await mailsAbout(to, orderNumber)).filter((m) => m.subject === subject)).toHaveLength(1);
  expect(await notificationMark(eventId)).toMatchObject({ state: 'done' });
};

const expectInBoth = (mail: StoredEmail, facts: string[]) => {
  for (const fact of facts) {
    expect(mail.body.text, fact).toContain(fact);
    expect(mail.body.html, fact).toContain(fact);
  }
};

describe('each order event mails the right person once', () => {
  let order: OrderRecord;
  let editedKey: string;

  it('order_paid: a receipt to the photographer', async () => {
    order = await anOrder();
    const subject = `Receipt for order #${order.orderNumber}: $24.00 paid`;
    const mail = await theEmail(photographer.email, order.orderNumber, subject);
    expectInBoth(mail, [
      `#${order.orderNumber}`,
      'HDR',
      '$8.00',
      '$24.00',
      `${siteUrl()}/orders/${order.orderId}`,
      `You are receiving this because you placed order #${order.orderNumber} on PhotoEdit Marketplace.`,
    ]);
    expect(mail.body.text).toContain('Photos: 3');
    expect(mail.body.text).toContain('Kitchen & <Lounge>');
    expect(mail.body.html).toContain('Kitchen &amp; &lt;Lounge&gt;');
    expect(mail.body.html).not.toContain('<Lounge>');
    const due = new Date(order.dueAt!).toLocaleString('en-US', { month: 'long', day: 'numeric', timeZone: 'UTC' });
    expectInBoth(mail, [due]);
    await redeliverAndExpectOne(
      await eventIdOf(order.orderId, 'order_paid'),
      photographer.email,
      order.orderNumber,
      subject,
    );
  });

  it("order_claimed: the photographer hears the editor's name", async () => {
    await claim(order.orderId);
    const subject = `Order #${order.orderNumber}: Eddie Editor has started editing`;
    const mail = await theEmail(photographer.email, order.orderNumber, subject);
    expectInBoth(mail, ['Eddie Editor', `${siteUrl()}/orders/${order.orderId}`, 'because you placed order']);
    await redeliverAndExpectOne(
      await eventIdOf(order.orderId, 'order_claimed'),
      photographer.email,
      order.orderNumber,
      subject,
    );
  });

  it('order_completed: the photographer gets a link to download the edited photos', async () => {
    editedKey = await anEditedFile(order);
    await completeOrder({ orderId: order.orderId, editorId: editor.uid });
    const subject = `Order #${order.orderNumber}: your edited photos are ready`;
    const mail = await theEmail(photographer.email, order.orderNumber, subject);
    expectInBoth(mail, [`${siteUrl()}/orders/${order.orderId}`, 'download', 'because you placed order']);
    await redeliverAndExpectOne(
      await eventIdOf(order.orderId, 'order_completed'),
      photographer.email,
      order.orderNumber,
      subject,
    );
  });

  it('revision_requested: the editor gets the round, the note and the number of photo notes', async () => {
    const response = await as(photographer).post(`/api/orders/${order.orderId}/revisions`, {
      note: 'Sky is <too> blue & flat',
      photoNotes: [{ key: editedKey, note: 'Straighten the verticals' }],
    });
    expect(response.status).toBe(201);
    const subject = `Order #${order.orderNumber}: revision 1 requested`;
    const mail = await theEmail(editor.email, order.orderNumber, subject);
    expectInBoth(mail, [
      'revision round 1',
      'notes on 1 photo',
      `${siteUrl()}/editor/orders/${order.orderId}`,
      `You are receiving this because you are the editor of order #${order.orderNumber}`,
    ]);
    expect(mail.body.text).toContain('Sky is <too> blue & flat');
    expect(mail.body.html).toContain('Sky is &lt;too&gt; blue &amp; flat');
    await redeliverAndExpectOne(
      await eventIdOf(order.orderId, 'revision_requested'),
      editor.email,
      order.orderNumber,
      subject,
    );
  });

  it('a re-delivered revision round tells the photographer so', async () => {
    await anEditedFile(order);
    await completeOrder({ orderId: order.orderId, editorId: editor.uid });
    const subject = `Order #${order.orderNumber}: your revised photos are ready (revision 1)`;
    const mail = await theEmail(photographer.email, order.orderNumber, subject);
    expectInBoth(mail, ['revision round 1', `${siteUrl()}/orders/${order.orderId}`]);
    // The first delivery's email is still the only one of its kind.
    const ready = await mailsAbout(photographer.email, order.orderNumber);
    expect(ready.filter((m) => m.subject.endsWith('your edited photos are ready'))).toHaveLength(1);
  });

  it('order_assigned: the editor hears of the order, its photos, requirements and earnings', async () => {
    const assigned = await anOrder({ photoCount: 2 });
    await setEditorRate({ editorId: editor.uid, jobTypeId: 'hdr', ratePerPhotoCents: 123 });
    const response = await as(admin).patch(`/api/orders/admin/${assigned.orderId}/assign`, { editorId: editor.uid });
    expect(response.status).toBe(200);
    const subject = `Order #${assigned.orderNumber} has been assigned to you`;
    const mail = await theEmail(editor.email, assigned.orderNumber, subject);
    expectInBoth(mail, [
      `An admin assigned order #${assigned.orderNumber} to you`,
      '$2.46',
      `${siteUrl()}/editor`,
      'because you are the editor of order',
    ]);
    expect(mail.body.text).toContain('Photos: 2');
    expect(mail.body.text).toContain('Bright windows, "true" whites.');
    expect(mail.body.html).toContain('Bright windows, &quot;true&quot; whites.');
    await redeliverAndExpectOne(
      await eventIdOf(assigned.orderId, 'order_assigned'),
      editor.email,
      assigned.orderNumber,
      subject,
    );
  });
});

describe('exactly once, however the event arrives', () => {
  it('sends one email for an event delivered three times at once and twice in one batch', async () => {
    const order = await anOrder({ paid: false });
    const record = syntheticRecord(order.orderId, 'order_paid');
    const results = await Promise.all([deliver(record), deliver(record), deliver(record, record)]);
    for (const result of results) expect(result.batchItemFailures).toEqual([]);
    expect(await mailsAbout(photographer.email, order.orderNumber)).toHaveLength(1);
  });

  it('leaves no mark when SES refuses, so the retry sends the email once', async () => {
    const order = await anOrder({ paid: false });
    const record = syntheticRecord(order.orderId, 'order_paid');
    const eventId = JSON.parse(record).dynamodb.NewImage.eventId.S as string;
    const sesEndpoint = process.env.SES_ENDPOINT;
    // Nothing listens on port 9: SES is unreachable.
    process.env.SES_ENDPOINT = 'http://127.0.0.1:9';
    resetConfig();
    const failed = sqsEvent('notifications', [record]);
    const result = await handler(failed).finally(() => {
      process.env.SES_ENDPOINT = sesEndpoint;
      resetConfig();
    });
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: failed.Records[0]!.messageId }] });
    expect(await notificationMark(eventId)).toBeNull();
    expect(await mailsAbout(photographer.email, order.orderNumber)).toHaveLength(0);

    expect((await deliver(record)).batchItemFailures).toEqual([]);
    expect(await notificationMark(eventId)).toMatchObject({ state: 'done' });
    expect(await deliver(record)).toEqual({ batchItemFailures: [] });
    expect(await mailsAbout(photographer.email, order.orderNumber)).toHaveLength(1);
  });

  it('leaves an event to the delivery holding a live lease, and takes over one whose lease ran out', async () => {
    const order = await anOrder({ paid: false });
    const held = syntheticRecord(order.orderId, 'order_paid');
    const heldId = JSON.parse(held).dynamodb.NewImage.eventId.S as string;
    expect(await takeMark(heldId)).toMatchObject({ taken: true });
    expect((await deliver(held)).batchItemFailures).toEqual([]);
    expect(await mailsAbout(photographer.email, order.orderNumber)).toHaveLength(0);
    expect(await notificationMark(heldId)).toMatchObject({ state: 'in-progress' });

    const abandoned = syntheticRecord(order.orderId, 'order_paid');
    const abandonedId = JSON.parse(abandoned).dynamodb.NewImage.eventId.S as string;
    // A delivery that took the mark an hour ago and never finished.
    expect(await takeMark(abandonedId, Date.now() - 60 * 60 * 1000)).toMatchObject({ taken: true });
    expect((await deliver(abandoned)).batchItemFailures).toEqual([]);
    expect(await notificationMark(abandonedId)).toMatchObject({ state: 'done' });
    expect(await mailsAbout(photographer.email, order.orderNumber)).toHaveLength(1);
  });

  it('drops an event of an order that does not exist instead of retrying it forever', async () => {
    const record = syntheticRecord(ulid(), 'order_paid');
    const eventId = JSON.parse(record).dynamodb.NewImage.eventId.S as string;
    expect(await deliver(record)).toEqual({ batchItemFailures: [] });
    expect(await notificationMark(eventId)).toBeNull();
  });
});
