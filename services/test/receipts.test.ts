import { HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { OrderReceiptsView, ReceiptLinkView } from '@marketplace/events/billing';
import type { CreateOrderResponse } from '@marketplace/events/orders';
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { LOCAL_STRIPE_PUBLISHABLE_KEY } from '../local/stack';
import { getBillingEntry } from '../src/data/billing';
import { getOrder, registerOriginal } from '../src/data/orders';
import { receiptPdf } from '../src/domain/receipt-pdf';
import { handler, receiptKeyFor } from '../src/workers/make-receipts';
import { pdfText } from './pdf-text';
import {
  aPhotographer,
  as,
  aUserWithRoles,
  db,
  outboxStreamRecord,
  sqsEvent,
  type TestAccount,
  waitFor,
} from './support';

const storage = () => new S3Client({ region: 'us-east-1', endpoint: process.env.S3_ENDPOINT, forcePathStyle: true });
const bucket = () => process.env.PHOTOS_BUCKET!;

/** An order of two HDR photos named '12 Oak Street', paid by card through the API as the browser pays it. */
const aPaidOrder = async (photographer: TestAccount, name = '12 Oak Street') => {
  const created = (await as(photographer).post('/api/orders', { jobTypeId: 'hdr', photoCount: 2, name }))
    .body as CreateOrderResponse;
  for (let i = 0; i < 2; i++) {
    await registerOriginal({
      order: (await getOrder(created.order.id))!,
      key: `orders/${created.order.id}/originals/photo-${i}.jpg`,
      filename: `photo-${i}.jpg`,
      size: 1000,
      contentType: 'image/jpeg',
      lastModified: new Date().toISOString(),
    });
  }
  const confirmed = await fetch(
    `${process.env.STRIPE_API_URL}/v1/payment_intents/${created.order.stripePaymentIntentId}/confirm`,
    {
      method: 'POST',
      headers: {
        authorization: `Bearer ${LOCAL_STRIPE_PUBLISHABLE_KEY}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ payment_method: 'pm_card_visa', client_secret: created.stripeClientSecret }),
    },
  );
  expect(confirmed.status).toBe(200);
  const paid = await as(photographer).post(`/api/orders/${created.order.id}/payment-success`, {
    paymentIntentId: created.order.stripePaymentIntentId,
  });
  expect(paid.status).toBe(200);
  return created.order;
};

const receiptsOf = async (photographer: TestAccount, orderId: string) =>
  ((await as(photographer).get(`/api/orders/${orderId}/receipts`)).body as OrderReceiptsView).receipts;

/** The order's receipts once the worker has made this many. */
const readyReceipts = (photographer: TestAccount, orderId: string, count: number) =>
  waitFor(
    () => receiptsOf(photographer, orderId),
    (receipts) => receipts.length === count && receipts.every((r) => r.receiptReady),
    20_000,
  );

/** 'Download receipt': the link, then the PDF's bytes from storage. */
const downloadReceipt = async (photographer: TestAccount, orderId: string, receiptId: string) => {
  const link = await as(photographer).get(`/api/orders/${orderId}/receipts/${receiptId}`);
  expect(link.status).toBe(200);
  const view = link.body as ReceiptLinkView;
  if (view.status !== 'ready') throw new Error('receipt not ready');
  const response = await fetch(view.url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-disposition')).toContain(view.filename);
  return { filename: view.filename, bytes: new Uint8Array(await response.arrayBuffer()) };
};

describe('receipts', () => {
  it('makes a PDF receipt of a payment with every fact the photographer needs', async () => {
    const photographer = await aPhotographer();
    const order = await aPaidOrder(photographer);

    const [receipt] = await readyReceipts(photographer, order.id, 1);
    const { filename, bytes } = await downloadReceipt(photographer, order.id, receipt!.id);
    const { pages, text } = await pdfText(bytes);

    expect(receipt).toMatchObject({ kind: 'payment', amountCents: 1600, cardBrand: 'visa', cardLast4: '4242' });
    expect(filename).toBe(`receipt-order-${order.orderNumber}-${receipt!.id}.pdf`);
    expect(pages).toBe(1);
    for (const fact of [
      'PhotoEdit Marketplace',
      'Receipt',
      `#${order.orderNumber}`,
      '12 Oak Street',
      'HDR',
      'Distinct photos',
      '$8.00',
      'Order total',
      '$16.00',
      'Amount paid',
      'Visa ending in 4242',
      new Date(receipt!.occurredAt).getUTCFullYear().toString(),
    ]) {
      expect(text, fact).toContain(fact);
    }
  });

  it('makes the receipt once however often its event is delivered', async () => {
    const photographer = await aPhotographer();
    const order = await aPaidOrder(photographer);
    const [receipt] = await readyReceipts(photographer, order.id, 1);
    const entry = (await getBillingEntry(photographer.uid, receipt!.id))!;
    const key = receiptKeyFor(entry);
    const before = await storage().send(new HeadObjectCommand({ Bucket: bucket(), Key: key }));
    const paidEvent = ((await db().orderEvent.query.byOrder({ orderId: order.id }).go()).data as never[]).find(
      (e: { eventType: string }) => e.eventType === 'order_paid',
    )!;
    const redelivered = JSON.stringify(outboxStreamRecord(paidEvent));

    const answers = [
      await handler(sqsEvent('receipts', [redelivered, redelivered])),
      await handler(sqsEvent('receipts', [redelivered])),
    ];

    expect(answers).toEqual([{ batchItemFailures: [] }, { batchItemFailures: [] }]);
    const after = await storage().send(new HeadObjectCommand({ Bucket: bucket(), Key: key }));
    expect(after.ETag).toBe(before.ETag);
    expect(after.LastModified).toEqual(before.LastModified);
    const listed = await storage().send(
      new ListObjectsV2Command({ Bucket: bucket(), Prefix: `receipts/${photographer.uid}/${order.id}/` }),
    );
    expect(listed.Contents?.map((o) => o.Key)).toEqual([key]);
    expect((await getBillingEntry(photographer.uid, receipt!.id))?.receiptMadeAt).toBe(entry.receiptMadeAt);
  });

  it('makes a refund receipt when an admin cancels a paid order', async () => {
    const photographer = await aPhotographer();
    const admin = await aUserWithRoles(['admin']);
    const order = await aPaidOrder(photographer, 'Harbor View');
    expect((await as(admin).post(`/api/orders/admin/${order.id}/cancel`)).status).toBe(200);

    const receipts = await readyReceipts(photographer, order.id, 2);
    const refund = receipts.find((r) => r.kind === 'refund')!;
    const { filename, bytes } = await downloadReceipt(photographer, order.id, refund.id);
    const { text } = await pdfText(bytes);

    expect(refund).toMatchObject({ amountCents: 1600, cardLast4: '4242' });
    expect(filename).toBe(`refund-order-${order.orderNumber}-${refund.id}.pdf`);
    for (const fact of [
      'Refund receipt',
      'Harbor View',
      'Refunded',
      '$16.00',
      'Net paid',
      '$0.00',
      'Visa ending in 4242',
    ]) {
      expect(text, fact).toContain(fact);
    }
    const events = (await db().orderEvent.query.byOrder({ orderId: order.id }).go()).data as { eventType: string }[];
    expect(events.filter((e) => e.eventType === 'order_refunded')).toHaveLength(1);
  });

  it("hands out a receipt link for the caller's own receipt only", async () => {
    const [owner, stranger] = await Promise.all([aPhotographer(), aPhotographer()]);
    const [order, other] = [await aPaidOrder(owner), await aPaidOrder(owner)];
    const [receipt] = await readyReceipts(owner, order.id, 1);

    const byStranger = await as(stranger).get(`/api/orders/${order.id}/receipts/${receipt!.id}`);
    const listedByStranger = await as(stranger).get(`/api/orders/${order.id}/receipts`);
    const onAnotherOrder = await as(owner).get(`/api/orders/${other.id}/receipts/${receipt!.id}`);
    const unknown = await as(owner).get(`/api/orders/${order.id}/receipts/${ulid()}`);
    const malformed = await as(owner).get(`/api/orders/${order.id}/receipts/not-a-receipt`);

    expect([byStranger.status, listedByStranger.status, onAnotherOrder.status, unknown.status]).toEqual([
      404, 404, 404, 404,
    ]);
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toBe('VALIDATION_FAILED');
  });

  it("lists the order's add-ons, each × its photos", async () => {
    const bytes = await receiptPdf({
      kind: 'payment',
      receiptNumber: ulid(),
      orderNumber: 8,
      jobTypeName: 'HDR',
      photoCount: 3,
      pricePerPhotoCents: 800,
      addOns: [
        { name: 'Virtual staging', photoCount: 2, pricePerPhotoCents: 2400 },
        { name: 'Sky replacement', photoCount: 1, pricePerPhotoCents: 200 },
      ],
      orderTotalCents: 7400,
      amountCents: 7400,
      refundedCents: 0,
      occurredAt: '2026-11-02T10:00:00.000Z',
    });
    const { text } = await pdfText(bytes);
    expect(text).toContain('Virtual staging');
    expect(text).toContain('2 × $24.00 = $48.00');
    expect(text).toContain('1 × $2.00 = $2.00');
    expect(text).toContain('$74.00');
  });

  it('prints an order name in another script as question marks rather than failing', async () => {
    const bytes = await receiptPdf({
      kind: 'payment',
      receiptNumber: ulid(),
      orderNumber: 7,
      orderName: 'Villa 海景 =SUM(A1)',
      jobTypeName: 'HDR',
      photoCount: 1,
      pricePerPhotoCents: 800,
      orderTotalCents: 800,
      amountCents: 800,
      refundedCents: 0,
      occurredAt: '2026-11-02T10:00:00.000Z',
    });
    const { text } = await pdfText(bytes);
    expect(text).toContain('Villa ?? =SUM(A1)');
    expect(text).toContain('Paid with');
    expect(text).toContain('Card');
  });
});
