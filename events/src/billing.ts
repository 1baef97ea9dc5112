import { timeZone } from './time-zone';
import * as z from './zod';

/**
 * A photographer's money with the marketplace: every payment and refund, newest first, each with
 * its PDF receipt, and a month of them as CSV. The browser and the API share these shapes.
 */
export const BILLING_PAGE_SIZE_DEFAULT = 20;
export const BILLING_PAGE_SIZE_MAX = 50;

export const billingHistoryQuery = /* @__PURE__ */ z.schema(() =>
  z.object({
    cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(500))),
    limit: z._default(
      z.coerce
        .number({ error: 'limit must be a whole number from 1 to 50' })
        .check(
          z.int('limit must be a whole number from 1 to 50'),
          z.minimum(1, 'limit must be a whole number from 1 to 50'),
          z.maximum(BILLING_PAGE_SIZE_MAX, 'limit must be a whole number from 1 to 50'),
        ),
      BILLING_PAGE_SIZE_DEFAULT,
    ),
  }),
);
export type BillingHistoryQuery = z.infer<typeof billingHistoryQuery>;

/** GET /api/billing/statement?month=2026-11&tz=Europe/Berlin: the month in the photographer's own time zone. */
export const billingStatementQuery = /* @__PURE__ */ z.schema(() =>
  z.object({
    month: z.string().check(z.regex(/^(20\d\d)-(0[1-9]|1[0-2])$/, 'month must be YYYY-MM, such as 2026-11')),
    tz: z._default(timeZone, 'UTC'),
  }),
);
export type BillingStatementQuery = z.infer<typeof billingStatementQuery>;

/** `{receiptId}` in a receipt route: a billing entry's ULID. */
export const receiptParams = /* @__PURE__ */ z.schema(() =>
  z.object({
    id: z.string().check(z.regex(/^[0-9A-Za-z]{10,40}$/, 'Not an order id')),
    receiptId: z.string().check(z.regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'Not a receipt id')),
  }),
);

export interface BillingEntryView {
  /** The receipt's id too. */
  id: string;
  kind: 'payment' | 'refund';
  orderId: string;
  orderNumber: number;
  orderName: string | null;
  jobTypeName: string;
  photoCount: number;
  /** Paid, or given back: always positive. */
  amountCents: number;
  occurredAt: string;
  cardBrand: string | null;
  cardLast4: string | null;
  /** Whether the PDF is made yet (the receipt worker makes it within seconds). */
  receiptReady: boolean;
}

export interface BillingHistoryView {
  entries: BillingEntryView[];
  /** For the next (older) page; null on the last. */
  nextCursor: string | null;
}

/** GET /api/orders/{id}/receipts: the order's payment and refund, oldest first. */
export interface OrderReceiptsView {
  receipts: BillingEntryView[];
}

/** GET /api/orders/{id}/receipts/{receiptId}: a short-lived link to the PDF, or not made yet. */
export type ReceiptLinkView = { status: 'ready'; url: string; filename: string } | { status: 'preparing' };

export interface BillingStatementView {
  filename: string;
  csv: string;
}

/** The PDF's name when downloaded: 'receipt-order-1042-01J….pdf', 'refund-order-1042-01J….pdf'. */
export const receiptFilename = (receipt: { kind: 'payment' | 'refund'; orderNumber: number; receiptNumber: string }) =>
  `${receipt.kind === 'refund' ? 'refund' : 'receipt'}-order-${receipt.orderNumber}-${receipt.receiptNumber}.pdf`;

export const billingMessages = {
  receiptPreparing: 'Your receipt is being prepared. Please try again in a moment.',
  receiptFailed: 'Failed to download the receipt',
  statementFailed: 'Failed to download the statement',
} as const;
