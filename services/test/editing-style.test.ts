import { randomUUID } from 'node:crypto';
import {
  defaultEditingStyle,
  type EditingStyle,
  type EditingStyleView,
  editingStyleMessages,
  styleReferencePrefix,
} from '@marketplace/events/editing-style';
import type { AvailableOrdersResponse } from '@marketplace/events/editor-orders';
import type { CreateOrderResponse, OrderDetailView } from '@marketplace/events/orders';
import { describe, expect, it } from 'vitest';
import { aPng, sendToS3 } from './profile-pictures';
import { stripe } from './stripe-sdk';
import { anEditor, aPhotographer, as, db, type TestAccount } from './support';

/** The editing style: saved on the profile, sent with each order, kept by the order as it was when made. */

const savedStyleOf = async (account: TestAccount) =>
  ((await db().user.get({ userId: account.uid }).go({ consistent: true })).data as { editingStyle?: EditingStyle })
    ?.editingStyle;

/** A reference photo sent straight to S3 as the browser sends it: signed by the API under the photographer's folder. */
const uploadReference = async (account: TestAccount, filename = 'look.png') => {
  const bytes = await aPng(120, 80);
  const key = `${styleReferencePrefix(account.uid)}${randomUUID()}-${filename}`;
  const signed = await as(account).post('/api/profile/editing-style/references/sign', {
    method: 'PUT',
    key,
    contentType: 'image/png',
    size: bytes.length,
  });
  expect(signed.status, JSON.stringify(signed.body)).toBe(200);
  const put = await sendToS3(signed.body.url, { method: 'PUT', headers: signed.body.headers, body: bytes });
  expect(put.status).toBe(200);
  return { key, filename };
};

const aStyle = (fields: Partial<EditingStyle> = {}): EditingStyle => ({
  ...defaultEditingStyle,
  sky: 'blue-clouds',
  windowPull: true,
  hdrLook: 'bright-airy',
  notes: 'Keep the warm lamps on.',
  ...fields,
});

const ordersOf = async (account: TestAccount) => (await as(account).get('/api/orders/my')).body.total as number;

const createAndPay = async (photographer: TestAccount, body: Record<string, unknown>) => {
  const created = await as(photographer).post('/api/orders', { jobTypeId: 'hdr', photoCount: 2, ...body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const { order } = created.body as CreateOrderResponse;
  await (await stripe()).paymentIntents.confirm(order.stripePaymentIntentId, { payment_method: 'pm_card_visa' });
  const paid = await as(photographer).post(`/api/orders/${order.id}/payment-success`, {
    paymentIntentId: order.stripePaymentIntentId,
  });
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  return order.id;
};

describe('GET and PUT /api/profile/editing-style', () => {
  it('starts from the default, then saves the choices and reference photos, shown with working links', async () => {
    const photographer = await aPhotographer();
    const first = await as(photographer).get('/api/profile/editing-style');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ style: defaultEditingStyle, referencePhotos: [], saved: false });

    const photo = await uploadReference(photographer);
    const style = aStyle({ referencePhotos: [photo] });
    const saved = await as(photographer).put('/api/profile/editing-style', style);

    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const view = saved.body as EditingStyleView;
    expect(view).toMatchObject({ style, saved: true });
    expect((await sendToS3(view.referencePhotos[0]!.url, { method: 'GET' })).status).toBe(200);
    expect((await as(photographer).get('/api/profile/editing-style')).body.style).toEqual(style);
  });

  it('refuses a sixth reference photo, an unknown choice or too long notes with a 400 that saves nothing', async () => {
    const photographer = await aPhotographer();
    const kept = aStyle();
    expect((await as(photographer).put('/api/profile/editing-style', kept)).status).toBe(200);
    const six = Array.from({ length: 6 }, (_, i) => ({
      key: `${styleReferencePrefix(photographer.uid)}p${i}.png`,
      filename: `p${i}.png`,
    }));

    const tooMany = await as(photographer).put(
      '/api/profile/editing-style',
      aStyle({ referencePhotos: six, notes: 'x' }),
    );
    const badSky = await as(photographer).put('/api/profile/editing-style', { ...aStyle(), sky: 'purple' });
    const longNotes = await as(photographer).put('/api/profile/editing-style', aStyle({ notes: 'n'.repeat(1001) }));
    const extra = await as(photographer).put('/api/profile/editing-style', { ...aStyle(), priceCents: 1 });

    for (const refused of [tooMany, badSky, longNotes, extra]) expect(refused.status).toBe(400);
    expect(JSON.stringify(tooMany.body)).toContain(editingStyleMessages.tooManyPhotos);
    expect(JSON.stringify(badSky.body)).toContain(editingStyleMessages.sky);
    expect(JSON.stringify(longNotes.body)).toContain(editingStyleMessages.notes);
    expect(await savedStyleOf(photographer)).toEqual(kept);
  });

  it("refuses a reference photo that is not in the photographer's own folder or never arrived", async () => {
    const photographer = await aPhotographer();
    const other = await aPhotographer();
    const theirs = await uploadReference(other);

    const foreign = await as(photographer).put('/api/profile/editing-style', aStyle({ referencePhotos: [theirs] }));
    const missing = await as(photographer).put(
      '/api/profile/editing-style',
      aStyle({
        referencePhotos: [{ key: `${styleReferencePrefix(photographer.uid)}never.png`, filename: 'never.png' }],
      }),
    );

    expect(foreign.status).toBe(403);
    expect(missing.status).toBe(404);
    expect(await savedStyleOf(photographer)).toBeUndefined();
  });

  it('is for photographers only', async () => {
    const editor = await anEditor();
    expect((await as(editor).get('/api/profile/editing-style')).status).toBe(403);
    expect((await as(editor).put('/api/profile/editing-style', aStyle())).status).toBe(403);
  });
});

describe("an order's editing style", () => {
  it('starts from the saved style, may be changed for the order, and stays as paid whatever changes later', async () => {
    const photographer = await aPhotographer();
    const photo = await uploadReference(photographer);
    const saved = aStyle({ referencePhotos: [photo] });
    expect((await as(photographer).put('/api/profile/editing-style', saved)).status).toBe(200);

    const fromProfile = await createAndPay(photographer, {});
    const changed = { ...saved, sky: 'sunset' as const, lawnGreening: true };
    const forThisOrder = await createAndPay(photographer, { editingStyle: changed });

    // The profile changes afterwards: new choices, the reference photo replaced by another.
    const replacement = await uploadReference(photographer, 'other.png');
    const later = aStyle({ sky: 'keep', hdrLook: 'natural', referencePhotos: [replacement] });
    expect((await as(photographer).put('/api/profile/editing-style', later)).status).toBe(200);

    const first = (await as(photographer).get(`/api/orders/${fromProfile}`)).body as OrderDetailView;
    const second = (await as(photographer).get(`/api/orders/${forThisOrder}`)).body as OrderDetailView;
    expect(first.status).toBe('paid');
    expect(first.editingStyle).toEqual(saved);
    expect(second.editingStyle).toEqual(changed);
    // The reference photo the order keeps still opens after the profile replaced it.
    const kept = (await as(photographer).get(`/api/orders/${fromProfile}/editing-style`)).body as EditingStyleView;
    expect(kept.referencePhotos.map((p) => p.key)).toEqual([photo.key]);
    expect((await sendToS3(kept.referencePhotos[0]!.url, { method: 'GET' })).status).toBe(200);
  });

  it('refuses a bad style, or a reference photo the profile does not hold, with a 400 that creates no order', async () => {
    const photographer = await aPhotographer();
    const other = await aPhotographer();
    const theirs = await uploadReference(other);
    const before = await ordersOf(photographer);

    const badChoice = await as(photographer).post('/api/orders', {
      jobTypeId: 'hdr',
      photoCount: 2,
      editingStyle: { ...aStyle(), tvScreens: 'on' },
    });
    const tooMany = await as(photographer).post('/api/orders', {
      jobTypeId: 'hdr',
      photoCount: 2,
      editingStyle: aStyle({
        referencePhotos: Array.from({ length: 6 }, (_, i) => ({ key: `${theirs.key}${i}`, filename: 'x.png' })),
      }),
    });
    const notSaved = await as(photographer).post('/api/orders', {
      jobTypeId: 'hdr',
      photoCount: 2,
      editingStyle: aStyle({ referencePhotos: [theirs] }),
    });

    expect(badChoice.status).toBe(400);
    expect(JSON.stringify(badChoice.body)).toContain(editingStyleMessages.tvScreens);
    expect(tooMany.status).toBe(400);
    expect(notSaved.status).toBe(400);
    expect(notSaved.body.message).toBe(editingStyleMessages.notYours);
    expect(await ordersOf(photographer)).toBe(before);
  });

  it('is shown to editors (the card and the pool line) and to no other photographer', async () => {
    const photographer = await aPhotographer();
    const stranger = await aPhotographer();
    const editor = await anEditor();
    const style = aStyle({ fireplaceFire: true, notes: 'No people in mirrors.' });
    expect((await as(photographer).put('/api/profile/editing-style', style)).status).toBe(200);
    const orderId = await createAndPay(photographer, {});

    const card = await as(editor).get(`/api/orders/${orderId}/editing-style`);
    expect(card.status).toBe(200);
    expect(card.body).toMatchObject({ style, saved: true });
    const detail = (await as(editor).get(`/api/orders/${orderId}`)).body as OrderDetailView;
    expect(detail.editingStyle).toEqual(style);
    const pool = (await as(editor).get('/api/orders/available?sort=newest&limit=50')).body as AvailableOrdersResponse;
    const listed = pool.orders.find((o) => o.id === orderId);
    expect(listed?.editingStyleSummary).toBe(
      'Blue sky with clouds · Bright and airy · neutral white balance · TVs black · window pull · fire in fireplaces · verticals straightened',
    );

    expect((await as(stranger).get(`/api/orders/${orderId}/editing-style`)).status).toBe(404);
    expect((await as(stranger).get(`/api/orders/${orderId}`)).status).toBe(404);
  });
});
