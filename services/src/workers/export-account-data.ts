import { Readable } from 'node:stream';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { DATA_EXPORT_LINK_DAYS } from '@marketplace/events/account-data';
import { sendEmail } from '../adapters/email';
import { logger } from '../adapters/logger';
import { photosBucket, s3 } from '../adapters/s3';
import { GET_OBJECT_QUERY, presignedUrl } from '../adapters/s3-requests';
import { storedZip, ZIP_PART_BYTES, ZIP_PARTS_IN_FLIGHT, type ZipEntryInput } from '../adapters/zip-archive';
import { attachmentDisposition } from '../adapters/zip-downloads';
import { config } from '../config';
import {
  billingEntryPages,
  cleanRecord,
  earningPages,
  editorOrderPages,
  feedbackPages,
  type OrderRef,
  orderEventPages,
  orderImagePages,
  orderPaymentPages,
  orderShareLinkPages,
  photographerOrderPages,
  securityActivityPages,
} from '../data/account-records';
import {
  DATA_EXPORT_LINK_SECONDS,
  type DataExportRecord,
  dataExportLink,
  exportZipKey,
  getDataExport,
  markDataExportEmailed,
  markDataExportFailed,
  markDataExportReady,
} from '../data/data-exports';
import { getUser, type UserRecord } from '../data/users';
import { dataExportEmail } from '../domain/data-export-email';
import { outboxConsumer } from './outbox-message';

/**
 * 'Download my data' (docs/decisions/0106): the outbox's data_export_requested, forwarded by the
 * event-log worker, has this worker gather the account's records into a zip under exports/ and
 * email a link to it. The records are read a page at a time by the account's own keys
 * (data/account-records.ts) and streamed into the zip as they are read, one JSON file per kind,
 * as the photo zips are streamed (zip-archive.ts): memory stays at a page and a few upload parts
 * however many orders the account has. Photos are links (presigned GETs), not bytes. A redelivered
 * message finds the request ready and only sends the email if it has not gone out.
 */

type Json = Record<string, unknown>;

/** A zip entry whose bytes are produced as it is written; its size is counted as they go by. */
const streamedEntry = (name: string, produce: () => AsyncIterable<string>): ZipEntryInput => {
  const entry: ZipEntryInput = {
    name,
    // storedZip compares the bytes read with `size` once the entry is read: it is counted meanwhile.
    size: 0,
    lastModified: new Date(),
    open: async () =>
      (async function* () {
        for await (const text of produce()) {
          const bytes = Buffer.from(text, 'utf8');
          entry.size += bytes.length;
          yield bytes;
        }
      })(),
  };
  return entry;
};

/** A JSON array written a page at a time: `[`, the rows, `]`. */
async function* jsonArray(rows: AsyncIterable<Json[]>, count: (n: number) => void): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const page of rows) {
    count(page.length);
    const text = page.map((row) => `\n  ${JSON.stringify(row)}`).join(',');
    yield first ? text : `,${text}`;
    first = false;
  }
  yield first ? ']\n' : '\n]\n';
}

/** The rows of each order in turn (events, payments, ...), each row naming its order. */
async function* perOrder(
  orders: readonly OrderRef[],
  pages: (order: OrderRef) => AsyncIterable<Json[]> | null,
  map: (row: Json, order: OrderRef) => Json | Promise<Json> = (row) => row,
): AsyncGenerator<Json[]> {
  for (const order of orders) {
    const rows = pages(order);
    if (!rows) continue;
    for await (const page of rows) yield await Promise.all(page.map((row) => map(row, order)));
  }
}

async function* mapped(pages: AsyncIterable<Json[]>, map: (row: Json) => Json): AsyncGenerator<Json[]> {
  for await (const page of pages) yield page.map(map);
}

/** Links to an account's photos last as long as the download does. */
const photoLink = (key: string, filename: string) =>
  presignedUrl({
    method: 'GET',
    key,
    query: { ...GET_OBJECT_QUERY, 'response-content-disposition': attachmentDisposition(filename) },
    expiresIn: DATA_EXPORT_LINK_SECONDS,
  });

const profileOf = (user: UserRecord) => cleanRecord(user as unknown as Json);

const readme = (user: UserRecord, record: DataExportRecord, now: Date) =>
  [
    'Your data from PhotoEdit Marketplace',
    '====================================',
    '',
    `Account: ${user.email}`,
    `Requested: ${record.requestedAt}`,
    `Made: ${now.toISOString()}`,
    '',
    'Each file holds one kind of record, as JSON (UTF-8). Times are UTC (ISO 8601); money is in',
    'cents of the currency named beside it.',
    '',
    '  profile.json           your account: name, email, roles, standing, editing style, when it was made',
    '  orders.json            orders you placed (photographer) or edited (editor)',
    '  order-events.json      each step of those orders: who did what, when',
    '  payments.json          the card payments of your orders and their refunds',
    '  billing-entries.json   your billing history: each payment and refund with its receipt number',
    '  share-links.json       the links you made to share orders (the links themselves are not kept)',
    '  photos.json            every photo of your orders, with a link to download it',
    '  feedback.json          feedback you sent us, and our notes back',
    "  earnings.json          an editor's earnings per order and their payout state",
    '  security-activity.json  password, email and sign-in changes, downloads and deletion requests',
    '',
    `The photo links and the link to this file work for ${DATA_EXPORT_LINK_DAYS} days; after that, ask`,
    'again on your profile page (Security, Download my data).',
    '',
  ].join('\n');

const readmeEntry = (text: string): ZipEntryInput => {
  const bytes = Buffer.from(text, 'utf8');
  return {
    name: 'README.txt',
    size: bytes.length,
    lastModified: new Date(),
    open: async () =>
      (async function* () {
        yield bytes;
      })(),
  };
};

/** Every order the account took part in, as a list of ids (a few bytes each), read a page at a time. */
const ordersOf = async (user: UserRecord) => {
  const orders: OrderRef[] = [];
  for await (const page of photographerOrderPages(user.userId)) {
    for (const row of page) orders.push({ orderId: String(row.orderId), as: 'photographer' });
  }
  const own = new Set(orders.map((o) => o.orderId));
  for await (const page of editorOrderPages(user.userId)) {
    for (const row of page)
      if (!own.has(String(row.orderId))) orders.push({ orderId: String(row.orderId), as: 'editor' });
  }
  return orders;
};

/** The zip's entries, each read from the table only when the writer reaches it. */
const entriesFor = (
  user: UserRecord,
  record: DataExportRecord,
  orders: readonly OrderRef[],
  counts: Record<string, number>,
) => {
  const counter = (kind: string) => (n: number) => {
    counts[kind] = (counts[kind] ?? 0) + n;
  };
  const file = (kind: string, rows: () => AsyncIterable<Json[]>) =>
    streamedEntry(`${kind}.json`, () => {
      counts[kind] = 0;
      return jsonArray(rows(), counter(kind));
    });
  const photographerOnly = (order: OrderRef, pages: (id: string) => AsyncIterable<Json[]>) =>
    order.as === 'photographer' ? pages(order.orderId) : null;
  return [
    readmeEntry(readme(user, record, new Date())),
    streamedEntry('profile.json', async function* () {
      yield `${JSON.stringify(profileOf(user), null, 2)}\n`;
    }),
    file('orders', async function* () {
      const ownRows = mapped(photographerOrderPages(user.userId), (row) => ({
        ...cleanRecord(row),
        yourRole: 'photographer',
      }));
      for await (const page of ownRows) yield page;
      for await (const page of editorOrderPages(user.userId)) {
        const edited = page.filter((row) => row.photographerId !== user.userId);
        if (edited.length) yield edited.map((row) => ({ ...cleanRecord(row), yourRole: 'editor' }));
      }
    }),
    file('order-events', () =>
      perOrder(
        orders,
        (order) => orderEventPages(order.orderId),
        (row) => cleanRecord(row),
      ),
    ),
    file('payments', () =>
      perOrder(
        orders,
        (order) => photographerOnly(order, orderPaymentPages),
        (row) => cleanRecord(row),
      ),
    ),
    file('billing-entries', () => mapped(billingEntryPages(user.userId), (row) => cleanRecord(row))),
    file('share-links', () =>
      perOrder(
        orders,
        (order) => photographerOnly(order, orderShareLinkPages),
        (row) => cleanRecord(row),
      ),
    ),
    file('photos', () =>
      perOrder(
        orders,
        (order) => orderImagePages(order.orderId),
        async (row) => ({
          orderId: row.orderId,
          kind: row.kind,
          filename: row.filename,
          size: row.size,
          uploadedAt: row.lastModified,
          url: await photoLink(String(row.key), String(row.filename)),
        }),
      ),
    ),
    file('feedback', () => mapped(feedbackPages(user.userId), (row) => cleanRecord(row))),
    file('earnings', () => mapped(earningPages(user.userId), (row) => cleanRecord(row))),
    file('security-activity', () => mapped(securityActivityPages(user.userId), (row) => cleanRecord(row))),
  ];
};

/** Streams the zip into S3 (a multipart upload that becomes an object only once complete). */
const writeExportZip = async (key: string, entries: ZipEntryInput[]) => {
  const client = s3();
  const body = Readable.from(storedZip(entries), { objectMode: false });
  const upload = new Upload({
    client,
    params: { Bucket: photosBucket(), Key: key, Body: body, ContentType: 'application/zip' },
    partSize: ZIP_PART_BYTES,
    queueSize: ZIP_PARTS_IN_FLIGHT,
    leavePartsOnError: false,
  });
  try {
    await upload.done();
  } finally {
    body.destroy();
  }
  const head = await client.send(new HeadObjectCommand({ Bucket: photosBucket(), Key: key }));
  return head.ContentLength ?? 0;
};

export const exportAccountData = async (userId: string, now = new Date()) => {
  const record = await getDataExport(userId, { consistent: true });
  if (!record) return 'no-request' as const;
  const user = await getUser(userId, { consistent: true });
  if (!user) return 'no-user' as const;
  let ready: DataExportRecord | null = record;
  if (record.status === 'failed') return 'failed-before' as const;
  if (record.status === 'preparing') {
    const counts: Record<string, number> = {};
    const zipKey = exportZipKey(userId, record.exportId);
    try {
      const orders = await ordersOf(user);
      const sizeBytes = await writeExportZip(zipKey, entriesFor(user, record, orders, counts));
      ready = await markDataExportReady(record, { zipKey, sizeBytes, counts, now });
    } catch (error) {
      await markDataExportFailed(record, (error as Error)?.message ?? String(error));
      throw error;
    }
    if (!ready) return 'replaced' as const;
  }
  if (ready.emailedAt) return 'already-sent' as const;
  // The email always goes out: it is what tells the account its data is ready.
  const remaining = Math.max(60, Math.floor((Date.parse(ready.expiresAt ?? '') - Date.now()) / 1000) || 0);
  const url = await dataExportLink(ready, Math.min(remaining, DATA_EXPORT_LINK_SECONDS));
  await sendEmail({
    to: user.email,
    ...dataExportEmail({
      displayName: user.displayName ?? null,
      url,
      expiresAt: ready.expiresAt ?? '',
      sizeBytes: ready.sizeBytes ?? 0,
      profileUrl: `${config().SITE_URL.replace(/\/$/, '')}/profile`,
    }),
  });
  await markDataExportEmailed(ready);
  return record.status === 'preparing' ? ('built' as const) : ('emailed' as const);
};

export const handler = outboxConsumer('exporting account data', {
  user: async (event) => {
    if (event.eventType !== 'data_export_requested') return;
    const outcome = await exportAccountData(event.userId);
    logger.info('data export handled', { userId: event.userId, eventId: event.eventId, outcome });
  },
});
