import { randomBytes } from 'node:crypto';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import {
  DEFAULT_MLS_LONG_EDGE,
  MLS_MAX_BYTES,
  MLS_MIN_QUALITY,
  MLS_START_QUALITY,
  type MlsLongEdge,
} from '@marketplace/events/delivery';
import type { ZipBuildMessage } from '@marketplace/events/order-events';
import { editedPrefix } from '@marketplace/events/orders';
import type { SQSEvent } from 'aws-lambda';
import exifr from 'exifr';
import sharp from 'sharp';
import { ulid } from 'ulid';
import { beforeAll, describe, expect, it } from 'vitest';
import { setMlsLongEdge } from '../src/data/delivery';
import {
  claimOrder,
  completeOrder,
  createOrder,
  getOrder,
  markOrderPaid,
  nextOrderNumber,
  registerEdited,
} from '../src/data/orders';
import { listRenditions, type RenditionRecord } from '../src/data/renditions';
import { mlsSkipReasons } from '../src/domain/mls-rendition';
import {
  handler,
  makeRenditions,
  makeRenditionsOrContinue,
  mlsPrefix,
  skipReasonsByFile,
} from '../src/workers/make-renditions';
import { anEditor, aPhotographer, db, outboxStreamRecord, type TestAccount, waitFor } from './support';

/** The MLS-ready copies of a delivered order: made by the rendition worker, fed by the event log from the outbox. */
const storage = () => new S3Client({ region: 'us-east-1', endpoint: process.env.S3_ENDPOINT, forcePathStyle: true });
const bucket = () => process.env.PHOTOS_BUCKET!;

const RED = { r: 200, g: 30, b: 30 };
const BLUE = { r: 30, g: 60, b: 200 };

const aPicture = (width: number, height: number, colour: { r: number; g: number; b: number }) =>
  sharp({ create: { width, height, channels: 3, background: colour } });

/**
 * As much detail as a JPEG can hold at half its size: random pixels, each drawn as a 2x2 block,
 * so the copy at half the size keeps every one of them and its bytes are as many as they get.
 */
const aHighDetailPicture = (width: number, height: number) =>
  sharp(randomBytes((width / 2) * (height / 2) * 3), { raw: { width: width / 2, height: height / 2, channels: 3 } })
    .resize(width, height, { kernel: 'nearest' })
    .jpeg({ quality: 95, chromaSubsampling: '4:4:4' })
    .toBuffer();

/**
 * A portrait photo as a camera held upright stores it: the pixels lie landscape (1200x800) and
 * EXIF orientation 6 says to turn them 90 degrees clockwise. Upright, its top half is red and its
 * bottom half blue. It carries the camera's make, a GPS position and a copyright.
 */
const aPortraitFromACamera = async () => {
  const upright = await aPicture(800, 1200, BLUE)
    .composite([{ input: { create: { width: 800, height: 600, channels: 3, background: RED } }, top: 0, left: 0 }])
    .png()
    .toBuffer();
  return sharp(upright)
    .rotate(270)
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: 'Canon', Model: 'EOS R5', Copyright: 'Pat Photographer 2026' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '40/1 26/1 46/1', GPSLongitudeRef: 'W', GPSLongitude: '73/1 58/1 0/1' },
    })
    .jpeg({ quality: 92 })
    .toBuffer();
};

/** A floor plan on a transparent background: a red square in the middle, nothing around it. */
const aTransparentPng = () =>
  sharp({ create: { width: 1000, height: 800, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([
      {
        input: { create: { width: 400, height: 400, channels: 4, background: { ...RED, alpha: 1 } } },
        top: 200,
        left: 300,
      },
    ])
    .png()
    .toBuffer();

const aSixteenBitTiff = () =>
  aPicture(1500, 1000, { r: 30, g: 140, b: 220 }).toColourspace('rgb16').tiff({ compression: 'lzw' }).toBuffer();

/** Pure green in Display P3 is a green sRGB cannot show: its copy is the nearest sRGB green. */
const aDisplayP3Photo = () =>
  aPicture(600, 400, { r: 0, g: 255, b: 0 }).withIccProfile('p3').jpeg({ quality: 95 }).toBuffer();

interface EditedFile {
  filename: string;
  bytes: Buffer;
}

/** An order taken through payment and claiming to the editor's upload of these edited files. */
const anOrderInProgress = async (photographer: TestAccount, editor: TestAccount, files: EditedFile[]) => {
  const orderId = ulid();
  const paymentIntentId = `pi_test_${ulid()}`;
  await createOrder({
    orderId,
    orderNumber: await nextOrderNumber(),
    photographer: { userId: photographer.uid, name: 'Pat Photographer' },
    jobType: { jobTypeId: 'hdr', name: 'HDR', pricePerPhotoCents: 800 },
    input: { photoCount: files.length, name: '12 Oak Street' },
    totalAmountCents: files.length * 800,
    stripePaymentIntentId: paymentIntentId,
  });
  await markOrderPaid({ orderId, paymentIntentId, amountCents: files.length * 800, via: 'webhook' });
  const order = await claimOrder({
    orderId,
    editor: { userId: editor.uid, name: 'Eddie Editor', email: editor.email },
    rateCents: 50,
  });
  const keys: Record<string, string> = {};
  for (const [index, file] of files.entries()) {
    const key = `${editedPrefix(orderId)}${index}-${file.filename}`;
    await storage().send(new PutObjectCommand({ Bucket: bucket(), Key: key, Body: file.bytes }));
    await registerEdited({
      order: order!,
      editorId: editor.uid,
      key,
      filename: file.filename,
      size: file.bytes.length,
      lastModified: new Date().toISOString(),
    });
    keys[file.filename] = key;
  }
  return { orderId, keys };
};

const objectOf = async (key: string) => {
  const object = await storage().send(new GetObjectCommand({ Bucket: bucket(), Key: key }));
  return { bytes: Buffer.from(await object.Body!.transformToByteArray()), contentType: object.ContentType };
};

const storedCopies = async (orderId: string) => {
  const listed = await storage().send(new ListObjectsV2Command({ Bucket: bucket(), Prefix: `orders/${orderId}/mls/` }));
  return (listed.Contents ?? []).map((o) => ({
    key: o.Key!,
    size: o.Size,
    lastModified: o.LastModified?.toISOString(),
  }));
};

/** The set at a long edge once it holds a record for each of `count` files. */
const setOf = (orderId: string, longEdge: MlsLongEdge, count: number) =>
  waitFor(
    () => listRenditions(orderId, longEdge),
    (records) => records.length >= count,
    120_000,
  );

const pixelAt = async (bytes: Buffer, left: number, top: number) => {
  const pixel = await sharp(bytes).extract({ left, top, width: 1, height: 1 }).raw().toBuffer();
  return [...pixel.subarray(0, 3)];
};

const expectColour = (actual: number[], expected: { r: number; g: number; b: number }, tolerance: number) => {
  const wanted = [expected.r, expected.g, expected.b];
  actual.forEach((value, channel) => {
    expect(Math.abs(value - wanted[channel]!), `channel ${channel}: ${actual} against ${wanted}`).toBeLessThanOrEqual(
      tolerance,
    );
  });
};

/** The zip requests for the MLS zip sent to the zip queue (read from the local SQS stand-in). */
const mlsZipRequests = async (orderId: string) => {
  const response = await fetch(process.env.SQS_ENDPOINT!, {
    method: 'POST',
    headers: { 'x-amz-target': 'Local.Sent', 'content-type': 'application/x-amz-json-1.0' },
    body: JSON.stringify({ QueueUrl: JSON.parse(process.env.QUEUE_URLS!)['zip-builds'], BodyContains: orderId }),
  });
  const { Messages } = (await response.json()) as { Messages: { body: string }[] };
  return Messages.map((m) => JSON.parse(m.body) as Partial<ZipBuildMessage>).filter(
    (body) => body.orderId === orderId && body.kind === 'mls',
  );
};

/** The outbox record of the order's (latest) completion, as the event log forwards it to the renditions queue. */
const completionRecord = async (orderId: string) => {
  const events = (await db().orderEvent.query.byOrder({ orderId }).go({ pages: 'all' })).data;
  const event = events.filter((e) => e.eventType === 'order_completed').at(-1);
  if (!event) throw new Error(`no completion event for ${orderId}`);
  return outboxStreamRecord(event);
};

const deliver = (...bodies: unknown[]) =>
  handler({
    Records: bodies.map((body) => ({ messageId: ulid(), body: JSON.stringify(body) })),
  } as unknown as SQSEvent);

const byFile = (records: RenditionRecord[], keys: Record<string, string>) => {
  const byKey = new Map(records.map((r) => [r.editedKey, r]));
  return Object.fromEntries(Object.entries(keys).map(([filename, key]) => [filename, byKey.get(key)]));
};

describe('MLS-ready copies of a delivered order', () => {
  let photographer: TestAccount;
  let orderId: string;
  let keys: Record<string, string>;
  let sources: Record<string, Buffer>;
  const fileCount = 9;

  beforeAll(async () => {
    photographer = await aPhotographer();
    const editor = await anEditor();
    const truncated = await aPicture(900, 600, BLUE).jpeg().toBuffer();
    sources = {
      'living-room.jpg': await aHighDetailPicture(4096, 3072),
      'bedroom.jpg': await aPortraitFromACamera(),
      'floor-plan.png': await aTransparentPng(),
      'hall.tif': await aSixteenBitTiff(),
      'garden.jpg': await aDisplayP3Photo(),
      'cut-off.jpg': truncated.subarray(0, Math.floor(truncated.length / 3)),
      'IMG_0042.CR2': Buffer.concat([Buffer.from('II*\0'), randomBytes(4096)]),
      'extras.zip': Buffer.from('PK\u0003\u0004 an archive, no picture'),
      'empty.jpg': Buffer.alloc(0),
    };
    expect(Object.keys(sources)).toHaveLength(fileCount);
    // The fixtures are what they claim to be.
    expect(sources['living-room.jpg']!.length).toBeGreaterThan(15 * 1024 * 1024);
    expect(await sharp(sources['bedroom.jpg']).metadata()).toMatchObject({ width: 1200, height: 800, orientation: 6 });
    expect(await sharp(sources['hall.tif']).metadata()).toMatchObject({ format: 'tiff', depth: 'ushort' });

    const order = await anOrderInProgress(
      photographer,
      editor,
      Object.entries(sources).map(([filename, bytes]) => ({ filename, bytes })),
    );
    orderId = order.orderId;
    keys = order.keys;
    await completeOrder({ orderId, editorId: editor.uid });
  }, 120_000);

  it('are made at 2,048 px by default, under the byte cap, searching the quality down for a high-detail photo', async () => {
    const set = byFile(await setOf(orderId, DEFAULT_MLS_LONG_EDGE, fileCount), keys);
    const copy = set['living-room.jpg']!;
    expect(copy).toMatchObject({
      status: 'ready',
      longEdge: 2048,
      width: 2048,
      height: 1536,
      sourceSize: sources['living-room.jpg']!.length,
    });
    expect(copy.quality).toBeLessThan(MLS_START_QUALITY);
    expect(copy.quality).toBeGreaterThanOrEqual(MLS_MIN_QUALITY);
    expect(copy.renditionKey!.startsWith(mlsPrefix(orderId, 2048))).toBe(true);
    const object = await objectOf(copy.renditionKey!);
    expect(object.contentType).toBe('image/jpeg');
    expect(object.bytes.length).toBe(copy.bytes);
    expect(object.bytes.length).toBeLessThanOrEqual(MLS_MAX_BYTES);
    expect(await sharp(object.bytes).metadata()).toMatchObject({ format: 'jpeg', width: 2048, height: 1536 });
    // A photo that fits at the start quality keeps it, and none is enlarged.
    expect(set['garden.jpg']).toMatchObject({ status: 'ready', quality: MLS_START_QUALITY, width: 600, height: 400 });
  }, 180_000);

  it('turn a portrait photo upright by its EXIF orientation, so it needs no orientation tag', async () => {
    const copy = byFile(await setOf(orderId, 2048, fileCount), keys)['bedroom.jpg']!;
    expect(copy).toMatchObject({ status: 'ready', width: 800, height: 1200 });
    const { bytes } = await objectOf(copy.renditionKey!);
    const metadata = await sharp(bytes).metadata();
    expect(metadata).toMatchObject({ width: 800, height: 1200 });
    expect([undefined, 1]).toContain(metadata.orientation);
    expectColour(await pixelAt(bytes, 400, 100), RED, 12);
    expectColour(await pixelAt(bytes, 400, 1100), BLUE, 12);
  }, 180_000);

  it('embed the sRGB profile, converting from the profile a photo came with', async () => {
    const set = byFile(await setOf(orderId, 2048, fileCount), keys);
    for (const filename of ['living-room.jpg', 'bedroom.jpg', 'floor-plan.png', 'hall.tif', 'garden.jpg']) {
      const { bytes } = await objectOf(set[filename]!.renditionKey!);
      const profile = await exifr.parse(bytes, { icc: true, tiff: false, xmp: false, iptc: false });
      expect(profile?.ProfileDescription, filename).toBe('sRGB');
      expect((await sharp(bytes).metadata()).space, filename).toBe('srgb');
    }
    const garden = await objectOf(set['garden.jpg']!.renditionKey!);
    expectColour(await pixelAt(garden.bytes, 300, 200), { r: 0, g: 255, b: 0 }, 8);
  }, 180_000);

  it("strip the camera's make and the GPS position, and keep the photo's copyright", async () => {
    const copy = byFile(await setOf(orderId, 2048, fileCount), keys)['bedroom.jpg']!;
    const source = await exifr.parse(sources['bedroom.jpg']!, { gps: true });
    expect(source).toMatchObject({ Make: 'Canon', Copyright: 'Pat Photographer 2026' });
    expect(source.latitude).toBeGreaterThan(40);

    const { bytes } = await objectOf(copy.renditionKey!);
    const tags = (await exifr.parse(bytes, { tiff: true, exif: true, gps: true, xmp: true, iptc: true })) ?? {};
    expect(tags.Copyright).toBe('Pat Photographer 2026');
    for (const gone of ['Make', 'Model', 'GPSLatitude', 'GPSLongitude', 'latitude', 'longitude']) {
      expect(tags[gone], gone).toBeUndefined();
    }
    // A photo without a copyright gets none, and no other EXIF either.
    const { bytes: plan } = await objectOf(
      byFile(await listRenditions(orderId, 2048), keys)['floor-plan.png']!.renditionKey!,
    );
    expect(await exifr.parse(plan, { tiff: true, exif: true, gps: true })).toBeUndefined();
  }, 180_000);

  it('flatten a transparent PNG on white and make a 16-bit TIFF an 8-bit JPEG of the same colours', async () => {
    const set = byFile(await setOf(orderId, 2048, fileCount), keys);
    expect(set['floor-plan.png']).toMatchObject({ status: 'ready', width: 1000, height: 800 });
    const plan = await objectOf(set['floor-plan.png']!.renditionKey!);
    expect(await sharp(plan.bytes).metadata()).toMatchObject({ format: 'jpeg', channels: 3, hasAlpha: false });
    expectColour(await pixelAt(plan.bytes, 20, 20), { r: 255, g: 255, b: 255 }, 3);
    expectColour(await pixelAt(plan.bytes, 500, 400), RED, 12);

    expect(set['hall.tif']).toMatchObject({ status: 'ready', width: 1500, height: 1000 });
    const hall = await objectOf(set['hall.tif']!.renditionKey!);
    expect(await sharp(hall.bytes).metadata()).toMatchObject({ format: 'jpeg', depth: 'uchar' });
    expectColour(await pixelAt(hall.bytes, 750, 500), { r: 30, g: 140, b: 220 }, 6);
  }, 180_000);

  it('leave out what cannot be read as a photo, each with a reason, and store nothing for it', async () => {
    const set = byFile(await setOf(orderId, 2048, fileCount), keys);
    expect(set['cut-off.jpg']).toMatchObject({ status: 'skipped', reason: mlsSkipReasons.unreadable });
    expect(set['IMG_0042.CR2']).toMatchObject({ status: 'skipped', reason: skipReasonsByFile.raw });
    expect(set['extras.zip']).toMatchObject({ status: 'skipped', reason: skipReasonsByFile.archive });
    expect(set['empty.jpg']).toMatchObject({ status: 'skipped', reason: skipReasonsByFile.empty });
    for (const filename of ['cut-off.jpg', 'IMG_0042.CR2', 'extras.zip', 'empty.jpg']) {
      expect(set[filename]!.renditionKey, filename).toBeUndefined();
    }
    // One object for each of the five photos, none for the files left out.
    expect(await storedCopies(orderId)).toHaveLength(5);
  }, 180_000);

  it('ask the zip worker for the MLS zip once the set is complete', async () => {
    await setOf(orderId, 2048, fileCount);
    const requests = await waitFor(
      () => mlsZipRequests(orderId),
      (sent) => sent.length >= 1,
      30_000,
    );
    expect(requests[0]).toMatchObject({ orderId, kind: 'mls', requestedAt: expect.any(String) });
  }, 180_000);

  it('make nothing again when the completion is delivered again', async () => {
    await setOf(orderId, 2048, fileCount);
    const records = await listRenditions(orderId, 2048);
    const objects = await storedCopies(orderId);
    const record = await completionRecord(orderId);
    const response = await deliver(record, record);
    expect(response.batchItemFailures).toEqual([]);
    expect(await listRenditions(orderId, 2048)).toEqual(records);
    expect(await storedCopies(orderId)).toEqual(objects);
  }, 180_000);

  it('make the set at the new size when the photographer picks another, keeping the first', async () => {
    await setOf(orderId, 2048, fileCount);
    const before = await listRenditions(orderId, 2048);
    const requestsBefore = (await mlsZipRequests(orderId)).length;
    const order = await getOrder(orderId);
    expect(await setMlsLongEdge({ order: order!, userId: photographer.uid, longEdge: 1024 })).toBe(true);

    const set = byFile(await setOf(orderId, 1024, fileCount), keys);
    expect(set['living-room.jpg']).toMatchObject({ status: 'ready', longEdge: 1024, width: 1024, height: 768 });
    expect(set['bedroom.jpg']).toMatchObject({ status: 'ready', width: 683, height: 1024 });
    expect(set['garden.jpg']).toMatchObject({ status: 'ready', width: 600, height: 400 });
    expect(set['cut-off.jpg']).toMatchObject({ status: 'skipped', reason: mlsSkipReasons.unreadable });
    expect(set['living-room.jpg']!.renditionKey!.startsWith(mlsPrefix(orderId, 1024))).toBe(true);
    const { bytes } = await objectOf(set['living-room.jpg']!.renditionKey!);
    expect(await sharp(bytes).metadata()).toMatchObject({ width: 1024, height: 768 });

    // The copies at 2,048 px stay, so switching back costs nothing.
    expect(await listRenditions(orderId, 2048)).toEqual(before);
    expect(await storedCopies(orderId)).toHaveLength(10);
    const requests = await waitFor(
      () => mlsZipRequests(orderId),
      (sent) => sent.length > requestsBefore,
      30_000,
    );
    expect(requests.length).toBeGreaterThan(requestsBefore);
  }, 180_000);

  it('make a copy again for an edited file replaced since by one of another size', async () => {
    await setOf(orderId, 1024, fileCount);
    const key = keys['garden.jpg']!;
    const before = new Map((await listRenditions(orderId, 1024)).map((r) => [r.editedKey, r]));
    const replacement = await aPicture(900, 600, { r: 220, g: 200, b: 60 }).jpeg({ quality: 90 }).toBuffer();
    await storage().send(new PutObjectCommand({ Bucket: bucket(), Key: key, Body: replacement }));
    await db().orderImage.patch({ orderId, kind: 'edited', key }).set({ size: replacement.length }).go();

    expect((await deliver(await completionRecord(orderId))).batchItemFailures).toEqual([]);
    const after = new Map((await listRenditions(orderId, 1024)).map((r) => [r.editedKey, r]));
    expect(after.get(key)).toMatchObject({ status: 'ready', sourceSize: replacement.length, width: 900, height: 600 });
    const { bytes } = await objectOf(after.get(key)!.renditionKey!);
    expectColour(await pixelAt(bytes, 450, 300), { r: 220, g: 200, b: 60 }, 8);
    // Every other file kept its copy.
    for (const [otherKey, record] of before) if (otherKey !== key) expect(after.get(otherKey)).toEqual(record);
  }, 180_000);
});

describe('the rendition worker', () => {
  it('makes nothing and asks for no zip while an order is not completed', async () => {
    const photographer = await aPhotographer();
    const editor = await anEditor();
    const { orderId } = await anOrderInProgress(photographer, editor, [
      { filename: 'porch.jpg', bytes: await aPicture(900, 600, BLUE).jpeg().toBuffer() },
    ]);
    expect(await makeRenditions(orderId)).toEqual({ outcome: 'not-completed' });
    expect(await listRenditions(orderId, DEFAULT_MLS_LONG_EDGE)).toEqual([]);
    expect(await storedCopies(orderId)).toEqual([]);
    expect(await mlsZipRequests(orderId)).toEqual([]);
  });

  it('hands the rest to a new message when its time is up, and that one goes on from the records', async () => {
    const photographer = await aPhotographer();
    const editor = await anEditor();
    const files = [
      { filename: 'porch.jpg', bytes: await aPicture(900, 600, BLUE).jpeg().toBuffer() },
      { filename: 'deck.jpg', bytes: await aPicture(600, 900, RED).jpeg().toBuffer() },
    ];
    const { orderId, keys } = await anOrderInProgress(photographer, editor, files);
    // Completed without its event, so only the receives made here reach the worker.
    const order = (await getOrder(orderId))!;
    await db()
      .order.patch({ orderId })
      .set({ status: 'completed', completedAt: new Date().toISOString() })
      .composite({ createdAt: order.createdAt, editorId: editor.uid })
      .go();

    const longAgo = Date.now() - 24 * 60 * 60 * 1000;
    await expect(makeRenditions(orderId, longAgo)).rejects.toThrow(/stopped after 0 copies with 2 to make/);
    expect(await listRenditions(orderId, DEFAULT_MLS_LONG_EDGE)).toEqual([]);
    expect(await mlsZipRequests(orderId)).toEqual([]);

    // The worker's own way: the rest goes to a new message, which the queue delivers at once.
    expect(await makeRenditionsOrContinue(orderId, longAgo)).toEqual({ outcome: 'continued' });
    const made = await waitFor(
      () => listRenditions(orderId, DEFAULT_MLS_LONG_EDGE),
      (records) => records.length === 2,
      30_000,
    );
    const set = byFile(made, keys);
    expect(set['porch.jpg']).toMatchObject({ status: 'ready', width: 900, height: 600 });
    expect(set['deck.jpg']).toMatchObject({ status: 'ready', width: 600, height: 900 });
    expect(
      await waitFor(
        () => mlsZipRequests(orderId),
        (sent) => sent.length === 1,
      ),
    ).toHaveLength(1);
  });

  it('removes the copy of a file a revision replaced, and makes the new file its own', async () => {
    const photographer = await aPhotographer();
    const editor = await anEditor();
    const { orderId, keys } = await anOrderInProgress(photographer, editor, [
      { filename: 'porch.jpg', bytes: await aPicture(900, 600, BLUE).jpeg().toBuffer() },
      { filename: 'deck.jpg', bytes: await aPicture(600, 900, RED).jpeg().toBuffer() },
    ]);
    const order = (await getOrder(orderId))!;
    await db()
      .order.patch({ orderId })
      .set({ status: 'completed', completedAt: new Date().toISOString() })
      .composite({ createdAt: order.createdAt, editorId: editor.uid })
      .go();
    expect(await makeRenditions(orderId)).toMatchObject({ outcome: 'complete' });
    const first = byFile(await listRenditions(orderId, DEFAULT_MLS_LONG_EDGE), keys);
    const oldCopy = first['porch.jpg']!.renditionKey!;

    // The revision's re-delivery: a new porch.jpg under a key of its own, the first one replaced.
    const newKey = `${editedPrefix(orderId)}9-porch.jpg`;
    const bytes = await aPicture(800, 600, RED).jpeg().toBuffer();
    await storage().send(new PutObjectCommand({ Bucket: bucket(), Key: newKey, Body: bytes }));
    await db()
      .orderImage.patch({ orderId, kind: 'edited', key: keys['porch.jpg']! })
      .set({ supersededBy: newKey })
      .go();
    await db()
      .orderImage.create({
        orderId,
        kind: 'edited',
        key: newKey,
        filename: 'porch.jpg',
        size: bytes.length,
        uploadedBy: editor.uid,
        lastModified: new Date().toISOString(),
      })
      .go();

    expect(await makeRenditions(orderId)).toMatchObject({ outcome: 'complete', made: { ready: 1, skipped: 0 } });
    const after = await listRenditions(orderId, DEFAULT_MLS_LONG_EDGE);
    expect(after.map((r) => r.editedKey).sort()).toEqual([keys['deck.jpg']!, newKey].sort());
    const stored = (await storedCopies(orderId)).map((o) => o.key);
    expect(stored).not.toContain(oldCopy);
    expect(stored).toHaveLength(2);
  }, 60_000);

  it('lets go of a message that is no delivery or size change', async () => {
    const response = await deliver({ hello: 'world' }, { orderId: ulid(), kind: 'mls' });
    expect(response.batchItemFailures).toEqual([]);
  });
});
