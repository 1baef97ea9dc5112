import type { OrderEventMessage } from '@marketplace/events/order-events';
import { tierOf } from '@marketplace/events/turnaround';
import { logger } from '../adapters/logger';
import { putObject } from '../adapters/s3-requests';
import { type BillingEntryRecord, getBillingEntry, orderBillingEntries, recordReceipt } from '../data/billing';
import { getOrder } from '../data/orders';
import { receiptPdf } from '../domain/receipt-pdf';
import { orderEventConsumer } from './outbox-message';

/** Receipts live under their own prefix of the photos bucket: the only place this worker may write. */
export const RECEIPTS_PREFIX = 'receipts/';

export const receiptKeyFor = (entry: Pick<BillingEntryRecord, 'photographerId' | 'orderId' | 'entryId'>) =>
  `${RECEIPTS_PREFIX}${entry.photographerId}/${entry.orderId}/${entry.entryId}.pdf`;

/** Refunds of the order up to and including this entry's. */
const refundedBy = async (entry: BillingEntryRecord) =>
  entry.kind === 'refund'
    ? (await orderBillingEntries(entry.orderId))
        .filter((other) => other.kind === 'refund' && other.entryId <= entry.entryId)
        .reduce((sum, other) => sum + other.amountCents, 0)
    : 0;

/**
 * The PDF receipt of a payment (order_paid) or a refund (order_refunded), from the billing entry
 * the same transaction wrote (the event names it). A redelivered event finds the receipt made and
 * does nothing; two deliveries at once put the same bytes at the same key, and one records it.
 */
export const makeReceiptOnce = async (event: OrderEventMessage) => {
  if (event.eventType !== 'order_paid' && event.eventType !== 'order_refunded') return 'not-a-payment' as const;
  const entryId = typeof event.metadata.entryId === 'string' ? event.metadata.entryId : undefined;
  const order = await getOrder(event.orderId);
  if (!entryId || !order) {
    // A payment recorded before billing entries existed has none to print.
    logger.warn('no billing entry for a receipt', { eventId: event.eventId, orderId: event.orderId });
    return 'no-entry' as const;
  }
  const entry = await getBillingEntry(order.photographerId, entryId);
  if (!entry) {
    logger.warn('billing entry not found for a receipt', { eventId: event.eventId, entryId });
    return 'no-entry' as const;
  }
  if (entry.receiptKey) return 'made-before' as const;
  const pdf = await receiptPdf({
    kind: entry.kind,
    receiptNumber: entry.entryId,
    orderNumber: entry.orderNumber,
    orderName: entry.orderName ?? null,
    jobTypeName: entry.jobTypeName,
    photoCount: entry.photoCount,
    pricePerPhotoCents: entry.pricePerPhotoCents,
    addOns: entry.addOns ?? [],
    orderTotalCents: entry.orderTotalCents,
    amountCents: entry.amountCents,
    refundedCents: await refundedBy(entry),
    occurredAt: entry.occurredAt,
    cardBrand: entry.cardBrand ?? null,
    cardLast4: entry.cardLast4 ?? null,
    creditNote: entry.creditNote ?? null,
    surcharge: entry.surchargePerPhotoCents
      ? { tier: tierOf(entry.turnaroundTier), perPhotoCents: entry.surchargePerPhotoCents }
      : null,
  });
  const key = receiptKeyFor(entry);
  await putObject({ key, body: pdf, contentType: 'application/pdf' });
  const recorded = await recordReceipt(entry, key);
  logger.info('receipt made', { orderId: entry.orderId, entryId, kind: entry.kind, bytes: pdf.length, recorded });
  return 'made' as const;
};

export const handler = orderEventConsumer('making a receipt', makeReceiptOnce);
