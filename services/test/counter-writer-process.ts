import { randomBytes, randomUUID } from 'node:crypto';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { editedPrefix } from '@marketplace/events/orders';
import { s3 } from '../src/adapters/s3';
import { claimOrder, completeOrder, getOrder, registerEdited } from '../src/data/orders';

/**
 * An editor's work on paid orders (claim, deliver a file, complete), one transaction at a time,
 * in a process of its own so a test can kill it between any two writes and then run it again
 * from the start, as a caller retrying would. Each committed write is reported on stdout; what
 * is already done is skipped, as the routes' own checks do.
 *
 *   node --import tsx services/test/counter-writer-process.ts <editor id> <order id>...
 */
const [editorId, ...orderIds] = process.argv.slice(2);
if (!editorId || !orderIds.length) throw new Error('usage: counter-writer-process.ts <editor id> <order id>...');

const editor = { userId: editorId, name: 'Kim Killed', email: `${editorId}@example.test` };

for (const orderId of orderIds) {
  let order = (await getOrder(orderId))!;
  if (order.status === 'paid') {
    await claimOrder({ orderId, editor, rateCents: 40, current: order });
    console.log(`claimed ${orderId}`);
    order = (await getOrder(orderId))!;
  }
  if (order.status === 'in_progress' && order.editorUploadCount < 1) {
    const key = `${editedPrefix(orderId)}${randomUUID()}-room.jpg`;
    const bytes = randomBytes(300);
    await s3().send(new PutObjectCommand({ Bucket: process.env.PHOTOS_BUCKET!, Key: key, Body: bytes }));
    await registerEdited({
      order,
      editorId,
      key,
      filename: 'room.jpg',
      size: bytes.length,
      lastModified: new Date().toISOString(),
    });
    console.log(`delivered ${orderId}`);
    order = (await getOrder(orderId))!;
  }
  if (order.status === 'in_progress') {
    await completeOrder({ orderId, editorId });
    console.log(`completed ${orderId}`);
  }
}
