import type { BillingEntryView } from '@marketplace/events/billing';
import * as z from '@marketplace/events/zod';
import { encodeTime, ulid } from 'ulid';
import { isConditionFailure } from './conditional-write';
import { getRecord, models, query, queryAll } from './direct-reads';
import { writers } from './direct-writes';
import type { OrderRecord } from './orders';
import { decodePageCursor, encodePageCursor } from './page-cursors';
import type { counterAdd } from './transactions';

/**
 * The photographer's billing entries: a payment or a refund each, written in the transaction that
 * records the money (so each exists exactly once), listed newest first, a month at a time for the
 * CSV, and given its PDF receipt by the receipt worker.
 */
export interface CardFacts {
  brand: string;
  last4: string;
}

export interface BillingEntryRecord {
  photographerId: string;
  entryId: string;
  kind: 'payment' | 'refund';
  orderId: string;
  orderNumber: number;
  orderName?: string;
  jobTypeName: string;
  photoCount: number;
  pricePerPhotoCents: number;
  addOns?: { name: string; photoCount: number; pricePerPhotoCents: number }[];
  orderTotalCents: number;
  amountCents: number;
  currency: string;
  paymentIntentId: string;
  refundId?: string;
  cardBrand?: string;
  cardLast4?: string;
  /** A late-delivery credit's words ('Delivered 3 h late: $2.40 credited'); absent on other entries. */
  creditNote?: string;
  /** The order's tier surcharge per photo (payments of Express and Rush orders). */
  surchargePerPhotoCents?: number;
  turnaroundTier?: string;
  occurredAt: string;
  receiptKey?: string;
  receiptMadeAt?: string;
}

/** The entities as a transaction's builder sees them. */
type Entities = Parameters<typeof counterAdd>[0];

/** A new entry's id: a ULID of the moment the money moved, so ids sort by time. */
export const newEntryId = (at: Date) => ulid(at.getTime());

/** The entry to create in the transaction that records a payment or a refund. */
export const billingEntryWrite = (
  e: Entities,
  order: Pick<
    OrderRecord,
    | 'orderId'
    | 'orderNumber'
    | 'name'
    | 'photographerId'
    | 'jobTypeName'
    | 'photoCount'
    | 'pricePerPhotoCents'
    | 'turnaroundTier'
    | 'surchargePerPhotoCents'
  > & { totalAmountCents: number; addOns?: OrderRecord['addOns'] },
  entry: {
    entryId: string;
    kind: 'payment' | 'refund';
    amountCents: number;
    paymentIntentId: string;
    refundId?: string;
    card?: CardFacts | null;
    occurredAt: Date;
    creditNote?: string;
  },
) =>
  e.billingEntry
    .create({
      photographerId: order.photographerId,
      entryId: entry.entryId,
      kind: entry.kind,
      orderId: order.orderId,
      orderNumber: order.orderNumber,
      ...(order.name?.trim() ? { orderName: order.name.trim() } : {}),
      jobTypeName: order.jobTypeName,
      photoCount: order.photoCount,
      pricePerPhotoCents: order.pricePerPhotoCents,
      ...(order.addOns?.length
        ? {
            addOns: order.addOns.map(({ name, photoCount, pricePerPhotoCents }) => ({
              name,
              photoCount,
              pricePerPhotoCents,
            })),
          }
        : {}),
      orderTotalCents: order.totalAmountCents,
      amountCents: entry.amountCents,
      currency: 'usd',
      paymentIntentId: entry.paymentIntentId,
      ...(entry.refundId ? { refundId: entry.refundId } : {}),
      ...(entry.card ? { cardBrand: entry.card.brand, cardLast4: entry.card.last4 } : {}),
      ...(entry.creditNote ? { creditNote: entry.creditNote } : {}),
      ...(order.surchargePerPhotoCents
        ? { surchargePerPhotoCents: order.surchargePerPhotoCents, turnaroundTier: order.turnaroundTier ?? 'standard' }
        : {}),
      occurredAt: entry.occurredAt.toISOString(),
    })
    .commit();

export const toBillingEntryView = (entry: BillingEntryRecord): BillingEntryView => ({
  id: entry.entryId,
  kind: entry.kind,
  orderId: entry.orderId,
  orderNumber: entry.orderNumber,
  orderName: entry.orderName ?? null,
  jobTypeName: entry.jobTypeName,
  photoCount: entry.photoCount,
  amountCents: entry.amountCents,
  occurredAt: entry.occurredAt,
  cardBrand: entry.cardBrand ?? null,
  cardLast4: entry.cardLast4 ?? null,
  receiptReady: Boolean(entry.receiptKey),
});

export const getBillingEntry = async (photographerId: string, entryId: string) => {
  return getRecord<BillingEntryRecord>(models.billingEntry, { photographerId, entryId }, { consistent: true });
};

/** An order's entries (a payment, and a refund when it was cancelled after payment), oldest first. */
export const orderBillingEntries = async (orderId: string) => {
  return queryAll<BillingEntryRecord>(models.billingEntry, 'byOrder', { orderId });
};

const historyCursor = z.object({ entryId: z.string().check(z.regex(/^[0-9A-HJKMNP-TV-Z]{26}$/)) });

/** One page of the photographer's history, newest first: a Query of their partition from the cursor on. */
export const billingHistoryPage = async (
  photographerId: string,
  { cursor, limit }: { cursor?: string; limit: number },
) => {
  const after = cursor ? decodePageCursor(cursor, historyCursor).entryId : null;
  const entries = query<BillingEntryRecord>(models.billingEntry, 'byPhotographer', { photographerId });
  const { data: rows } = await (after ? entries.lt({ entryId: after }) : entries).go({
    order: 'desc',
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    entries: page,
    nextCursor: rows.length > limit && last ? encodePageCursor({ entryId: last.entryId }) : null,
  };
};

/** A month can hold no more entries than this in one statement (a photographer paying every few minutes). */
const MONTH_ENTRIES_MAX = 5000;

/** The entries from `from` (inclusive) to `to` (exclusive), oldest first: a BETWEEN of the instants' ULIDs. */
export const billingEntriesBetween = async (photographerId: string, from: Date, to: Date) => {
  const lowest = `${encodeTime(from.getTime(), 10)}${'0'.repeat(16)}`;
  const highest = `${encodeTime(to.getTime() - 1, 10)}${'Z'.repeat(16)}`;
  const { data } = await query<BillingEntryRecord>(models.billingEntry, 'byPhotographer', { photographerId })
    .between({ entryId: lowest }, { entryId: highest })
    .go({ pages: 'all', limit: MONTH_ENTRIES_MAX });
  return data;
};

/** The receipt worker's mark: the PDF is at this key. Once; a second delivery finds it made. */
export const recordReceipt = async (entry: BillingEntryRecord, receiptKey: string) => {
  try {
    await writers()
      .billingEntry.patch({ photographerId: entry.photographerId, entryId: entry.entryId })
      .set({ receiptKey, receiptMadeAt: new Date().toISOString() })
      .where(({ receiptKey: made }, { notExists }) => notExists(made))
      .go();
    return 'recorded' as const;
  } catch (error) {
    if (isConditionFailure(error)) return 'recorded-before' as const;
    throw error;
  }
};
