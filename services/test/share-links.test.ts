import { createHash, randomBytes } from 'node:crypto';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import {
  type CreatedShareLinkView,
  SHARE_LINKS_PER_ORDER_MAX,
  type SharedGalleryView,
  type ShareLinkView,
} from '@marketplace/events/delivery';
import { type CompletedDownloadView, editedPrefix } from '@marketplace/events/orders';
import { ulid } from 'ulid';
import { beforeAll, describe, expect, it } from 'vitest';
import { dynamo } from '../src/data/client';
import { saveSequence } from '../src/data/delivery';
import {
  claimOrder,
  completeOrder,
  createOrder,
  getOrder,
  markOrderPaid,
  nextOrderNumber,
  registerEdited,
} from '../src/data/orders';
import { hashShareToken } from '../src/data/share-links';
import { profilePictureSizeKeys } from '../src/domain/profile-pictures';
import { aPng, aSavedPicture, sendToS3 } from './profile-pictures';
import { anEditor, aPhotographer, as, call, db, type TestAccount, waitFor } from './support';

const s3 = new S3Client({ region: 'us-east-1', endpoint: process.env.S3_ENDPOINT, forcePathStyle: true });
const bucket = () => process.env.PHOTOS_BUCKET!;

const REQUIREMENTS = 'Keep the neighbour’s red car out of every frame';
const unavailable = { error: 'LINK_UNAVAILABLE', message: 'This link is no longer available' };

/**
 * Whether an answer names a secret. A number counts only standing alone, not inside a longer run
 * of letters and digits: the signed URLs' hex signatures and the zip's fingerprint hold '777' by
 * chance in about one run in ten.
 */
const mentions = (answer: string, secret: string) =>
  /^\d+$/.test(secret) ? new RegExp(`(?<![0-9A-Za-z])${secret}(?![0-9A-Za-z])`).test(answer) : answer.includes(secret);

/** A completed order written through the data layer as the routes would, with these edited files in storage. */
const aCompletedOrder = async ({
  photographer,
  editor,
  name,
  filenames,
}: {
  photographer: TestAccount;
  editor: TestAccount;
  name?: string;
  filenames: string[];
}) => {
  const orderId = ulid();
  const paymentIntentId = `pi_test_${ulid()}`;
  await createOrder({
    orderId,
    orderNumber: await nextOrderNumber(),
    photographer: { userId: photographer.uid, name: 'Shira Sharer' },
    jobType: { jobTypeId: 'hdr', name: 'HDR', pricePerPhotoCents: 777 },
    input: {
      photoCount: filenames.length,
      editingRequirements: REQUIREMENTS,
      ...(name ? { name } : {}),
    },
    totalAmountCents: filenames.length * 777,
    stripePaymentIntentId: paymentIntentId,
  });
  await markOrderPaid({ orderId, paymentIntentId, amountCents: filenames.length * 777, via: 'webhook' });
  const order = await claimOrder({
    orderId,
    editor: { userId: editor.uid, name: 'Edwina Editor', email: editor.email },
    rateCents: 55,
  });
  const keys: string[] = [];
  for (const filename of filenames) {
    const key = `${editedPrefix(orderId)}${ulid()}-${filename}`;
    const bytes = randomBytes(2000);
    await s3.send(new PutObjectCommand({ Bucket: bucket(), Key: key, Body: bytes }));
    await registerEdited({
      order,
      editorId: editor.uid,
      key,
      filename,
      size: bytes.length,
      lastModified: new Date().toISOString(),
    });
    keys.push(key);
  }
  await completeOrder({ orderId, editorId: editor.uid, editorNotes: 'Edited with care by Edwina' });
  return { orderId, keys };
};

const linksOf = (orderId: string) => `/api/orders/${orderId}/share-links`;

const createLink = async (photographer: TestAccount, orderId: string, body: object = {}) => {
  const response = await as(photographer).post(linksOf(orderId), body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as CreatedShareLinkView;
};

const listLinks = async (photographer: TestAccount, orderId: string) => {
  const response = await as(photographer).get(linksOf(orderId));
  expect(response.status).toBe(200);
  return (response.body as { links: ShareLinkView[] }).links;
};

const revoke = (photographer: TestAccount, orderId: string, linkId: string) =>
  call(`${linksOf(orderId)}/${linkId}`, { method: 'DELETE', token: photographer.token });

/** Opens a share link as its client does: no account, no token of ours. */
const openShared = async (token: string) => {
  const response = await fetch(`${process.env.API_URL}/api/share/${token}`);
  return { status: response.status, headers: response.headers, text: await response.text() };
};

const downloadShared = async (token: string, kind: string) => {
  const response = await fetch(`${process.env.API_URL}/api/share/${token}/downloads/${kind}`);
  return { status: response.status, headers: response.headers, text: await response.text() };
};

/** Moves a link's expiry into the past, as time would. */
const expire = async (token: string) => {
  await db()
    .shareLink.patch({ tokenHash: hashShareToken(token) })
    .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
    .go();
};

const expectShareHeaders = (headers: Headers) => {
  expect(headers.get('x-robots-tag')).toBe('noindex');
  expect(headers.get('referrer-policy')).toBe('no-referrer');
};

describe('share links', () => {
  let photographer: TestAccount;
  let otherPhotographer: TestAccount;
  let editor: TestAccount;
  let order: { orderId: string; keys: string[] };

  beforeAll(async () => {
    [photographer, otherPhotographer, editor] = await Promise.all([
      aPhotographer({ displayName: 'Shira Sharer' }),
      aPhotographer({ displayName: 'Otto Other' }),
      anEditor({ displayName: 'Edwina Editor' }),
    ]);
    order = await aCompletedOrder({
      photographer,
      editor,
      name: '12 Oak Street',
      filenames: ['kitchen.jpg', 'living.jpg', 'front.jpg'],
    });
  }, 60_000);

  it('are made for a completed order with a 256-bit token, valid 30 days, that only the answer holds', async () => {
    const before = Date.now();
    const link = await createLink(photographer, order.orderId);
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(link.token, 'base64url')).toHaveLength(32);
    expect(link.path).toBe(`/share/${link.token}`);
    expect(link).toMatchObject({ status: 'active', views: 0, downloads: 0, revokedAt: null, lastViewedAt: null });
    const days = (Date.parse(link.expiresAt) - before) / 86_400_000;
    expect(days).toBeGreaterThan(29.99);
    expect(days).toBeLessThan(30.01);

    const listed = (await listLinks(photographer, order.orderId)).find((l) => l.id === link.id);
    expect(listed).toMatchObject({ id: link.id, status: 'active', expiresAt: link.expiresAt });
    expect(JSON.stringify(listed)).not.toContain(link.token);
  });

  it('keep only the SHA-256 of the token in the table, nowhere the token itself', async () => {
    const link = await createLink(photographer, order.orderId, { expiresInDays: 3 });
    const stored = await db()
      .shareLink.get({ tokenHash: createHash('sha256').update(link.token).digest('hex') })
      .go();
    expect(stored.data).toMatchObject({ linkId: link.id, orderId: order.orderId });
    // Every item of the table, the link's event in the outbox and the order's log included.
    await waitFor(
      async () => (await db().orderEvent.query.byOrder({ orderId: order.orderId }).go({ pages: 'all' })).data,
      (events) => events.some((event) => event.eventType === 'share_link_created'),
    );
    const documents = DynamoDBDocumentClient.from(dynamo());
    let start: Record<string, unknown> | undefined;
    let found = 0;
    let scanned = 0;
    do {
      const page = await documents.send(
        new ScanCommand({ TableName: process.env.TABLE_NAME, ExclusiveStartKey: start }),
      );
      for (const item of page.Items ?? []) if (JSON.stringify(item).includes(link.token)) found += 1;
      scanned += page.Items?.length ?? 0;
      start = page.LastEvaluatedKey;
    } while (start);
    expect(scanned).toBeGreaterThan(0);
    expect(found).toBe(0);
  }, 60_000);

  it('open the gallery without an account, in listing order with the cover first, and count each view', async () => {
    // The photographer puts the front of the house first.
    const [kitchen, living, front] = order.keys;
    await saveSequence({
      order: (await getOrder(order.orderId))!,
      userId: photographer.uid,
      keys: [front!, kitchen!, living!],
      version: 0,
    });
    const link = await createLink(photographer, order.orderId);
    const first = await openShared(link.token);
    expect(first.status, first.text).toBe(200);
    expectShareHeaders(first.headers);
    const gallery = JSON.parse(first.text) as SharedGalleryView;
    expect(gallery.title).toBe('12 Oak Street');
    expect(gallery.photos.map((photo) => [photo.position, photo.entryName])).toEqual([
      [1, '01_12_Oak_Street_front.jpg'],
      [2, '02_12_Oak_Street_kitchen.jpg'],
      [3, '03_12_Oak_Street_living.jpg'],
    ]);
    expect(gallery.downloads.full).toEqual({ fileCount: 3 });
    expect(gallery.downloads.mls).toMatchObject({ longEdge: 2048 });
    expect(gallery.expiresAt).toBe(link.expiresAt);

    expect((await openShared(link.token)).status).toBe(200);
    const counted = (await listLinks(photographer, order.orderId)).find((l) => l.id === link.id)!;
    expect(counted.views).toBe(2);
    expect(counted.downloads).toBe(0);
    expect(Date.parse(counted.lastViewedAt!)).toBeGreaterThan(Date.now() - 60_000);
  });

  it("say nothing about price, requirements, editor or photographer, nor name any order's keys", async () => {
    const link = await createLink(photographer, order.orderId);
    const gallery = await openShared(link.token);
    const download = await downloadShared(link.token, 'full');
    const full = await getOrder(order.orderId);
    for (const [what, answer] of [
      ['the gallery', gallery.text],
      ['the download', download.text],
    ] as const) {
      const json = JSON.parse(answer) as Record<string, unknown>;
      for (const secret of [
        REQUIREMENTS,
        'Shira',
        'Sharer',
        'Edwina',
        photographer.uid,
        photographer.email,
        editor.uid,
        editor.email,
        '777',
        String(full!.totalAmountCents),
        'HDR',
        'Edited with care',
        link.id,
        link.token,
      ]) {
        expect(mentions(answer, secret), `${what} holds ${secret}`).toBe(false);
      }
      for (const key of ['price', 'pricePerPhotoCents', 'totalAmountCents', 'editor', 'photographer', 'email', 'key']) {
        expect(JSON.stringify(Object.keys(json)), `${what} has ${key}`).not.toContain(`"${key}"`);
      }
    }
    const view = JSON.parse(gallery.text) as SharedGalleryView;
    expect(Object.keys(view).sort()).toEqual(['business', 'downloads', 'expiresAt', 'photos', 'title']);
    // This photographer set no business name or logo.
    expect(view.business).toBeNull();
    for (const photo of view.photos) {
      expect(Object.keys(photo).sort()).toEqual(['entryName', 'position', 'previewUrl', 'thumbnailUrl']);
    }
    // The pictures are signed URLs of this order's own renditions; no stored key is named as such.
    for (const url of view.photos.flatMap((photo) => [photo.thumbnailUrl, photo.previewUrl])) {
      if (url) expect(new URL(url).pathname).toContain(order.orderId);
    }
    expect(gallery.text).not.toContain('"orders/');
  });

  it("show the photographer's business name and a short-lived logo URL, and nothing else of the account", async () => {
    const branded = await aPhotographer({ displayName: 'Brenda Branded' });
    const phone = '+15557654321';
    const profile = await as(branded).patch('/api/auth/profile', { phone, businessName: 'Lumen & Lens Studio' });
    expect(profile.status).toBe(200);
    const { key: logoKey } = await aSavedPicture(branded, 'logo');
    const { key: imageKey } = await aSavedPicture(branded, 'image', await aPng(200, 200));
    const brandedOrder = await aCompletedOrder({
      photographer: branded,
      editor,
      name: '7 Elm Court',
      filenames: ['porch.jpg'],
    });
    const link = await createLink(branded, brandedOrder.orderId);

    const gallery = await openShared(link.token);
    expect(gallery.status).toBe(200);
    const view = JSON.parse(gallery.text) as SharedGalleryView;
    expect(Object.keys(view.business!).sort()).toEqual(['logoUrl', 'name']);
    expect(view.business!.name).toBe('Lumen & Lens Studio');
    const logoUrl = new URL(view.business!.logoUrl!);
    expect(logoUrl.pathname).toContain(profilePictureSizeKeys(logoKey).largeKey);
    // Short-lived: a presigned GET that expires within a few hours.
    expect(Number(logoUrl.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(2 * 60 * 60);
    const fetched = await sendToS3(view.business!.logoUrl!, { method: 'GET' });
    expect(fetched.status).toBe(200);
    for (const secret of [
      branded.uid,
      branded.email,
      phone,
      '5557654321',
      'Brenda',
      'Branded',
      logoKey,
      imageKey,
      profilePictureSizeKeys(imageKey).smallKey,
      `profiles/${branded.uid}`,
    ]) {
      expect(mentions(gallery.text, secret), `the gallery holds ${secret}`).toBe(false);
    }
    for (const field of ['phone', 'email', 'userId', 'photographerId', 'profileImage', 'displayName']) {
      expect(gallery.text, field).not.toContain(`"${field}"`);
    }

    // Removing the logo takes it off the page at once; the name stays.
    expect((await as(branded).delete('/api/profile/logo')).status).toBe(200);
    const after = JSON.parse((await openShared(link.token)).text) as SharedGalleryView;
    expect(after.business).toEqual({ name: 'Lumen & Lens Studio', logoUrl: null });
  });

  it('hand over the full-resolution zip, counting each ready hand-over and no wait', async () => {
    const link = await createLink(photographer, order.orderId);
    const ready = await waitFor(
      () => downloadShared(link.token, 'full'),
      (answer) => answer.status !== 202,
      30_000,
    );
    expect(ready.status, ready.text).toBe(200);
    expectShareHeaders(ready.headers);
    const view = JSON.parse(ready.text) as Extract<CompletedDownloadView, { status: 'ready' }>;
    expect(view).toMatchObject({ status: 'ready', filename: '12_Oak_Street_edited_photos.zip', fileCount: 3 });
    const zip = await fetch(view.url);
    expect(zip.status).toBe(200);
    expect(
      Buffer.from(await zip.arrayBuffer())
        .subarray(0, 4)
        .toString('hex'),
    ).toBe('504b0304');

    expect((await downloadShared(link.token, 'full')).status).toBe(200);
    const counted = (await listLinks(photographer, order.orderId)).find((l) => l.id === link.id)!;
    expect(counted.downloads).toBe(2);
    expect(counted.views).toBe(0);
  }, 40_000);

  it('offer the MLS-ready zip as a download of its own, and no other kind', async () => {
    const link = await createLink(photographer, order.orderId);
    const mls = await downloadShared(link.token, 'mls');
    expect([200, 202], mls.text).toContain(mls.status);
    expectShareHeaders(mls.headers);
    if (mls.status === 200) expect(JSON.parse(mls.text).filename).toBe('12_Oak_Street_MLS_ready.zip');
    const other = await downloadShared(link.token, 'originals');
    expect(other.status).toBe(400);
  });

  it('answer one and the same 404 for an unknown, malformed, expired or revoked link', async () => {
    const expired = await createLink(photographer, order.orderId);
    await expire(expired.token);
    const revoked = await createLink(photographer, order.orderId);
    expect((await revoke(photographer, order.orderId, revoked.id)).status).toBe(200);
    const tokens = {
      unknown: randomBytes(32).toString('base64url'),
      malformed: 'not-a-token',
      'too long': 'A'.repeat(2000),
      expired: expired.token,
      revoked: revoked.token,
    };
    for (const [what, token] of Object.entries(tokens)) {
      for (const answer of [await openShared(token), await downloadShared(token, 'full')]) {
        expect(answer.status, what).toBe(404);
        expect(JSON.parse(answer.text), what).toEqual(unavailable);
        expectShareHeaders(answer.headers);
      }
    }
    // Refused opens count nothing.
    const links = await listLinks(photographer, order.orderId);
    for (const link of links.filter((l) => l.id === expired.id || l.id === revoked.id)) {
      expect([link.views, link.downloads]).toEqual([0, 0]);
    }
  });

  it('stop opening the moment they are revoked, stay revoked, and log both events', async () => {
    const link = await createLink(photographer, order.orderId);
    expect((await openShared(link.token)).status).toBe(200);
    const revoked = await revoke(photographer, order.orderId, link.id);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: link.id, status: 'revoked', views: 1 });
    expect(Date.parse((revoked.body as ShareLinkView).revokedAt!)).toBeGreaterThan(Date.now() - 60_000);
    expect((await openShared(link.token)).status).toBe(404);

    // Revoking again answers the link as it is; a revoked link gets no new expiry.
    const again = await revoke(photographer, order.orderId, link.id);
    expect(again.body).toEqual(revoked.body);
    const extended = await as(photographer).patch(`${linksOf(order.orderId)}/${link.id}`, {
      expiresInDays: 5,
    });
    expect(extended.status).toBe(409);
    expect(extended.body.message).toMatch(/revoked/);
    expect((await openShared(link.token)).status).toBe(404);

    const events = await waitFor(
      async () => (await db().orderEvent.query.byOrder({ orderId: order.orderId }).go({ pages: 'all' })).data,
      (found) => found.some((e) => e.eventType === 'share_link_revoked' && e.metadata?.linkId === link.id),
    );
    const mine = events.filter((e) => e.metadata?.linkId === link.id).map((e) => e.eventType);
    expect(mine.sort()).toEqual(['share_link_created', 'share_link_revoked']);
  });

  it('get a new expiry counted from now, which opens an expired link again', async () => {
    const link = await createLink(photographer, order.orderId, { expiresInDays: 1 });
    await expire(link.token);
    expect((await openShared(link.token)).status).toBe(404);
    expect((await listLinks(photographer, order.orderId)).find((l) => l.id === link.id)?.status).toBe('expired');

    const before = Date.now();
    const extended = await as(photographer).patch(`${linksOf(order.orderId)}/${link.id}`, {
      expiresInDays: 7,
    });
    expect(extended.status).toBe(200);
    expect(extended.body).toMatchObject({ id: link.id, status: 'active' });
    const days = (Date.parse(extended.body.expiresAt) - before) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThan(7.01);
    expect((await openShared(link.token)).status).toBe(200);

    for (const expiresInDays of [0, 366, 1.5, '7']) {
      const refused = await as(photographer).patch(`${linksOf(order.orderId)}/${link.id}`, {
        expiresInDays,
      });
      expect(refused.status, String(expiresInDays)).toBe(400);
    }
  });

  it('can be made again after a revocation: the new link opens, the old one stays closed', async () => {
    const old = await createLink(photographer, order.orderId);
    await revoke(photographer, order.orderId, old.id);
    const reissued = await createLink(photographer, order.orderId);
    expect(reissued.token).not.toBe(old.token);
    expect(reissued.id).not.toBe(old.id);
    expect((await openShared(reissued.token)).status).toBe(200);
    expect((await openShared(old.token)).status).toBe(404);
  });

  it(`allow ${SHARE_LINKS_PER_ORDER_MAX} live links an order, even when made all at once`, async () => {
    const busy = await aCompletedOrder({ photographer, editor, filenames: ['hall.jpg'] });
    const attempts = await Promise.all(
      Array.from({ length: SHARE_LINKS_PER_ORDER_MAX + 3 }, () => as(photographer).post(linksOf(busy.orderId), {})),
    );
    expect(attempts.filter((a) => a.status === 201)).toHaveLength(SHARE_LINKS_PER_ORDER_MAX);
    const refused = attempts.filter((a) => a.status === 409);
    expect(refused).toHaveLength(3);
    for (const answer of refused) {
      expect(answer.body.message).toBe(
        `This order already has ${SHARE_LINKS_PER_ORDER_MAX} active share links. Revoke one before making another.`,
      );
    }
    const links = await listLinks(photographer, busy.orderId);
    expect(links).toHaveLength(SHARE_LINKS_PER_ORDER_MAX);
    // Newest first.
    expect(links.map((l) => l.id)).toEqual([...links.map((l) => l.id)].sort().reverse());

    await revoke(photographer, busy.orderId, links[0]!.id);
    await createLink(photographer, busy.orderId);
    expect((await as(photographer).post(linksOf(busy.orderId), {})).status).toBe(409);
  }, 60_000);

  it('open expired links again only while a place is free, even when asked for at once, and beside a creation', async () => {
    const busy = await aCompletedOrder({ photographer, editor, filenames: ['porch.jpg'] });
    const expired = [];
    for (let i = 0; i < 3; i += 1) {
      const link = await createLink(photographer, busy.orderId);
      await expire(link.token);
      expired.push(link);
    }
    for (let i = 0; i < SHARE_LINKS_PER_ORDER_MAX - 1; i += 1) await createLink(photographer, busy.orderId);
    // One place left: two revivals and a creation race for it.
    const answers = await Promise.all([
      as(photographer).patch(`${linksOf(busy.orderId)}/${expired[0]!.id}`, { expiresInDays: 7 }),
      as(photographer).patch(`${linksOf(busy.orderId)}/${expired[1]!.id}`, { expiresInDays: 7 }),
      as(photographer).post(linksOf(busy.orderId), {}),
    ]);
    expect(answers.filter((a) => a.status === 200 || a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(2);
    const live = (await listLinks(photographer, busy.orderId)).filter((l) => l.status === 'active');
    expect(live).toHaveLength(SHARE_LINKS_PER_ORDER_MAX);
    // Full: the third expired link stays closed.
    const third = await as(photographer).patch(`${linksOf(busy.orderId)}/${expired[2]!.id}`, { expiresInDays: 7 });
    expect(third.status).toBe(409);
  }, 60_000);

  it('are refused for an order not completed, and close while the order is back with its editor', async () => {
    const revising = await aCompletedOrder({ photographer, editor, name: 'Birch Lane', filenames: ['den.jpg'] });
    const link = await createLink(photographer, revising.orderId);
    expect((await openShared(link.token)).status).toBe(200);
    const revision = await as(photographer).post(`/api/orders/${revising.orderId}/revisions`, {
      note: 'Brighten the den, please.',
    });
    expect(revision.status, JSON.stringify(revision.body)).toBe(201);
    const closed = await openShared(link.token);
    expect(closed.status).toBe(404);
    expect(JSON.parse(closed.text)).toEqual(unavailable);
    const refused = await as(photographer).post(linksOf(revising.orderId), {});
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('A share link can be made once the order is completed');
  });

  it("are the order's photographer's alone: another photographer is told the order does not exist", async () => {
    const link = await createLink(photographer, order.orderId);
    expect((await as(otherPhotographer).get(linksOf(order.orderId))).status).toBe(404);
    expect((await as(otherPhotographer).post(linksOf(order.orderId), {})).status).toBe(404);
    expect((await revoke(otherPhotographer, order.orderId, link.id)).status).toBe(404);
    expect((await openShared(link.token)).status).toBe(200);
    // A link id of another order is not found under this one.
    const elsewhere = await aCompletedOrder({ photographer, editor, filenames: ['yard.jpg'] });
    expect((await revoke(photographer, elsewhere.orderId, link.id)).status).toBe(404);
    expect((await openShared(link.token)).status).toBe(200);
  });
});
