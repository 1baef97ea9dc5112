import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import {
  MAX_ORIGINAL_BYTES,
  orderFormMessages,
  originalsPrefix,
  REGISTER_BATCH_MAX,
  SIGN_BATCH_MAX,
} from '@marketplace/events/orders';
import { describe, expect, it } from 'vitest';
import { getOrder, listAllImages } from '../src/data/orders';
import { MAX_WITH_FILES_BODY_BYTES } from '../src/handlers/orders/create-order-with-files';
import { anEditor, aPhotographer, as, call, db, type TestAccount } from './support';

/** Originals go from the browser straight to S3 with URLs the API signs; they count once the API has seen them. */
const bucket = () => process.env.PHOTOS_BUCKET!;
const storage = () => new S3Client({ region: 'us-east-1', endpoint: process.env.S3_ENDPOINT, forcePathStyle: true });

const anOrder = async (photographer: TestAccount, photoCount = 2) => {
  const response = await as(photographer).post('/api/orders', { jobTypeId: 'hdr', photoCount });
  if (response.status !== 201) throw new Error(`order not created: ${response.status}`);
  return response.body.order.id as string;
};

const keyFor = (orderId: string, filename: string) => `${originalsPrefix(orderId)}${randomUUID()}-${filename}`;

const sign = (account: TestAccount, orderId: string, request: Record<string, unknown>) =>
  as(account).post(`/api/orders/${orderId}/uploads/sign`, request);

const register = (account: TestAccount, orderId: string, key: string, filename: string) =>
  as(account).post(`/api/orders/${orderId}/uploads/complete`, { key, filename });

const objectExists = async (key: string) => {
  try {
    await storage().send(new HeadObjectCommand({ Bucket: bucket(), Key: key }));
    return true;
  } catch {
    return false;
  }
};

const bytesOf = async (key: string) => {
  const object = await storage().send(new GetObjectCommand({ Bucket: bucket(), Key: key }));
  return Buffer.from(await object.Body!.transformToByteArray());
};

/**
 * A request to a signed S3 URL. Not fetch: under some test port offsets the S3 stand-in lands on a
 * port fetch refuses to dial (6665-6669), while S3's own port never is.
 */
const sendToS3 = (url: string, init: { method: string; headers?: Record<string, string>; body?: Buffer }) =>
  new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }>(
    (resolve, reject) => {
      const outgoing = request(url, { method: init.method, headers: init.headers ?? {} }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString(),
          }),
        );
      });
      outgoing.on('error', reject);
      outgoing.end(init.body);
    },
  );

/** What the browser does with a signed PUT: send the file with the headers it was signed with. */
const uploadWithSignedPut = async (account: TestAccount, orderId: string, filename: string, body: Buffer) => {
  const key = keyFor(orderId, filename);
  const signed = await sign(account, orderId, { method: 'PUT', key, contentType: 'image/jpeg', size: body.length });
  expect(signed.status).toBe(200);
  const put = await sendToS3(signed.body.url, { method: 'PUT', headers: signed.body.headers, body });
  expect(put.status).toBe(200);
  return key;
};

const payOrder = async (orderId: string) => {
  const order = (await getOrder(orderId))!;
  await db()
    .order.patch({ orderId })
    .set({ status: 'paid' })
    .composite({ createdAt: order.createdAt, totalAmountCents: order.totalAmountCents })
    .go();
};

describe('signing an upload', () => {
  it('signs a PUT of an accepted photo under the order originals, with the content type it signed', async () => {
    const photographer = await aPhotographer();
    const orderId = await anOrder(photographer);
    const key = keyFor(orderId, 'front.jpg');
    const response = await sign(photographer, orderId, { method: 'PUT', key, contentType: 'image/jpeg', size: 1234 });
    expect(response.status).toBe(200);
    expect(response.body.key).toBe(key);
    expect(response.body.headers).toEqual({ 'content-type': 'image/jpeg' });
    const url = new URL(response.body.url);
    expect(decodeURIComponent(url.pathname)).toBe(`/${bucket()}/${key}`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toContain('content-type');
    // A checksum of the empty body the server signed with would never match the browser's bytes.
    expect([...url.searchParams.keys()].filter((name) => /checksum/i.test(name))).toEqual([]);
  });

  it('signs a part of a multipart upload without a checksum or content type for the browser to match', async () => {
    const photographer = await aPhotographer();
    const orderId = await anOrder(photographer);
    const key = keyFor(orderId, 'living-room.arw');
    const response = await sign(photographer, orderId, { method: 'PUT', key, uploadId: 'upload-1', partNumber: 3 });
    expect(response.status).toBe(200);
    expect(response.body.headers).toBeUndefined();
    const url = new URL(response.body.url);
    expect(url.searchParams.get('partNumber')).toBe('3');
    expect(url.searchParams.get('uploadId')).toBe('upload-1');
    expect([...url.searchParams.keys()].filter((name) => /checksum/i.test(name))).toEqual([]);
  });

  it('tells another photographer the order does not exist', async () => {
    const owner = await aPhotographer();
    const orderId = await anOrder(owner);
    const stranger = await aPhotographer();
    const response = await sign(stranger, orderId, { method: 'PUT', key: keyFor(orderId, 'a.jpg'), size: 10 });
    expect(response.status).toBe(404);
  });

  it('refuses editors and anonymous callers', async () => {
    const owner = await aPhotographer();
    const orderId = await anOrder(owner);
    const request = { method: 'PUT', key: keyFor(orderId, 'a.jpg'), size: 10 };
    expect((await sign(await anEditor(), orderId, request)).status).toBe(403);
    expect((await call(`/api/orders/${orderId}/uploads/sign`, { method: 'POST', body: request })).status).toBe(401);
  });

  it("refuses keys outside the order's originals and dot-dot tricks", async () => {
    const photographer = await aPhotographer();
    const orderId = await anOrder(photographer);
    const otherOrderId = await anOrder(photographer);
    const outside = [keyFor(otherOrderId, 'a.jpg'), `orders/${orderId}/edited/a.jpg`, 'a.jpg'];
    for (const key of outside) {
      expect((await sign(photographer, orderId, { method: 'PUT', key, size: 10 })).status, key).toBe(403);
    }
    const tricks = [
      `${originalsPrefix(orderId)}../../${otherOrderId}/originals/a.jpg`,
      `${originalsPrefix(orderId)}nested/a.jpg`,
      `${originalsPrefix(orderId)}..`,
    ];
    for (const key of tricks) {
      expect((await sign(photographer, orderId, { method: 'PUT', key, size: 10 })).status, key).toBe(400);
    }
  });

  it('refuses file types the spec does not accept, with the form message', async () => {
    const photographer = await aPhotographer();
    const orderId = await anOrder(photographer);
    for (const name of ['setup.exe', 'animation.gif']) {
      const response = await sign(photographer, orderId, { method: 'POST', key: keyFor(orderId, name), size: 10 });
      expect(response.status, name).toBe(400);
      expect(response.body.message).toBe(orderFormMessages.fileType);
    }
  });

  it('refuses a stated size above the cap, and a start without a size', async () => {
    const photographer = await aPhotographer();
    const orderId = await anOrder(photographer);
    const key = keyFor(orderId, 'huge.cr2');
    const tooLarge = await sign(photographer, orderId, { method: 'POST', key, size: MAX_ORIGINAL_BYTES + 1 });
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body.message).toMatch(/at most 200 MB/);
    expect((await sign(photographer, orderId, { method: 'PUT', key })).status).toBe(400);
    expect((await sign(photographer, orderId, { method: 'POST', key })).status).toBe(400);
  });

  it('stops signing once the order is paid', async () => {
    const photographer = await aPhotographer();
    const orderId = await anOrder(photographer);
    await payOrder(orderId);
    const response = await sign(photographer, orderId, { method: 'PUT', key: keyFor(orderId, 'a.jpg'), size: 10 });
    expect(response.status).toBe(409);
    expect(response.body.message).toBe('Photos can only be added while the order awaits payment');
  });
});

describe('signing several requests at once', () => {
  it("signs a multipart upload's parts and its completion in one call, in the order asked", async () => {
    const photographer = await aPhotographer();
    const orderId = await anOrder(photographer);
    const key = keyFor(orderId, 'kitchen.nef');
    const parts = [1, 2, 3, 4].map((partNumber) => ({ method: 'PUT', key, uploadId: 'upload-7', partNumber }));
    const response = await sign(photographer, orderId, {
      requests: [...parts, { method: 'POST', key, uploadId: 'upload-7' }],
    });
    expect(response.status).toBe(200);
    expect(response.body.signed).toHaveLength(5);
    response.body.signed.slice(0, 4).forEach((signed: { url: string; key: string }, i: number) => {
      const url = new URL(signed.url);
      expect(signed.key).toBe(key);
      expect(url.searchParams.get('partNumber')).toBe(String(i + 1));
      expect(url.searchParams.get('uploadId')).toBe('upload-7');
      expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    });
    const completion = new URL(response.body.signed[4].url);
    expect(completion.searchParams.get('uploadId')).toBe('upload-7');
    expect(completion.searchParams.get('partNumber')).toBeNull();
  });

  it('signs nothing when any request breaks a rule, and says which rule', async () => {
    const photographer = await aPhotographer();
    const orderId = await anOrder(photographer);
    const key = keyFor(orderId, 'hall.cr2');
    const part = { method: 'PUT', key, uploadId: 'upload-8', partNumber: 1 };
    const outside = { ...part, key: keyFor(await anOrder(photographer), 'hall.cr2') };
    const refusedFolder = await sign(photographer, orderId, { requests: [part, outside] });
    expect(refusedFolder.status).toBe(403);
    expect(refusedFolder.body.signed).toBeUndefined();
    // A capped photo never needs more than 40 parts of S3's smallest size.
    const beyondCap = await sign(photographer, orderId, { requests: [part, { ...part, partNumber: 41 }] });
    expect(beyondCap.status).toBe(400);
    expect(beyondCap.body.message).toMatch(/part 41 would go beyond/);
    const wrongType = await sign(photographer, orderId, {
      requests: [part, { method: 'PUT', key: keyFor(orderId, 'notes.txt'), size: 10 }],
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.message).toBe(orderFormMessages.fileType);
  });

  it(`takes 1 to ${SIGN_BATCH_MAX} requests, only from the owner, only while the order awaits payment`, async () => {
    const photographer = await aPhotographer();
    const orderId = await anOrder(photographer);
    const key = keyFor(orderId, 'porch.jpg');
    const part = (partNumber: number) => ({ method: 'PUT', key, uploadId: 'upload-9', partNumber });
    expect((await sign(photographer, orderId, { requests: [] })).status).toBe(400);
    const tooMany = Array.from({ length: SIGN_BATCH_MAX + 1 }, (_, i) => part((i % 40) + 1));
    expect((await sign(photographer, orderId, { requests: tooMany })).status).toBe(400);
    expect((await sign(await aPhotographer(), orderId, { requests: [part(1)] })).status).toBe(404);
    expect((await sign(await anEditor(), orderId, { requests: [part(1)] })).status).toBe(403);
    await payOrder(orderId);
    const paid = await sign(photographer, orderId, { requests: [part(1)] });
    expect(paid.status).toBe(409);
    expect(paid.body.message).toBe('Photos can only be added while the order awaits payment');
  });
});

const registerAll = (account: TestAccount, orderId: string, files: { key: string; filename: string }[]) =>
  as(account).post(`/api/orders/${orderId}/uploads/complete`, { files });

const originalsEventsOf = async (orderId: string) =>
  (await db().orderEvent.query.byOrder({ orderId }).go()).data.filter((e) => e.eventType === 'image_uploaded');

describe('registering several uploads at once', () => {
  it('counts every file of the call once, however often they are registered, alone or together', async () => {
    const photographer = await aPhotographer();
    const orderId = await anOrder(photographer, 3);
    const files = await Promise.all(
      ['front.jpg', 'back.jpg', 'side.jpg'].map(async (filename) => ({
        key: await uploadWithSignedPut(photographer, orderId, filename, Buffer.from(`bytes of ${filename}`)),
        filename,
      })),
    );
    // One of them registered alone first, as after a lost answer: the batch still counts it once.
    expect((await register(photographer, orderId, files[0]!.key, 'front.jpg')).status).toBe(200);
    const response = await registerAll(photographer, orderId, files);
    expect(response.status).toBe(200);
    expect(response.body.photographerUploadCount).toBe(3);
    expect(response.body.images).toEqual(
      files.map(({ key, filename }) =>
        expect.objectContaining({ key, filename, size: `bytes of ${filename}`.length, kind: 'original' }),
      ),
    );
    const again = await registerAll(photographer, orderId, [...files, files[1]!]);
    expect(again.status).toBe(200);
    expect(again.body.photographerUploadCount).toBe(3);
    expect((await listAllImages(orderId, 'original')).map((image) => image.key).sort()).toEqual(
      files.map(({ key }) => key).sort(),
    );
    await expect.poll(async () => (await originalsEventsOf(orderId)).length).toBe(3);
  });

  it('counts none of the files when one never arrived, is outside the originals or the order is paid', async () => {
    const photographer = await aPhotographer();
    const orderId = await anOrder(photographer, 3);
    const arrived = {
      key: await uploadWithSignedPut(photographer, orderId, 'a.jpg', Buffer.from('a')),
      filename: 'a.jpg',
    };
    const ghost = { key: keyFor(orderId, 'ghost.jpg'), filename: 'ghost.jpg' };
    const missing = await registerAll(photographer, orderId, [arrived, ghost]);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toMatch(/ghost\.jpg has not arrived/);

    const otherOrderId = await anOrder(photographer);
    const elsewhere = {
      key: await uploadWithSignedPut(photographer, otherOrderId, 'b.jpg', Buffer.from('b')),
      filename: 'b.jpg',
    };
    expect((await registerAll(photographer, orderId, [arrived, elsewhere])).status).toBe(403);
    expect((await registerAll(await aPhotographer(), orderId, [arrived])).status).toBe(404);
    expect((await registerAll(await anEditor(), orderId, [arrived])).status).toBe(403);
    expect((await getOrder(orderId))?.photographerUploadCount).toBe(0);
    expect(await listAllImages(orderId, 'original')).toEqual([]);

    await payOrder(orderId);
    const paid = await registerAll(photographer, orderId, [arrived]);
    expect(paid.status).toBe(409);
    expect(paid.body.message).toBe('Photos can only be added while the order awaits payment');
    expect((await getOrder(orderId))?.photographerUploadCount).toBe(0);
  });

  it('deletes an object over the cap and counts none of the call', async () => {
    const photographer = await aPhotographer();
    const orderId = await anOrder(photographer);
    const fine = {
      key: await uploadWithSignedPut(photographer, orderId, 'fine.jpg', Buffer.from('ok')),
      filename: 'fine.jpg',
    };
    const liar = { key: keyFor(orderId, 'liar.dng'), filename: 'liar.dng' };
    await storage().send(
      new PutObjectCommand({ Bucket: bucket(), Key: liar.key, Body: Buffer.alloc(MAX_ORIGINAL_BYTES + 1) }),
    );
    const response = await registerAll(photographer, orderId, [fine, liar]);
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('FILE_TOO_LARGE');
    expect(await objectExists(liar.key)).toBe(false);
    expect(await objectExists(fine.key)).toBe(true);
    expect((await getOrder(orderId))?.photographerUploadCount).toBe(0);
  }, 120_000);

  it(`takes 1 to ${REGISTER_BATCH_MAX} files`, async () => {
    const photographer = await aPhotographer();
    const orderId = await anOrder(photographer);
    expect((await registerAll(photographer, orderId, [])).status).toBe(400);
    const tooMany = Array.from({ length: REGISTER_BATCH_MAX + 1 }, (_, i) => ({
      key: keyFor(orderId, `p${i}.jpg`),
      filename: `p${i}.jpg`,
    }));
    expect((await registerAll(photographer, orderId, tooMany)).status).toBe(400);
  });
});

describe('registering an upload', () => {
  it('counts a photo uploaded with a signed PUT once, however often it is registered', async () => {
    const photographer = await aPhotographer();
    const orderId = await anOrder(photographer);
    const body = Buffer.from('jpeg bytes of the front elevation');
    const key = await uploadWithSignedPut(photographer, orderId, 'front.jpg', body);
    expect(await bytesOf(key)).toEqual(body);

    const first = await register(photographer, orderId, key, 'front.jpg');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      image: { key, filename: 'front.jpg', size: body.length, kind: 'original' },
      photographerUploadCount: 1,
    });
    const again = await register(photographer, orderId, key, 'front.jpg');
    expect(again.status).toBe(200);
    expect(again.body.photographerUploadCount).toBe(1);
    expect((await getOrder(orderId))?.photographerUploadCount).toBe(1);
    const images = await as(photographer).get(`/api/orders/${orderId}/images`);
    expect(images.body.images).toEqual([expect.objectContaining({ key, filename: 'front.jpg', size: body.length })]);
  });

  it('stores the HDR scene the browser grouped an original into, and refuses a scene that is not 1 or more', async () => {
    const photographer = await aPhotographer();
    const orderId = await anOrder(photographer);
    const key = await uploadWithSignedPut(photographer, orderId, 'bracket-2.jpg', Buffer.from('b2'));
    for (const scene of [0, 1.5, 'two']) {
      const refused = await as(photographer).post(`/api/orders/${orderId}/uploads/complete`, {
        key,
        filename: 'bracket-2.jpg',
        scene,
      });
      expect(refused.status, String(scene)).toBe(400);
    }
    expect((await getOrder(orderId))?.photographerUploadCount).toBe(0);

    const registered = await as(photographer).post(`/api/orders/${orderId}/uploads/complete`, {
      key,
      filename: 'bracket-2.jpg',
      scene: 3,
    });
    expect(registered.status).toBe(200);
    expect(registered.body.image.scene).toBe(3);
    const unknown = await uploadWithSignedPut(photographer, orderId, 'scan.jpg', Buffer.from('s'));
    expect((await register(photographer, orderId, unknown, 'scan.jpg')).body.image.scene).toBeNull();
    const images = await as(photographer).get(`/api/orders/${orderId}/images`);
    const sceneOf = (k: string) => images.body.images.find((image: { key: string }) => image.key === k)?.scene;
    expect(sceneOf(key)).toBe(3);
    expect(sceneOf(unknown)).toBeNull();
  });

  it('refuses a key that was never uploaded and counts nothing', async () => {
    const photographer = await aPhotographer();
    const orderId = await anOrder(photographer);
    const response = await register(photographer, orderId, keyFor(orderId, 'ghost.jpg'), 'ghost.jpg');
    expect(response.status).toBe(404);
    expect(response.body.message).toMatch(/ghost\.jpg has not arrived/);
    expect((await getOrder(orderId))?.photographerUploadCount).toBe(0);
  });

  it("refuses to register another photographer's order or a key outside its originals", async () => {
    const photographer = await aPhotographer();
    const orderId = await anOrder(photographer);
    const key = await uploadWithSignedPut(photographer, orderId, 'a.jpg', Buffer.from('a'));
    expect((await register(await aPhotographer(), orderId, key, 'a.jpg')).status).toBe(404);
    const otherOrderId = await anOrder(photographer);
    expect((await register(photographer, otherOrderId, key, 'a.jpg')).status).toBe(403);
    expect((await getOrder(otherOrderId))?.photographerUploadCount).toBe(0);
  });

  it('refuses to count a photo once the order is paid', async () => {
    const photographer = await aPhotographer();
    const orderId = await anOrder(photographer);
    const key = await uploadWithSignedPut(photographer, orderId, 'late.jpg', Buffer.from('late'));
    await payOrder(orderId);
    const response = await register(photographer, orderId, key, 'late.jpg');
    expect(response.status).toBe(409);
    expect(response.body.message).toBe('Photos can only be added while the order awaits payment');
    expect((await getOrder(orderId))?.photographerUploadCount).toBe(0);
  });

  it('refuses and deletes an object over the size cap', async () => {
    const photographer = await aPhotographer();
    const orderId = await anOrder(photographer);
    // The browser may state a small size and send more in parts: S3 then holds an object over the cap.
    const key = keyFor(orderId, 'liar.dng');
    await storage().send(
      new PutObjectCommand({ Bucket: bucket(), Key: key, Body: Buffer.alloc(MAX_ORIGINAL_BYTES + 1) }),
    );
    const response = await register(photographer, orderId, key, 'liar.dng');
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/at most 200 MB/);
    expect(await objectExists(key)).toBe(false);
    expect((await getOrder(orderId))?.photographerUploadCount).toBe(0);
  }, 120_000);
});

const postWithFiles = (
  account: TestAccount,
  fields: Record<string, string>,
  files: { name: string; body: Buffer }[],
) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) form.append('photos', new Blob([file.body]), file.name);
  return fetch(`${process.env.API_URL}/api/orders/with-files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${account.token}` },
    body: form,
  }).then(async (response) => ({ status: response.status, body: JSON.parse(await response.text()) }));
};

const ordersOf = async (photographerId: string) =>
  (await db().order.query.byPhotographer({ photographerId }).go()).data;

describe('POST /api/orders/with-files', () => {
  it('creates a priced order with its photos stored and counted', async () => {
    const photographer = await aPhotographer();
    const files = [
      { name: 'front.jpg', body: Buffer.from('front bytes') },
      { name: 'kitchen.NEF', body: Buffer.from('kitchen raw bytes') },
      { name: 'kitchen-2.png', body: Buffer.from('kitchen png bytes') },
    ];
    const response = await postWithFiles(
      photographer,
      { jobTypeId: 'hdr', photoCount: '2', name: 'Maple Street', editingRequirements: 'Bright rooms' },
      files,
    );
    expect(response.status).toBe(201);
    expect(response.body.order).toMatchObject({
      name: 'Maple Street',
      photoCount: 2,
      totalAmountCents: 1600,
      status: 'pending_payment',
      photographerUploadCount: 3,
    });
    expect(response.body.order.stripePaymentIntentId).toMatch(/^pi_/);
    expect(response.body.stripeClientSecret).toContain(`${response.body.order.stripePaymentIntentId}_secret_`);

    const images = await as(photographer).get(`/api/orders/${response.body.order.id}/images`);
    expect(images.body.images.map((i: { filename: string }) => i.filename).sort()).toEqual([
      'front.jpg',
      'kitchen-2.png',
      'kitchen.NEF',
    ]);
    const front = images.body.images.find((i: { filename: string }) => i.filename === 'front.jpg');
    expect(front.key.startsWith(originalsPrefix(response.body.order.id))).toBe(true);
    expect(await bytesOf(front.key)).toEqual(files[0]!.body);
  });

  it('leaves out the name when none is given', async () => {
    const photographer = await aPhotographer();
    const response = await postWithFiles(photographer, { jobTypeId: 'hdr', photoCount: '1' }, [
      { name: 'a.jpg', body: Buffer.from('a') },
    ]);
    expect(response.status).toBe(201);
    expect(response.body.order.name).toBeNull();
  });

  it('refuses a body over 4 MB, pointing to the direct upload flow, and writes nothing', async () => {
    const photographer = await aPhotographer();
    const response = await postWithFiles(photographer, { jobTypeId: 'hdr', photoCount: '1' }, [
      { name: 'big.jpg', body: Buffer.alloc(MAX_WITH_FILES_BODY_BYTES + 1) },
    ]);
    expect(response.status).toBe(413);
    expect(response.body.message).toMatch(/larger than 4 MB.*upload the photos directly/);
    expect(await ordersOf(photographer.uid)).toEqual([]);
  });

  it('refuses a file of a type the spec does not accept and writes nothing', async () => {
    const photographer = await aPhotographer();
    const response = await postWithFiles(photographer, { jobTypeId: 'hdr', photoCount: '1' }, [
      { name: 'front.jpg', body: Buffer.from('a') },
      { name: 'logo.gif', body: Buffer.from('b') },
    ]);
    expect(response.status).toBe(400);
    expect(response.body.message).toContain(orderFormMessages.fileType);
    expect(await ordersOf(photographer.uid)).toEqual([]);
  });

  it('refuses fewer photos than the count to edit, no photos, or a bad form, and writes nothing', async () => {
    const photographer = await aPhotographer();
    const fewer = await postWithFiles(photographer, { jobTypeId: 'hdr', photoCount: '3' }, [
      { name: 'a.jpg', body: Buffer.from('a') },
    ]);
    expect(fewer.status).toBe(400);
    expect(fewer.body.message).toBe(orderFormMessages.tooFewFiles(3, 1));
    const none = await postWithFiles(photographer, { jobTypeId: 'hdr', photoCount: '1' }, []);
    expect(none.body.message).toBe(orderFormMessages.noFiles);
    const noCount = await postWithFiles(photographer, { jobTypeId: 'hdr', photoCount: '0' }, [
      { name: 'a.jpg', body: Buffer.from('a') },
    ]);
    expect(noCount.body.message).toBe(orderFormMessages.photoCountMin);
    const unknownService = await postWithFiles(photographer, { jobTypeId: 'no-such-service', photoCount: '1' }, [
      { name: 'a.jpg', body: Buffer.from('a') },
    ]);
    expect(unknownService.status).toBe(400);
    expect(await ordersOf(photographer.uid)).toEqual([]);
  });
});
