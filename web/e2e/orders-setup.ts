import { PutObjectCommand } from '@aws-sdk/client-s3';
import { editedPrefix, originalsPrefix } from '@marketplace/events/orders';
import { ulid } from 'ulid';
import yauzl from 'yauzl';
import { photosBucket, s3 } from '../../services/src/adapters/s3';
import {
  claimOrder,
  completeOrder,
  createOrder,
  markOrderPaid,
  nextOrderNumber,
  registerEdited,
  registerOriginal,
} from '../../services/src/data/orders';
import { aPhotographer, type TestAccount } from '../../services/test/support';

/** The password the shared test builders give every account they create. */
export const testAccountPassword = 'test-password';

/** A photographer with an account at the auth emulator and a marketplace record. */
export const aSignedUpPhotographer = async (displayName: string) => ({
  ...(await aPhotographer({ displayName })),
  displayName,
});

const hdr = { jobTypeId: 'hdr', name: 'HDR', pricePerPhotoCents: 800 };

export interface FileToUpload {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** An original as the photographer's upload leaves it: the object in S3, then its record (and event). */
export const storeOriginal = async (order: Parameters<typeof registerOriginal>[0]['order'], file: FileToUpload) => {
  const key = `${originalsPrefix(order.orderId)}${ulid()}-${file.name}`;
  await s3().send(
    new PutObjectCommand({ Bucket: photosBucket(), Key: key, Body: file.buffer, ContentType: file.mimeType }),
  );
  await registerOriginal({
    order,
    key,
    filename: file.name,
    size: file.buffer.length,
    contentType: file.mimeType,
    lastModified: new Date().toISOString(),
  });
};

/**
 * An order that has gone all the way through, written through the data layer as the routes
 * would: created, originals registered, paid, claimed by an editor, edited files in S3 and
 * registered, completed.
 */
export async function aCompletedOrder({
  photographer,
  name,
  editedFiles,
  originalFiles,
  editor = { userId: `e2e-editor-${ulid()}`, name: 'Eden Editor', email: 'eden.editor@example.com' },
}: {
  photographer: TestAccount & { displayName: string };
  name: string;
  editedFiles: { name: string; mimeType: string; buffer: Buffer }[];
  /** Originals put in S3 under these names; by default `original-{n}.jpg` records with no object. */
  originalFiles?: { name: string; mimeType: string; buffer: Buffer }[];
  /** Who claims and completes it; by default an editor with no account. */
  editor?: { userId: string; name: string; email: string };
}) {
  const photoCount = Math.max(editedFiles.length, originalFiles?.length ?? 0, 1);
  const orderId = ulid();
  const paymentIntentId = `pi_e2e_${orderId}`;
  let order = await createOrder({
    orderId,
    orderNumber: await nextOrderNumber(),
    photographer: { userId: photographer.uid, name: photographer.displayName },
    jobType: hdr,
    input: { name, photoCount },
    totalAmountCents: photoCount * hdr.pricePerPhotoCents,
    stripePaymentIntentId: paymentIntentId,
  });
  for (const file of originalFiles ?? []) await storeOriginal(order, file);
  for (let i = 0; i < (originalFiles ? 0 : photoCount); i++) {
    const key = `${originalsPrefix(orderId)}${ulid()}-original-${i + 1}.jpg`;
    await registerOriginal({
      order,
      key,
      filename: `original-${i + 1}.jpg`,
      size: 1024,
      lastModified: new Date().toISOString(),
    });
  }
  await markOrderPaid({ orderId, paymentIntentId, amountCents: order.totalAmountCents, via: 'client' });

  order = await claimOrder({ orderId, editor, rateCents: 250 });
  for (const file of editedFiles) {
    const key = `${editedPrefix(orderId)}${file.name}`;
    await s3().send(
      new PutObjectCommand({ Bucket: photosBucket(), Key: key, Body: file.buffer, ContentType: file.mimeType }),
    );
    await registerEdited({
      order,
      editorId: editor.userId,
      key,
      filename: file.name,
      size: file.buffer.length,
      contentType: file.mimeType,
      lastModified: new Date().toISOString(),
    });
  }
  await completeOrder({
    orderId,
    editorId: editor.userId,
    editorNotes: 'Brightened the interiors and fixed the verticals.',
  });
  return { orderId, name };
}

/** The names of the entries in a zip file; fails if the file is not a readable zip. */
export const zipEntryNames = (file: string) =>
  new Promise<string[]>((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('not a zip'));
      const names: string[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!entry.fileName.endsWith('/')) names.push(entry.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
