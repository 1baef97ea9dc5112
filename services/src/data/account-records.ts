import { marketplace } from './entities';

/**
 * What 'Download my data' gathers, read by the account's own partitions and indexes a page at a
 * time (never a Scan): the orders by the photographer's index (gsi1) and the editor's (gsi4), each
 * order's events, payments, share links and photos by the order's own keys, the billing entries
 * by the photographer's partition, feedback, earnings and security activity by the user's index.
 * Each reader is an async generator of one DynamoDB page after another, so an account with
 * thousands of orders is read in pages of a fixed size and written out as it is read.
 */
export const RECORD_PAGE_SIZE = 100;

type Page = { data: unknown[]; cursor: string | null };
type ReadPage = (options: { cursor: string | null; limit: number }) => Promise<Page>;

/** Each page of a query until the partition ends. */
export async function* pagesOf<Row>(read: ReadPage): AsyncGenerator<Row[]> {
  let cursor: string | null = null;
  do {
    const page: Page = await read({ cursor, limit: RECORD_PAGE_SIZE });
    if (page.data.length) yield page.data as Row[];
    cursor = page.cursor;
  } while (cursor);
}

const e = () => marketplace().entities;

/** Attributes no reader of the download needs: index marks and denormalized keys of our own. */
const INTERNAL = new Set([
  'isEditor',
  'isAdmin',
  'signInRequestedAt',
  'pool',
  'poolPartition',
  'assignment',
  'photographerSortName',
  'searchText',
  'hasRequirements',
  'tokenHash',
  'purgeQueue',
  'expiresAt',
]);

/** A record as the download shows it: our internal keys and marks left out. */
export const cleanRecord = <Row extends Record<string, unknown>>(row: Row, keep: readonly string[] = []) =>
  Object.fromEntries(Object.entries(row).filter(([key]) => keep.includes(key) || !INTERNAL.has(key)));

export interface OrderRef {
  orderId: string;
  /** How the account took part: its own order (photographer), or one it edited. */
  as: 'photographer' | 'editor';
}

export const photographerOrderPages = (photographerId: string) =>
  pagesOf<Record<string, unknown>>((o) => e().order.query.byPhotographer({ photographerId }).go(o));

export const editorOrderPages = (editorId: string) =>
  pagesOf<Record<string, unknown>>((o) => e().order.query.byEditor({ editorId }).go(o));

export const orderEventPages = (orderId: string) =>
  pagesOf<Record<string, unknown>>((o) => e().orderEvent.query.byOrder({ orderId }).go(o));

export const orderPaymentPages = (orderId: string) =>
  pagesOf<Record<string, unknown>>((o) => e().payment.query.byOrder({ orderId }).go(o));

export const orderShareLinkPages = (orderId: string) =>
  pagesOf<Record<string, unknown>>((o) => e().shareLink.query.byOrder({ orderId }).go(o));

export const orderImagePages = (orderId: string) =>
  pagesOf<Record<string, unknown>>((o) => e().orderImage.query.byOrder({ orderId }).go(o));

export const billingEntryPages = (photographerId: string) =>
  pagesOf<Record<string, unknown>>((o) => e().billingEntry.query.byPhotographer({ photographerId }).go(o));

export const feedbackPages = (userId: string) =>
  pagesOf<Record<string, unknown>>((o) => e().feedback.query.byUser({ userId }).go(o));

export const earningPages = (editorId: string) =>
  pagesOf<Record<string, unknown>>((o) => e().earning.query.byEditor({ editorId }).go(o));

export const securityActivityPages = (userId: string) =>
  pagesOf<Record<string, unknown>>((o) => e().securityActivity.query.byUser({ userId }).go(o));
