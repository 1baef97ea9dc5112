import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { marshall } from '@aws-sdk/util-dynamodb';
import { editedPrefix, originalsPrefix } from '@marketplace/events/orders';
import type { SQSEvent } from 'aws-lambda';
import sharp from 'sharp';
import { ulid } from 'ulid';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OrderImageRecord } from '../src/data/orders';
import { claimOrder, markOrderPaid, registerEdited, registerOriginal } from '../src/data/orders';
import { handler, RENDITION_CACHE_CONTROL, thumbnailsPrefix } from '../src/workers/make-thumbnails';
import { aDng } from './raw-sample';
import {
  aDataLayerOrder,
  anEditor,
  aPhotographer,
  as,
  db,
  outboxStreamRecord,
  type TestAccount,
  waitFor,
} from './support';

/** The thumbnail worker, fed by the event log from the outbox, and the URLs the images route gives the browser. */
const bucket = () => process.env.PHOTOS_BUCKET!;
const storage = () => new S3Client({ region: 'us-east-1', endpoint: process.env.S3_ENDPOINT, forcePathStyle: true });

const aPicture = (width: number, height: number, colour = { r: 40, g: 120, b: 200 }) =>
  sharp({ create: { width, height, channels: 3, background: colour } });

const anOrder = (photographer: TestAccount, photoCount: number) => aDataLayerOrder(photographer, { photoCount });

type Order = Awaited<ReturnType<typeof anOrder>>;

/** An original in storage, registered as a finished upload is: its image_uploaded event goes through the outbox. */
const anOriginal = async (order: Order, filename: string, bytes: Buffer) => {
  const key = `${originalsPrefix(order.orderId)}${randomUUID()}-${filename}`;
  await storage().send(new PutObjectCommand({ Bucket: bucket(), Key: key, Body: bytes }));
  await registerOriginal({ order, key, filename, size: bytes.length, lastModified: new Date().toISOString() });
  return key;
};

const imageOf = async (orderId: string, key: string, kind: 'original' | 'edited' = 'original') =>
  (await db().orderImage.get({ orderId, kind, key }).go()).data as OrderImageRecord | null;

const thumbnailOf = (orderId: string, key: string, kind: 'original' | 'edited' = 'original') =>
  waitFor(
    () => imageOf(orderId, key, kind),
    (image) => Boolean(image?.thumbnail),
    30_000,
  );

const objectBytes = async (key: string) => {
  const object = await storage().send(new GetObjectCommand({ Bucket: bucket(), Key: key }));
  return {
    bytes: Buffer.from(await object.Body!.transformToByteArray()),
    contentType: object.ContentType,
    cacheControl: object.CacheControl,
  };
};

const storedRenditions = async (orderId: string) => {
  const listed = await storage().send(
    new ListObjectsV2Command({ Bucket: bucket(), Prefix: thumbnailsPrefix(orderId) }),
  );
  return (listed.Contents ?? []).map((o) => ({ key: o.Key!, lastModified: o.LastModified?.toISOString() }));
};

/** Both renditions of an image: WebP, stored immutable, of these sizes. */
const expectRenditions = async (
  image: OrderImageRecord | null,
  thumbnail: [number, number],
  preview: [number, number],
) => {
  expect(image?.thumbnail).toBe('ready');
  for (const [key, size] of [
    [image!.thumbnailKey!, thumbnail],
    [image!.previewKey!, preview],
  ] as const) {
    expect(key.startsWith(thumbnailsPrefix(image!.orderId))).toBe(true);
    const object = await objectBytes(key);
    expect(object.contentType).toBe('image/webp');
    expect(object.cacheControl).toBe(RENDITION_CACHE_CONTROL);
    const metadata = await sharp(object.bytes).metadata();
    expect([metadata.format, metadata.width, metadata.height], key).toEqual(['webp', ...size]);
  }
};

/** The outbox record of an image's upload event, as the event log forwards it to the thumbnails queue. */
const uploadEventRecord = async (orderId: string, key: string) => {
  const events = (await db().orderEvent.query.byOrder({ orderId }).go({ pages: 'all' })).data;
  const event = events.find(
    (e) => (e.metadata as { key?: string } | undefined)?.key === key && e.eventType.endsWith('image_uploaded'),
  );
  if (!event) throw new Error(`no upload event for ${key}`);
  return outboxStreamRecord(event);
};

const deliver = (...bodies: unknown[]) =>
  handler({
    Records: bodies.map((body) => ({ messageId: randomUUID(), body: JSON.stringify(body) })),
  } as unknown as SQSEvent);

/** A GET of a signed S3 URL. Not fetch: some test port offsets put the S3 stand-in on a port fetch refuses. */
const getUrl = (url: string) =>
  new Promise<{ status: number; contentType?: string; cacheControl?: string; body: Buffer }>((resolve, reject) => {
    request(url, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          contentType: response.headers['content-type'],
          cacheControl: response.headers['cache-control'],
          body: Buffer.concat(chunks),
        }),
      );
    })
      .on('error', reject)
      .end();
  });

describe('thumbnails of originals', () => {
  let photographer: TestAccount;
  let order: Order;
  const keys: Record<string, string> = {};

  beforeAll(async () => {
    photographer = await aPhotographer();
    order = await anOrder(photographer, 6);
    const thumbnail = { bytes: await aPicture(160, 120).jpeg().toBuffer(), width: 160, height: 120 };
    const jpeg = await aPicture(3000, 2000).jpeg().toBuffer();
    keys.jpeg = await anOriginal(order, 'kitchen.JPG', jpeg);
    keys.png = await anOriginal(order, 'plan.png', await aPicture(1000, 1500).png().toBuffer());
    keys.tiff = await anOriginal(order, 'hall.tif', await aPicture(1200, 600).tiff({ compression: 'lzw' }).toBuffer());
    keys.cr2 = await anOriginal(
      order,
      'IMG_0012.CR2',
      aDng({
        thumbnail,
        preview: { bytes: await aPicture(1600, 1200).jpeg().toBuffer(), width: 1600, height: 1200 },
      }),
    );
    keys.zip = await anOriginal(order, 'brackets.zip', Buffer.from('PK\u0003\u0004 an archive, no picture'));
    keys.truncated = await anOriginal(order, 'cut-off.jpg', jpeg.subarray(0, Math.floor(jpeg.length / 3)));
  });

  it('are a 400 px thumbnail and a preview of at most 2048 px, in WebP, for a JPEG, a PNG and a TIFF', async () => {
    await expectRenditions(await thumbnailOf(order.orderId, keys.jpeg!), [400, 267], [2048, 1365]);
    await expectRenditions(await thumbnailOf(order.orderId, keys.png!), [267, 400], [1000, 1500]);
    await expectRenditions(await thumbnailOf(order.orderId, keys.tiff!), [400, 200], [1200, 600]);
  });

  it("are drawn from the largest JPEG preview embedded in a RAW file, not the RAW's small thumbnail", async () => {
    await expectRenditions(await thumbnailOf(order.orderId, keys.cr2!), [400, 300], [1600, 1200]);
  });

  it('are a placeholder, with no image stored, for an archive and a picture cut off half way', async () => {
    for (const key of [keys.zip!, keys.truncated!]) {
      const image = await thumbnailOf(order.orderId, key);
      expect(image).toMatchObject({ thumbnail: 'placeholder' });
      expect(image?.thumbnailKey).toBeUndefined();
      expect(image?.previewKey).toBeUndefined();
    }
    await waitFor(
      () => Promise.all(Object.values(keys).map((key) => imageOf(order.orderId, key))),
      (images) => images.every((image) => image?.thumbnail),
      30_000,
    );
    // Two objects for each of the four pictures, none for the placeholders.
    expect(await storedRenditions(order.orderId)).toHaveLength(8);
  });

  it('are not made again when the upload event is delivered again', async () => {
    const image = await thumbnailOf(order.orderId, keys.jpeg!);
    const placeholder = await thumbnailOf(order.orderId, keys.zip!);
    const before = await storedRenditions(order.orderId);
    const record = await uploadEventRecord(order.orderId, keys.jpeg!);
    const response = await deliver(record, record, await uploadEventRecord(order.orderId, keys.zip!));
    expect(response.batchItemFailures).toEqual([]);
    expect(await storedRenditions(order.orderId)).toEqual(before);
    expect(await imageOf(order.orderId, keys.jpeg!)).toEqual(image);
    expect(await imageOf(order.orderId, keys.zip!)).toEqual(placeholder);
  });

  it('reach the browser as presigned URLs that fetch the WebP, the same URLs on each request within the hour', async () => {
    await thumbnailOf(order.orderId, keys.jpeg!);
    const first = await as(photographer).get(`/api/orders/${order.orderId}/images`);
    expect(first.status).toBe(200);
    const byKey = new Map(
      (first.body.images as { key: string; thumbnail: string; thumbnailUrl: string; previewUrl: string }[]).map((i) => [
        i.key,
        i,
      ]),
    );
    const jpeg = byKey.get(keys.jpeg!)!;
    expect(jpeg.thumbnail).toBe('ready');
    const thumbnail = await getUrl(jpeg.thumbnailUrl);
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.contentType).toBe('image/webp');
    expect(thumbnail.cacheControl).toBe(RENDITION_CACHE_CONTROL);
    expect(await sharp(thumbnail.body).metadata()).toMatchObject({ format: 'webp', width: 400, height: 267 });
    const preview = await getUrl(jpeg.previewUrl);
    expect(await sharp(preview.body).metadata()).toMatchObject({ format: 'webp', width: 2048, height: 1365 });

    const second = await as(photographer).get(`/api/orders/${order.orderId}/images`);
    const again = (second.body.images as { key: string }[]).find((i) => i.key === keys.jpeg);
    expect(again).toMatchObject({ thumbnailUrl: jpeg.thumbnailUrl, previewUrl: jpeg.previewUrl });

    const zip = byKey.get(keys.zip!)!;
    expect(zip).toMatchObject({ thumbnail: 'placeholder', thumbnailUrl: null, previewUrl: null });
  });

  it('are not shown to a stranger', async () => {
    const stranger = await aPhotographer();
    expect((await as(stranger).get(`/api/orders/${order.orderId}/images`)).status).toBe(404);
  });
});

describe('thumbnails of RAW files', () => {
  it('find a preview past the first megabytes and turn it upright by the RAW orientation', async () => {
    const photographer = await aPhotographer();
    const order = await anOrder(photographer, 1);
    const key = await anOriginal(
      order,
      'DSC_0420.dng',
      aDng({
        thumbnail: { bytes: await aPicture(160, 120).jpeg().toBuffer(), width: 160, height: 120 },
        preview: { bytes: await aPicture(2400, 1600).jpeg().toBuffer(), width: 2400, height: 1600 },
        // Sensor data pushes the preview past the part of the file read first.
        sensorBytes: 9 * 1024 * 1024,
        // The camera was held upright: turn 90 degrees clockwise.
        orientation: 6,
      }),
    );
    await expectRenditions(await thumbnailOf(order.orderId, key), [267, 400], [1365, 2048]);
  });
});

describe('thumbnails of edited files', () => {
  it('are made from the edited upload event, beside the originals', async () => {
    const photographer = await aPhotographer();
    const editor = await anEditor();
    const order = await anOrder(photographer, 1);
    await anOriginal(order, 'IMG_0001.jpg', await aPicture(800, 600).jpeg().toBuffer());
    await markOrderPaid({
      orderId: order.orderId,
      paymentIntentId: order.stripePaymentIntentId!,
      amountCents: order.totalAmountCents,
      via: 'webhook',
    });
    await claimOrder({
      orderId: order.orderId,
      editor: { userId: editor.uid, name: 'Eddie Editor', email: editor.email },
      rateCents: 50,
    });
    const current = (await db().order.get({ orderId: order.orderId }).go()).data!;
    const key = `${editedPrefix(order.orderId)}${randomUUID()}-IMG_0001_edited.jpg`;
    const bytes = await aPicture(1800, 1200, { r: 220, g: 200, b: 60 }).jpeg().toBuffer();
    await storage().send(new PutObjectCommand({ Bucket: bucket(), Key: key, Body: bytes }));
    await registerEdited({
      order: current as Parameters<typeof registerEdited>[0]['order'],
      editorId: editor.uid,
      key,
      filename: 'IMG_0001_edited.jpg',
      size: bytes.length,
      lastModified: new Date().toISOString(),
    });
    const image = await thumbnailOf(order.orderId, key, 'edited');
    await expectRenditions(image, [400, 267], [1800, 1200]);
    expect(image!.thumbnailKey!.startsWith(`${thumbnailsPrefix(order.orderId)}edited/`)).toBe(true);
  });
});

describe('the thumbnail worker', () => {
  /** An image record with no upload event behind it, so only the deliveries the test makes reach the worker. */
  const aQuietImage = async (order: Order, filename: string, bytes: Buffer | null) => {
    const key = `${originalsPrefix(order.orderId)}${randomUUID()}-${filename}`;
    if (bytes) await storage().send(new PutObjectCommand({ Bucket: bucket(), Key: key, Body: bytes }));
    await db()
      .orderImage.create({
        orderId: order.orderId,
        kind: 'original',
        key,
        filename,
        size: bytes?.length ?? 1,
        uploadedBy: order.photographerId,
        lastModified: new Date().toISOString(),
      })
      .go();
    const record = {
      eventName: 'INSERT',
      dynamodb: {
        NewImage: marshall({
          eventId: ulid(),
          orderId: order.orderId,
          eventType: 'image_uploaded',
          description: `Original uploaded: ${filename}`,
          occurredAt: new Date().toISOString(),
          metadata: { key, filename, size: bytes?.length ?? 1 },
        }),
      },
    };
    return { key, record };
  };

  it('records one result when two deliveries of the same event run at once', async () => {
    const photographer = await aPhotographer();
    const order = await anOrder(photographer, 1);
    const { key, record } = await aQuietImage(order, 'porch.jpg', await aPicture(900, 600).jpeg().toBuffer());
    const pending = await as(photographer).get(`/api/orders/${order.orderId}/images`);
    expect(pending.body.images).toEqual([
      expect.objectContaining({ key, thumbnail: 'pending', thumbnailUrl: null, previewUrl: null }),
    ]);

    const responses = await Promise.all([deliver(record), deliver(record)]);
    expect(responses.flatMap((r) => r.batchItemFailures)).toEqual([]);
    await expectRenditions(await imageOf(order.orderId, key), [400, 267], [900, 600]);
    expect(await storedRenditions(order.orderId)).toHaveLength(2);
  });

  it('makes a placeholder for a file no longer in storage instead of retrying it', async () => {
    const photographer = await aPhotographer();
    const order = await anOrder(photographer, 1);
    const { key, record } = await aQuietImage(order, 'gone.jpg', null);
    expect((await deliver(record)).batchItemFailures).toEqual([]);
    expect((await imageOf(order.orderId, key))?.thumbnail).toBe('placeholder');
    expect(await storedRenditions(order.orderId)).toEqual([]);
  });

  it('makes a placeholder for a picture whose header claims more pixels than it may decode', async () => {
    const photographer = await aPhotographer();
    const order = await anOrder(photographer, 1);
    const huge = await aPicture(64, 64).jpeg().toBuffer();
    const sof = huge.indexOf(Buffer.from([0xff, 0xc0]));
    huge.writeUInt16BE(65_000, sof + 5);
    huge.writeUInt16BE(65_000, sof + 7);
    const { key, record } = await aQuietImage(order, 'bomb.jpg', huge);
    expect((await deliver(record)).batchItemFailures).toEqual([]);
    expect((await imageOf(order.orderId, key))?.thumbnail).toBe('placeholder');
  });

  it('makes a placeholder for an empty RAW file instead of retrying it', async () => {
    const photographer = await aPhotographer();
    const order = await anOrder(photographer, 1);
    const { key, record } = await aQuietImage(order, 'empty.NEF', Buffer.alloc(0));
    expect((await deliver(record)).batchItemFailures).toEqual([]);
    expect((await imageOf(order.orderId, key))?.thumbnail).toBe('placeholder');
  });
});
