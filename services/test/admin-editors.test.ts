import type { AdminEditorView, EditorPayoutsResponse } from '@marketplace/events/admin';
import { ulid } from 'ulid';
import { beforeAll, describe, expect, it } from 'vitest';
import { setEditorRate } from '../src/data/editor-rates';
import { completeOrder, createOrder, getOrder, markOrderPaid, nextOrderNumber, rateOrder } from '../src/data/orders';
import { listEditorPayouts, recordEditorPayout } from '../src/data/payouts';
import { recordPayout } from '../src/ops/payouts';
import { aPhotographer, as, aUserWithRoles, call, db, type TestAccount, uniqueEmail } from './support';

const send = (account: TestAccount | null, method: string, path: string, body?: unknown) =>
  call(path, { method, ...(account ? { token: account.token } : {}), ...(body === undefined ? {} : { body }) });

let admin: TestAccount;
let photographer: TestAccount;
let jobTypes: { id: string; name: string; description: string | null }[];

beforeAll(async () => {
  [admin, photographer] = await Promise.all([aUserWithRoles(['admin']), aPhotographer({ displayName: 'Pat Shoot' })]);
  jobTypes = (await as(admin).get('/api/orders/job-types')).body;
});

const jobType = (name: string) => jobTypes.find((j) => j.name === name)!;

/** The newest hundred: other test files add editors to the shared table meanwhile. */
const listEditors = async () => {
  const response = await as(admin).get('/api/admin/editors?limit=100');
  expect(response.status).toBe(200);
  return response.body.editors as AdminEditorView[];
};

const ratesOf = (editor: AdminEditorView | undefined) =>
  Object.fromEntries((editor?.rates ?? []).map((r) => [r.jobTypeName, r.ratePerPhotoCents]));

/**
 * An order this editor claimed `hoursAgo` hours ago and has just delivered, at $10.00 a photo for
 * three photos ($30.00 earned), rated `rating` by the photographer when given.
 */
const aCompletedOrder = async (editor: TestAccount, { hoursAgo, rating }: { hoursAgo: number; rating?: number }) => {
  const orderId = ulid();
  const hdr = jobType('HDR');
  await setEditorRate({ editorId: editor.uid, jobTypeId: hdr.id, ratePerPhotoCents: 1000 });
  await createOrder({
    orderId,
    orderNumber: await nextOrderNumber(),
    photographer: { userId: photographer.uid, name: 'Pat Shoot' },
    jobType: { jobTypeId: hdr.id, name: hdr.name, pricePerPhotoCents: 800 },
    input: { photoCount: 3 },
    totalAmountCents: 2400,
    stripePaymentIntentId: `pi_test_${orderId}`,
  });
  await markOrderPaid({ orderId, paymentIntentId: `pi_test_${orderId}`, amountCents: 2400, via: 'client' });
  expect((await as(editor).post(`/api/orders/${orderId}/claim`)).status).toBe(200);
  const claimedAt = new Date(Date.now() - hoursAgo * 3600_000).toISOString();
  await db().order.patch({ orderId }).set({ claimedAt }).go();
  await db().order.update({ orderId }).add({ editorUploadCount: 1 }).go();
  await completeOrder({ orderId, editorId: editor.uid });
  if (rating !== undefined) await rateOrder({ order: (await getOrder(orderId))!, rating });
  return orderId;
};

describe('who may manage editors', () => {
  it('refuses every editor route to anonymous callers (401), photographers and editors (403)', async () => {
    const [editor, other] = await Promise.all([aUserWithRoles(['editor']), aPhotographer()]);
    const rates = { jobTypeRates: [{ jobTypeId: jobType('HDR').id, ratePerPhotoCents: 999 }] };
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/admin/editors'],
      ['PATCH', `/api/admin/editors/${editor.uid}/rates`, rates],
      ['PUT', `/api/admin/editors/${editor.uid}/rates`, rates],
      ['GET', `/api/admin/editors/${editor.uid}/stats`],
      ['GET', `/api/admin/editors/${editor.uid}/payouts`],
      ['POST', `/api/admin/editors/${editor.uid}/payouts`, { amountCents: 100 }],
    ];
    for (const [method, path, body] of routes) {
      expect((await send(null, method, path, body)).status, `${method} ${path}`).toBe(401);
      expect((await send(other, method, path, body)).status, `${method} ${path}`).toBe(403);
      expect((await send(editor, method, path, body)).status, `${method} ${path}`).toBe(403);
    }
    expect((await db().editorRate.query.byEditor({ editorId: editor.uid }).go()).data).toHaveLength(0);
  });
});

describe('the editor list', () => {
  it('lists editors and invited editors with their rates, job type names and payout totals', async () => {
    const editor = await aUserWithRoles(['editor'], { displayName: 'Eli Lister' });
    await setEditorRate({ editorId: editor.uid, jobTypeId: jobType('HDR').id, ratePerPhotoCents: 275 });
    const email = uniqueEmail('invitee');
    const invited = await as(admin).post('/api/admin/invite-editor', {
      email,
      displayName: 'Ivo Invited',
      jobTypeRates: [{ jobTypeId: jobType('Sky Replacement').id, ratePerPhotoCents: 225 }],
    });
    expect(invited.status).toBe(201);

    const editors = await listEditors();

    const listed = editors.find((e) => e.id === editor.uid);
    expect(listed).toMatchObject({
      email: editor.email,
      displayName: 'Eli Lister',
      status: 'verified',
      isActive: true,
      pendingPayoutCents: 0,
      paidOutCents: 0,
    });
    expect(listed?.rates).toEqual([
      {
        id: expect.any(String),
        jobTypeId: jobType('HDR').id,
        jobTypeName: 'HDR',
        jobTypeDescription: jobType('HDR').description,
        ratePerPhotoCents: 275,
      },
    ]);
    expect(editors.find((e) => e.id === invited.body.user.id)).toMatchObject({
      email,
      status: 'invited',
      invitedAt: expect.any(String),
    });
    expect(ratesOf(editors.find((e) => e.id === invited.body.user.id))).toEqual({ 'Sky Replacement': 225 });
    expect(editors.some((e) => e.id === photographer.uid)).toBe(false);
  });
});

describe("an editor's rates", () => {
  it('sets the listed rates and keeps the others with PATCH, and replaces them all with PUT', async () => {
    const editor = await aUserWithRoles(['editor']);
    const path = `/api/admin/editors/${editor.uid}/rates`;
    await setEditorRate({ editorId: editor.uid, jobTypeId: jobType('HDR').id, ratePerPhotoCents: 300 });
    await setEditorRate({ editorId: editor.uid, jobTypeId: jobType('Sky Replacement').id, ratePerPhotoCents: 200 });

    const patched = await send(admin, 'PATCH', path, {
      jobTypeRates: [
        { jobTypeId: jobType('HDR').id, ratePerPhotoCents: 350 },
        { jobTypeId: jobType('Object Removal').id, ratePerPhotoCents: 450 },
      ],
    });

    expect(patched.status).toBe(200);
    expect(patched.body.id).toBe(editor.uid);
    expect(ratesOf(patched.body)).toEqual({ HDR: 350, 'Object Removal': 450, 'Sky Replacement': 200 });

    const replaced = await send(admin, 'PUT', path, {
      jobTypeRates: [{ jobTypeId: jobType('Sky Replacement').id, ratePerPhotoCents: 250 }],
    });

    expect(replaced.status).toBe(200);
    expect(ratesOf(replaced.body)).toEqual({ 'Sky Replacement': 250 });
    expect((await db().editorRate.query.byEditor({ editorId: editor.uid }).go()).data).toHaveLength(1);
    expect(ratesOf((await listEditors()).find((e) => e.id === editor.uid))).toEqual({ 'Sky Replacement': 250 });
  });

  it('refuses an unknown job type (400) or someone who is not an editor (404) and changes nothing', async () => {
    const editor = await aUserWithRoles(['editor']);
    await setEditorRate({ editorId: editor.uid, jobTypeId: jobType('HDR').id, ratePerPhotoCents: 300 });

    const unknown = await send(admin, 'PUT', `/api/admin/editors/${editor.uid}/rates`, {
      jobTypeRates: [{ jobTypeId: 'no-such-job-type', ratePerPhotoCents: 100 }],
    });
    const twice = await send(admin, 'PATCH', `/api/admin/editors/${editor.uid}/rates`, {
      jobTypeRates: [
        { jobTypeId: jobType('HDR').id, ratePerPhotoCents: 100 },
        { jobTypeId: jobType('HDR').id, ratePerPhotoCents: 200 },
      ],
    });
    const notEditor = await send(admin, 'PATCH', `/api/admin/editors/${photographer.uid}/rates`, {
      jobTypeRates: [{ jobTypeId: jobType('HDR').id, ratePerPhotoCents: 100 }],
    });

    expect(unknown.status).toBe(400);
    expect(twice.status).toBe(400);
    expect(notEditor.status).toBe(404);
    expect(ratesOf((await listEditors()).find((e) => e.id === editor.uid))).toEqual({ HDR: 300 });
    expect((await db().editorRate.query.byEditor({ editorId: photographer.uid }).go()).data).toHaveLength(0);
  });
});

describe("an editor's stats", () => {
  it('averages the rating and the claim-to-delivery hours of completed orders', async () => {
    const editor = await aUserWithRoles(['editor']);
    await aCompletedOrder(editor, { hoursAgo: 3, rating: 9 });
    await aCompletedOrder(editor, { hoursAgo: 6, rating: 8 });
    await aCompletedOrder(editor, { hoursAgo: 1.5 });

    const response = await as(admin).get(`/api/admin/editors/${editor.uid}/stats`);

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      averageRating: 8.5,
      ratingCount: 2,
      averageTurnaroundHours: 3.5,
      completedOrders: 3,
      activeOrders: 0,
    });
  });

  it('shows no rating and no turnaround for an editor without completed orders', async () => {
    const editor = await aUserWithRoles(['editor']);
    expect((await as(admin).get(`/api/admin/editors/${editor.uid}/stats`)).body).toEqual({
      averageRating: null,
      ratingCount: 0,
      averageTurnaroundHours: null,
      completedOrders: 0,
      activeOrders: 0,
    });
    expect((await as(admin).get('/api/admin/editors/no-such-editor/stats')).status).toBe(404);
  });
});

describe("an editor's payouts", () => {
  it('pays from what is pending, books the same payout id once and lists the history newest first', async () => {
    const editor = await aUserWithRoles(['editor']);
    await aCompletedOrder(editor, { hoursAgo: 2 });
    const path = `/api/admin/editors/${editor.uid}/payouts`;
    const payoutId = ulid();

    const first = await send(admin, 'POST', path, { amountCents: 1000, note: 'March', payoutId });
    const retried = await send(admin, 'POST', path, { amountCents: 1000, note: 'March', payoutId });
    const second = await send(admin, 'POST', path, { amountCents: 500 });

    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      id: payoutId,
      amountCents: 1000,
      note: 'March',
      recordedBy: expect.any(String),
    });
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual(first.body);
    expect(second.status).toBe(201);
    const history = (await as(admin).get(path)).body as EditorPayoutsResponse;
    expect(history.payouts.map((p) => p.amountCents)).toEqual([500, 1000]);
    expect(history).toMatchObject({ pendingPayoutCents: 1500, paidOutCents: 1500 });
    expect((await as(editor).get('/api/stats/editor')).body).toMatchObject({
      pendingPayouts: 1500,
      totalEarnings: 3000,
    });
    expect((await listEditors()).find((e) => e.id === editor.uid)).toMatchObject({
      pendingPayoutCents: 1500,
      paidOutCents: 1500,
    });
  });

  it('refuses more than is pending with the amount pending, and books nothing', async () => {
    const editor = await aUserWithRoles(['editor']);
    await aCompletedOrder(editor, { hoursAgo: 2 });
    const path = `/api/admin/editors/${editor.uid}/payouts`;

    const refused = await send(admin, 'POST', path, { amountCents: 3001 });
    const cents = await send(admin, 'POST', path, { amountCents: 10.5 });

    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Cannot pay more than the pending $30.00');
    expect(cents.status).toBe(400);
    expect((await as(admin).get(path)).body).toEqual({
      payouts: [],
      pendingPayoutCents: 3000,
      paidOutCents: 0,
      nextCursor: null,
    });
  });

  it('lets two admins paying at once never pay more than is pending', async () => {
    const editor = await aUserWithRoles(['editor']);
    await aCompletedOrder(editor, { hoursAgo: 2 });
    const path = `/api/admin/editors/${editor.uid}/payouts`;

    const results = await Promise.all([1, 2, 3].map(() => send(admin, 'POST', path, { amountCents: 2000 })));

    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(2);
    expect((await as(admin).get(path)).body).toMatchObject({ pendingPayoutCents: 1000, paidOutCents: 2000 });
  });

  it('shows payouts booked by the ops command in the same history, older counter entries included', async () => {
    const editor = await aUserWithRoles(['editor']);
    await aCompletedOrder(editor, { hoursAgo: 2 });
    const yesterday = Date.now() - 24 * 3600_000;
    // A payout booked before payouts had their own item: a counter entry named by its id.
    await db()
      .counter.create({ scope: `payouts#${editor.uid}`, name: ulid(yesterday), value: 300 })
      .go();

    await recordPayout({ email: editor.email, amountCents: 700, payoutId: `ops-${ulid()}` });

    const history = await listEditorPayouts(editor.uid, { limit: 20 });
    expect(history.payouts).toEqual([
      {
        id: expect.stringMatching(/^ops-/),
        amountCents: 700,
        paidAt: expect.any(String),
        note: null,
        recordedBy: null,
      },
      {
        id: expect.any(String),
        amountCents: 300,
        paidAt: new Date(yesterday).toISOString(),
        note: null,
        recordedBy: null,
      },
    ]);
    expect(history.pendingPayoutCents).toBe(2300);
  });

  it('pages a long history through the cursors, newest first, legacy entries merged in by time', async () => {
    const editor = await aUserWithRoles(['editor']);
    await aCompletedOrder(editor, { hoursAgo: 2 });
    const start = Date.now() - 90 * 24 * 3600_000;
    // 40 payouts a day apart, every fifth one a legacy counter entry; 1 cent each of the $30.00 pending.
    const ids = Array.from({ length: 40 }, (_, day) => ulid(start + day * 24 * 3600_000));
    for (const [day, payoutId] of ids.entries()) {
      if (day % 5 === 0) {
        await db()
          .counter.create({ scope: `payouts#${editor.uid}`, name: payoutId, value: 1 })
          .go();
      } else {
        await recordEditorPayout({ editorId: editor.uid, amountCents: 1, payoutId });
      }
    }
    const path = `/api/admin/editors/${editor.uid}/payouts?limit=7`;

    const walked: string[] = [];
    let page = (await as(admin).get(path)).body as EditorPayoutsResponse;
    walked.push(...page.payouts.map((p) => p.id));
    while (page.nextCursor) {
      expect(page.payouts).toHaveLength(7);
      page = (await as(admin).get(`${path}&cursor=${page.nextCursor}`)).body as EditorPayoutsResponse;
      walked.push(...page.payouts.map((p) => p.id));
    }

    expect(walked).toEqual([...ids].reverse());
    expect((await as(admin).get(`${path}&cursor=not-a-cursor`)).status).toBe(400);
  });
});
