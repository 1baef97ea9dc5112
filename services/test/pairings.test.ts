import { editedPrefix, type OrderImageView, originalsPrefix } from '@marketplace/events/orders';
import { ulid } from 'ulid';
import { beforeAll, describe, expect, it } from 'vitest';
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
import { anEditor, aPhotographer, as, aUserWithRoles, db, type TestAccount, waitFor } from './support';

/** Which original each edited file belongs to: the name rule on the images route, and the editor's fix. */

const register = { size: 1000, lastModified: new Date().toISOString() };

/** An order written through the data layer: these originals, claimed by the editor, these edits, optionally completed. */
const anOrder = async (
  photographer: TestAccount,
  editor: TestAccount,
  { originals, edited, complete = true }: { originals: string[]; edited: string[]; complete?: boolean },
) => {
  const orderId = ulid();
  const paymentIntentId = `pi_test_${orderId}`;
  const created = await createOrder({
    orderId,
    orderNumber: await nextOrderNumber(),
    photographer: { userId: photographer.uid, name: 'Pat Photographer' },
    jobType: { jobTypeId: 'hdr', name: 'HDR', pricePerPhotoCents: 800 },
    input: { photoCount: originals.length },
    totalAmountCents: originals.length * 800,
    stripePaymentIntentId: paymentIntentId,
  });
  const keys: Record<string, string> = {};
  for (const [i, filename] of originals.entries()) {
    keys[filename] = `${originalsPrefix(orderId)}${i}-${filename}`;
    await registerOriginal({ order: created, key: keys[filename], filename, ...register });
  }
  await markOrderPaid({ orderId, paymentIntentId, amountCents: created.totalAmountCents, via: 'webhook' });
  const order = await claimOrder({
    orderId,
    editor: { userId: editor.uid, name: 'Eddie Editor', email: editor.email },
    rateCents: 50,
  });
  for (const filename of edited) {
    keys[filename] = `${editedPrefix(orderId)}${ulid()}-${filename}`;
    await registerEdited({ order, editorId: editor.uid, key: keys[filename], filename, ...register });
  }
  if (complete) await completeOrder({ orderId, editorId: editor.uid });
  return { orderId, keys };
};

const imagesOf = async (account: TestAccount, orderId: string) => {
  const response = await as(account).get(`/api/orders/${orderId}/images`);
  expect(response.status).toBe(200);
  return response.body.images as OrderImageView[];
};

const pairingOf = (images: OrderImageView[], key: string) => {
  const image = images.find((candidate) => candidate.key === key);
  return image && { pairedOriginalKey: image.pairedOriginalKey, pairedBy: image.pairedBy };
};

const pair = (account: TestAccount, orderId: string, body: unknown) =>
  as(account).patch(`/api/orders/${orderId}/pairings`, body);

const pairedEvents = async (orderId: string) =>
  (await db().orderEvent.query.byOrder({ orderId }).go()).data.filter((e) => e.eventType === 'edited_image_paired');

describe('pairing edited files with their originals', () => {
  let photographer: TestAccount;
  let editor: TestAccount;
  let stranger: TestAccount;
  let admin: TestAccount;
  beforeAll(async () => {
    [photographer, editor, stranger, admin] = await Promise.all([
      aPhotographer(),
      anEditor(),
      anEditor(),
      aUserWithRoles(['admin']),
    ]);
  });

  it('pairs by the file-name rule on the images route, for the photographer, the editor and the admin', async () => {
    const { orderId, keys } = await anOrder(photographer, editor, {
      originals: ['IMG_0012.CR2', 'IMG_0013.CR2', 'IMG_0013.JPG'],
      edited: ['IMG_0012_edited.jpg', 'IMG_0013-final.jpg', 'living-room.jpg'],
    });
    for (const viewer of [photographer, editor, admin]) {
      const images = await imagesOf(viewer, orderId);
      expect(pairingOf(images, keys['IMG_0012_edited.jpg']!)).toEqual({
        pairedOriginalKey: keys['IMG_0012.CR2'],
        pairedBy: 'rule',
      });
      // Two originals share the base name: the one of the edit's own family (JPEG) wins.
      expect(pairingOf(images, keys['IMG_0013-final.jpg']!)).toEqual({
        pairedOriginalKey: keys['IMG_0013.JPG'],
        pairedBy: 'rule',
      });
      expect(pairingOf(images, keys['living-room.jpg']!)).toEqual({ pairedOriginalKey: null, pairedBy: null });
      // Originals carry no pairing.
      expect(pairingOf(images, keys['IMG_0012.CR2']!)).toEqual({ pairedOriginalKey: null, pairedBy: null });
    }
  });

  it("keeps the editor's fix and its 'no original' over the rule, each with its event", async () => {
    const { orderId, keys } = await anOrder(photographer, editor, {
      originals: ['IMG_0012.CR2', 'IMG_0013.CR2'],
      edited: ['IMG_0012_edited.jpg', 'living-room.jpg'],
    });

    const fixed = await pair(editor, orderId, {
      editedKey: keys['living-room.jpg'],
      originalKey: keys['IMG_0013.CR2'],
    });
    expect(fixed.status).toBe(200);
    expect(fixed.body.image).toMatchObject({
      key: keys['living-room.jpg'],
      pairedOriginalKey: keys['IMG_0013.CR2'],
      pairedBy: 'editor',
    });

    const none = await pair(editor, orderId, { editedKey: keys['IMG_0012_edited.jpg'], originalKey: null });
    expect(none.status).toBe(200);
    expect(none.body.image).toMatchObject({ pairedOriginalKey: null, pairedBy: 'editor' });

    const images = await imagesOf(photographer, orderId);
    expect(pairingOf(images, keys['living-room.jpg']!)).toEqual({
      pairedOriginalKey: keys['IMG_0013.CR2'],
      pairedBy: 'editor',
    });
    // The rule would pair it with IMG_0012.CR2; the editor said it has no original.
    expect(pairingOf(images, keys['IMG_0012_edited.jpg']!)).toEqual({ pairedOriginalKey: null, pairedBy: 'editor' });

    const events = await waitFor(
      () => pairedEvents(orderId),
      (found) => found.length >= 2,
    );
    expect(events.map((e) => e.metadata)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ editedKey: keys['living-room.jpg'], originalKey: keys['IMG_0013.CR2'] }),
        expect.objectContaining({ editedKey: keys['IMG_0012_edited.jpg'], originalKey: null }),
      ]),
    );
    expect(events.map((e) => e.actorId)).toEqual([editor.uid, editor.uid]);

    // The editor may pair again later, back to an original.
    const again = await pair(editor, orderId, {
      editedKey: keys['IMG_0012_edited.jpg'],
      originalKey: keys['IMG_0012.CR2'],
    });
    expect(again.body.image).toMatchObject({ pairedOriginalKey: keys['IMG_0012.CR2'], pairedBy: 'editor' });
  });

  it('lets the editor fix a pairing while the order is still in progress', async () => {
    const { orderId, keys } = await anOrder(photographer, editor, {
      originals: ['a.CR2', 'b.CR2'],
      edited: ['b_edited.jpg'],
      complete: false,
    });
    const fixed = await pair(editor, orderId, { editedKey: keys['b_edited.jpg'], originalKey: keys['a.CR2'] });
    expect(fixed.status).toBe(200);
    expect((await getOrder(orderId))?.status).toBe('in_progress');
  });

  it('refuses anyone but the order editor, and bad keys, writing nothing', async () => {
    const { orderId, keys } = await anOrder(photographer, editor, {
      originals: ['IMG_0012.CR2', 'IMG_0013.CR2'],
      edited: ['IMG_0012_edited.jpg'],
    });
    const other = await anOrder(photographer, editor, { originals: ['IMG_0012.CR2'], edited: ['x.jpg'] });
    const editedKey = keys['IMG_0012_edited.jpg']!;
    const valid = { editedKey, originalKey: keys['IMG_0013.CR2'] };

    const strangerAnswer = await pair(stranger, orderId, valid);
    expect(strangerAnswer.status).toBe(404);
    expect(strangerAnswer.body.message).toBe('Order not found');
    expect((await pair(photographer, orderId, valid)).status).toBe(403);
    // The admin views pairings (above) but does not change them.
    expect((await pair(admin, orderId, valid)).status).toBe(403);

    const badBodies = [
      { editedKey: `${editedPrefix(orderId)}nope.jpg`, originalKey: keys['IMG_0013.CR2'] },
      // An original is not an edited file, and an edited file is not an original.
      { editedKey: keys['IMG_0012.CR2'], originalKey: keys['IMG_0013.CR2'] },
      { editedKey, originalKey: editedKey },
      // Another order's files.
      { editedKey, originalKey: other.keys['IMG_0012.CR2'] },
      { editedKey: other.keys['x.jpg'], originalKey: null },
    ];
    for (const body of badBodies) {
      const answer = await pair(editor, orderId, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.message).toMatch(/^This is not an? (edited file|original) of this order$/);
    }
    const malformed = await pair(editor, orderId, { editedKey });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toBe('VALIDATION_FAILED');

    const record = (await db().orderImage.get({ orderId, kind: 'edited', key: editedKey }).go()).data;
    expect(record?.pairedBy).toBeUndefined();
    expect(record?.pairedOriginalKey).toBeUndefined();
    expect(pairingOf(await imagesOf(editor, orderId), editedKey)).toEqual({
      pairedOriginalKey: keys['IMG_0012.CR2'],
      pairedBy: 'rule',
    });

    // One good change afterwards: its event is the only pairing event the order has.
    expect((await pair(editor, orderId, valid)).status).toBe(200);
    const events = await waitFor(
      () => pairedEvents(orderId),
      (found) => found.length >= 1,
    );
    expect(events).toHaveLength(1);
  });
});
