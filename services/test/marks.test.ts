import {
  FREEHAND_POINTS_MAX,
  MARK_NOTE_MAX,
  MARKS_PER_ORDER_MAX,
  MARKS_PER_PHOTO_MAX,
  type OrderMarksView,
} from '@marketplace/events/marks';
import { editedPrefix, originalsPrefix } from '@marketplace/events/orders';
import { ulid } from 'ulid';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  claimOrder,
  completeOrder,
  createOrder,
  markOrderPaid,
  nextOrderNumber,
  registerEdited,
  registerOriginal,
} from '../src/data/orders';
import { anEditor, aPhotographer, as, db, type TestAccount, waitFor } from './support';

/** Marks on the photos: the photographer draws them, the order's editor ticks them done, hostile shapes write nothing. */

const register = { size: 1000, lastModified: new Date().toISOString() };

/** A paid order (not claimed) with these many originals registered. */
const aPaidOrder = async (photographer: TestAccount, photos: number) => {
  const orderId = ulid();
  const paymentIntentId = `pi_test_${orderId}`;
  const created = await createOrder({
    orderId,
    orderNumber: await nextOrderNumber(),
    photographer: { userId: photographer.uid, name: 'Pat Photographer' },
    jobType: { jobTypeId: 'hdr', name: 'HDR', pricePerPhotoCents: 800 },
    input: { photoCount: photos },
    totalAmountCents: photos * 800,
    stripePaymentIntentId: paymentIntentId,
  });
  const keys: string[] = [];
  for (let i = 0; i < photos; i++) {
    const key = `${originalsPrefix(orderId)}${i}-room-${i}.jpg`;
    await registerOriginal({ order: created, key, filename: `room-${i}.jpg`, ...register });
    keys.push(key);
  }
  await markOrderPaid({ orderId, paymentIntentId, amountCents: created.totalAmountCents, via: 'webhook' });
  return { orderId, keys };
};

const rect = (id: string, note = 'Remove the bin') => ({
  id,
  kind: 'rect',
  points: [
    { x: 0.1, y: 0.2 },
    { x: 0.4, y: 0.5 },
  ],
  note,
});

const marksOf = async (account: TestAccount, orderId: string) => {
  const response = await as(account).get(`/api/orders/${orderId}/marks`);
  expect(response.status).toBe(200);
  return response.body as OrderMarksView;
};

const markEvents = async (orderId: string) =>
  (await db().orderEvent.query.byOrder({ orderId }).go()).data.filter((e) =>
    ['marks_saved', 'mark_ticked'].includes(e.eventType),
  );

const storedMarks = async (orderId: string) =>
  (await db().orderImageMarks.query.byOrder({ orderId }).go({ pages: 'all' })).data;

describe('marks on the photos', () => {
  let photographer: TestAccount;
  let otherPhotographer: TestAccount;
  let editor: TestAccount;
  let otherEditor: TestAccount;
  beforeAll(async () => {
    [photographer, otherPhotographer, editor, otherEditor] = await Promise.all([
      aPhotographer(),
      aPhotographer(),
      anEditor(),
      anEditor(),
    ]);
  });

  it('saves a photo’s marks relative to the image, and answers them to whoever sees the order', async () => {
    const { orderId, keys } = await aPaidOrder(photographer, 2);
    const arrow = {
      id: 'a1',
      kind: 'arrow',
      points: [
        { x: 0, y: 1 },
        { x: 1, y: 0 },
      ],
      note: '  Straighten this wall  ',
    };
    const freehand = {
      id: 'f1',
      kind: 'freehand',
      points: Array.from({ length: 5 }, (_, i) => ({ x: i / 10, y: 0.5 })),
    };
    const saved = await as(photographer).put(`/api/orders/${orderId}/marks`, {
      key: keys[0],
      marks: [rect('r1'), arrow, freehand],
    });
    expect(saved.status).toBe(200);
    const view = await marksOf(photographer, orderId);
    expect(view.photos).toHaveLength(1);
    expect(view.photos[0]!.key).toBe(keys[0]);
    expect(view.photos[0]!.marks.map((m) => [m.id, m.kind, m.note, m.done, m.round])).toEqual([
      ['r1', 'rect', 'Remove the bin', false, 0],
      ['a1', 'arrow', 'Straighten this wall', false, 0],
      ['f1', 'freehand', '', false, 0],
    ]);
    expect(view.photos[0]!.marks[1]!.points).toEqual(arrow.points);
    // The editor the order is offered to (it is open) sees them too; another photographer does not.
    expect((await marksOf(editor, orderId)).photos[0]!.marks).toHaveLength(3);
    expect((await as(otherPhotographer).get(`/api/orders/${orderId}/marks`)).status).toBe(404);
    // Saving no marks clears the photo.
    expect((await as(photographer).put(`/api/orders/${orderId}/marks`, { key: keys[0], marks: [] })).status).toBe(200);
    expect((await marksOf(photographer, orderId)).photos).toEqual([]);
  });

  it('refuses hostile shapes with a clear 400 and writes nothing', async () => {
    const { orderId, keys } = await aPaidOrder(photographer, 1);
    const key = keys[0]!;
    const hostile: [string, unknown][] = [
      [
        'x beyond the photo',
        {
          key,
          marks: [
            {
              ...rect('h'),
              points: [
                { x: 1.01, y: 0 },
                { x: 0, y: 0 },
              ],
            },
          ],
        },
      ],
      [
        'negative y',
        {
          key,
          marks: [
            {
              ...rect('h'),
              points: [
                { x: 0, y: -0.1 },
                { x: 0, y: 0 },
              ],
            },
          ],
        },
      ],
      [
        'a number as text',
        {
          key,
          marks: [
            {
              ...rect('h'),
              points: [
                { x: '0.5', y: 0 },
                { x: 0, y: 0 },
              ],
            },
          ],
        },
      ],
      ['an unknown kind', { key, marks: [{ ...rect('h'), kind: 'polygon' }] }],
      [
        'a rectangle of three points',
        {
          key,
          marks: [
            {
              ...rect('h'),
              points: [
                { x: 0, y: 0 },
                { x: 0.1, y: 0 },
                { x: 0, y: 0.1 },
              ],
            },
          ],
        },
      ],
      ['one point', { key, marks: [{ ...rect('h'), points: [{ x: 0, y: 0 }] }] }],
      [
        'too long a freehand line',
        {
          key,
          marks: [
            {
              id: 'f',
              kind: 'freehand',
              points: Array.from({ length: FREEHAND_POINTS_MAX + 1 }, () => ({ x: 0, y: 0 })),
            },
          ],
        },
      ],
      ['too long a note', { key, marks: [rect('h', 'x'.repeat(MARK_NOTE_MAX + 1))] }],
      ['too many marks', { key, marks: Array.from({ length: MARKS_PER_PHOTO_MAX + 1 }, (_, i) => rect(`m${i}`)) }],
      ['thousands of marks', { key, marks: Array.from({ length: 5000 }, (_, i) => rect(`m${i}`)) }],
      ['the same id twice', { key, marks: [rect('same'), rect('same')] }],
      ['a bad id', { key, marks: [rect('<script>')] }],
      ['a photo of another order', { key: `${originalsPrefix(ulid())}0-room.jpg`, marks: [rect('h')] }],
      ['no photo', { marks: [rect('h')] }],
    ];
    for (const [what, body] of hostile) {
      const response = await as(photographer).put(`/api/orders/${orderId}/marks`, body);
      expect(response.status, what).toBe(400);
      expect(typeof response.body.message, what).toBe('string');
    }
    expect(await storedMarks(orderId)).toEqual([]);
    expect(await markEvents(orderId)).toEqual([]);
  });

  it('bounds the marks of a whole order', async () => {
    const photos = MARKS_PER_ORDER_MAX / MARKS_PER_PHOTO_MAX + 1;
    const { orderId, keys } = await aPaidOrder(photographer, photos);
    const full = Array.from({ length: MARKS_PER_PHOTO_MAX }, (_, i) => rect(`m${i}`));
    for (const key of keys.slice(0, -1)) {
      expect((await as(photographer).put(`/api/orders/${orderId}/marks`, { key, marks: full })).status).toBe(200);
    }
    const over = await as(photographer).put(`/api/orders/${orderId}/marks`, { key: keys.at(-1), marks: [rect('one')] });
    expect(over.status).toBe(400);
    expect(over.body.message).toMatch(/at most 200 marks on one order/i);
    expect((await storedMarks(orderId)).map((r) => r.key)).not.toContain(keys.at(-1));
    // Replacing a photo's marks counts only the others: the same 20 again is fine.
    expect((await as(photographer).put(`/api/orders/${orderId}/marks`, { key: keys[0], marks: full })).status).toBe(
      200,
    );
  });

  it('holds the order’s limit when photos are saved at the same moment', async () => {
    // 9 photos full (180 marks), then 4 more photos of 20 at once: only one of the four fits.
    const photos = MARKS_PER_ORDER_MAX / MARKS_PER_PHOTO_MAX + 3;
    const { orderId, keys } = await aPaidOrder(photographer, photos);
    const full = Array.from({ length: MARKS_PER_PHOTO_MAX }, (_, i) => rect(`m${i}`));
    const [first, racing] = [keys.slice(0, 9), keys.slice(9)];
    for (const key of first) {
      expect((await as(photographer).put(`/api/orders/${orderId}/marks`, { key, marks: full })).status).toBe(200);
    }
    const answers = await Promise.all(
      racing.map((key) => as(photographer).put(`/api/orders/${orderId}/marks`, { key, marks: full })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400, 400]);
    const stored = await storedMarks(orderId);
    expect(stored.reduce((sum, r) => sum + r.markCount, 0)).toBe(MARKS_PER_ORDER_MAX);
    // The events are recorded from the outbox by a worker: ten saves, ten events, no more.
    const events = await waitFor(
      () => markEvents(orderId),
      (found) => found.length >= 10,
      15_000,
    );
    expect(events.length).toBe(10);
    // Taking marks off a photo makes room again.
    const winner = racing[answers.findIndex((a) => a.status === 200)]!;
    expect((await as(photographer).put(`/api/orders/${orderId}/marks`, { key: winner, marks: [] })).status).toBe(200);
    const loser = racing.find((key) => key !== winner)!;
    expect((await as(photographer).put(`/api/orders/${orderId}/marks`, { key: loser, marks: full })).status).toBe(200);
  });

  it('lets only the order’s editor tick marks done while editing, and keeps the tick on an unchanged mark', async () => {
    const { orderId, keys } = await aPaidOrder(photographer, 1);
    const key = keys[0]!;
    expect(
      (await as(photographer).put(`/api/orders/${orderId}/marks`, { key, marks: [rect('r1'), rect('r2', 'Sky')] }))
        .status,
    ).toBe(200);
    // Not claimed yet: nobody can tick.
    expect(
      (await as(editor).patch(`/api/orders/${orderId}/marks/done`, { key, markId: 'r1', done: true })).status,
    ).toBe(404);
    const order = await claimOrder({
      orderId,
      editor: { userId: editor.uid, name: 'Eddie Editor', email: editor.email },
      rateCents: 50,
    });
    // While the editor works, the photographer cannot change the marks.
    const locked = await as(photographer).put(`/api/orders/${orderId}/marks`, { key, marks: [] });
    expect(locked.status).toBe(409);
    expect(
      (await as(otherEditor).patch(`/api/orders/${orderId}/marks/done`, { key, markId: 'r1', done: true })).status,
    ).toBe(404);
    expect(
      (await as(editor).patch(`/api/orders/${orderId}/marks/done`, { key, markId: 'nope', done: true })).status,
    ).toBe(400);
    const ticked = await as(editor).patch(`/api/orders/${orderId}/marks/done`, { key, markId: 'r1', done: true });
    expect(ticked.status).toBe(200);
    expect(ticked.body.mark).toMatchObject({ id: 'r1', done: true });
    expect((await marksOf(photographer, orderId)).photos[0]!.marks.map((m) => m.done)).toEqual([true, false]);

    await registerEdited({
      order,
      editorId: editor.uid,
      key: `${editedPrefix(orderId)}${ulid()}-room-0.jpg`,
      filename: 'room-0.jpg',
      ...register,
    });
    await completeOrder({ orderId, editorId: editor.uid });
    // Delivered: a new mark for the revision; r1 unchanged keeps its tick, r2 with a new note starts again.
    const revised = await as(photographer).put(`/api/orders/${orderId}/marks`, {
      key,
      marks: [rect('r1'), rect('r2', 'Bluer sky'), rect('r3', 'The lawn')],
    });
    expect(revised.status).toBe(200);
    expect((await marksOf(editor, orderId)).photos[0]!.marks.map((m) => [m.id, m.done, m.round])).toEqual([
      ['r1', true, 0],
      ['r2', false, 1],
      ['r3', false, 1],
    ]);
    // Each change is in the order's activity log, in words.
    const events = await waitFor(
      () => markEvents(orderId),
      (found) => found.length >= 3,
    );
    expect(events.map((e) => [e.eventType, e.description])).toEqual([
      ['marks_saved', '2 marks on room-0.jpg'],
      ['mark_ticked', 'Mark 1 on room-0.jpg done'],
      ['marks_saved', '3 marks on room-0.jpg'],
    ]);
    // Delivered, not editing: no ticks.
    expect(
      (await as(editor).patch(`/api/orders/${orderId}/marks/done`, { key, markId: 'r3', done: true })).status,
    ).toBe(409);
  });
});
