import { randomUUID } from 'node:crypto';
import { LIVE_PATH, type LiveMessage, type PushRequest } from '@marketplace/events/live-updates';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { announce } from '../src/adapters/live-updates';
import { saveConnection } from '../src/data/live-connections';
import { markOrderPaid } from '../src/data/orders';
import { handler as pushUpdates } from '../src/workers/push-updates';
import { PRICE_PER_PHOTO_CENTS } from './race-builders';
import {
  aDataLayerOrder,
  aNewAccount,
  aPhotographer,
  as,
  aUserWithRoles,
  db,
  forgedToken,
  sqsEvent,
  type TestAccount,
  waitFor,
} from './support';

/**
 * Live updates end to end on the local stack: the live gateway runs the real authorizer and
 * $connect/$disconnect handlers, the order writes go through the outbox, the stream, the event-log
 * worker and the push worker, and each test listens on real sockets.
 */
const liveUrl = () => `${process.env.LIVE_ENDPOINT!.replace(/^http/, 'ws')}${LIVE_PATH}`;

interface Listener {
  socket: WebSocket;
  messages: LiveMessage[];
  /** Date.now() of each message, in step with `messages`. */
  times: number[];
  closed: Promise<number>;
}

/** Opens a socket as the gateway's browser would; rejects with the HTTP status of a refused upgrade. */
const listen = (token: string | null) =>
  new Promise<Listener>((resolve, reject) => {
    const url = token === null ? liveUrl() : `${liveUrl()}?token=${encodeURIComponent(token)}`;
    const socket = new WebSocket(url);
    const messages: LiveMessage[] = [];
    const times: number[] = [];
    const closed = new Promise<number>((done) => socket.on('close', (code) => done(code)));
    socket.on('message', (data) => {
      messages.push(JSON.parse(data.toString()) as LiveMessage);
      times.push(Date.now());
    });
    socket.on('open', () => resolve({ socket, messages, times, closed }));
    socket.on('unexpected-response', (_request, response) => reject(new Error(String(response.statusCode))));
    socket.on('error', (error) => reject(error));
  });

const refusal = (token: string | null) =>
  listen(token).then(
    (listener) => {
      listener.socket.close();
      return 'connected';
    },
    (error: Error) => error.message,
  );

const about = (orderId: string) => (listener: Listener) =>
  listener.messages.filter((message) => 'orderId' in message && message.orderId === orderId);

const heard = (listener: Listener, expected: Partial<LiveMessage>) =>
  waitFor(
    async () => listener.messages,
    (messages) =>
      messages.some((message) => Object.entries(expected).every(([k, v]) => message[k as keyof LiveMessage] === v)),
    10_000,
  ).then((messages) => expect(messages).toContainEqual(expect.objectContaining(expected)));

const anUnpaidOrder = async (photographer: TestAccount) =>
  (await aDataLayerOrder(photographer, { photographerName: 'Lena Live' })).orderId;

const settle = (ms = 1_500) => new Promise((resolve) => setTimeout(resolve, ms));

const opened: Listener[] = [];
const open = async (account: { token: string }) => {
  const listener = await listen(account.token);
  opened.push(listener);
  return listener;
};
afterAll(() => {
  for (const listener of opened) listener.socket.close();
});

describe('connecting to live updates', () => {
  it('lets a valid token of an active account in, and refuses a missing, malformed, forged or expired one (401)', async () => {
    const photographer = await aPhotographer();
    expect(await refusal(photographer.token)).toBe('connected');
    const now = Math.floor(Date.now() / 1000);
    expect(await refusal(null)).toBe('401');
    expect(await refusal('not-a-token')).toBe('401');
    expect(await refusal(forgedToken({ sub: photographer.uid, aud: 'someone-elses-project' }))).toBe('401');
    expect(
      await refusal(
        forgedToken({ sub: photographer.uid, iss: 'https://securetoken.google.com/someone-elses-project' }),
      ),
    ).toBe('401');
    expect(await refusal(forgedToken({ sub: photographer.uid, exp: now - 60 }))).toBe('401');
  });

  it('refuses the token of a deleted or suspended account, and of one with no record yet (403)', async () => {
    const admin = await aUserWithRoles(['admin']);
    const [deleted, suspended] = await Promise.all([aPhotographer(), aPhotographer()]);
    expect((await as(admin).delete(`/api/admin/users/${deleted.uid}`)).status).toBe(200);
    expect((await as(admin).patch(`/api/admin/users/${suspended.uid}/deactivate`)).status).toBe(200);
    expect(await refusal(deleted.token)).toBe('403');
    expect(await refusal(suspended.token)).toBe('403');
    const stranger = await aNewAccount();
    expect(await refusal(stranger.token)).toBe('403');
  });

  it('stores the connection with its user and roles, and forgets it at disconnect', async () => {
    const editor = await aUserWithRoles(['editor', 'admin']);
    const listener = await listen(editor.token);
    const stored = await waitFor(
      async () => (await db().liveConnection.query.byUser({ userId: editor.uid }).go()).data,
      (rows) => rows.length === 1,
    );
    expect(stored).toEqual([
      expect.objectContaining({ userId: editor.uid, roles: ['editor', 'admin'], isEditor: 'editor', isAdmin: 'admin' }),
    ]);
    expect(stored[0]!.expiresAt).toBeGreaterThan(Date.now() / 1000 + 60 * 60);
    listener.socket.close();
    const after = await waitFor(
      async () => (await db().liveConnection.query.byUser({ userId: editor.uid }).go()).data,
      (rows) => rows.length === 0,
    );
    expect(after).toEqual([]);
  });
});

describe('who hears of a change', () => {
  let owner: TestAccount;
  let otherPhotographer: TestAccount;
  let claimer: TestAccount;
  let otherEditor: TestAccount;
  let admin: TestAccount;
  const listeners = {} as Record<'owner' | 'otherPhotographer' | 'claimer' | 'otherEditor' | 'admin', Listener>;

  beforeAll(async () => {
    [owner, otherPhotographer, claimer, otherEditor, admin] = await Promise.all([
      aPhotographer(),
      aPhotographer(),
      aUserWithRoles(['editor']),
      aUserWithRoles(['editor']),
      aUserWithRoles(['admin']),
    ]);
    const [a, b, c, d, e] = await Promise.all([owner, otherPhotographer, claimer, otherEditor, admin].map(open));
    Object.assign(listeners, { owner: a, otherPhotographer: b, claimer: c, otherEditor: d, admin: e });
  });

  it('tells each change to exactly those who may see it, as the order goes from unpaid to claimed', async () => {
    // Unpaid: its photographer and the admins; no editor hears of it.
    const orderId = await anUnpaidOrder(owner);
    await heard(listeners.owner, { type: 'order.changed', orderId, status: 'pending_payment' });
    await heard(listeners.admin, { type: 'order.changed', orderId, status: 'pending_payment' });

    // Paid: the open pool changed, which every editor hears without the order's id.
    const poolBefore = listeners.otherEditor.messages.filter((m) => m.type === 'pool.changed').length;
    await markOrderPaid({
      orderId,
      paymentIntentId: `pi_test_${orderId}`,
      amountCents: 2 * PRICE_PER_PHOTO_CENTS,
      via: 'webhook',
    });
    await heard(listeners.owner, { type: 'order.changed', orderId, status: 'paid' });
    await waitFor(
      async () => listeners.otherEditor.messages.filter((m) => m.type === 'pool.changed').length,
      (count) => count > poolBefore,
    );

    // Claimed: the claimer hears of their order; the other editor hears the pool change within 2 s.
    const poolBeforeClaim = listeners.otherEditor.messages.filter((m) => m.type === 'pool.changed').length;
    const claimedAt = Date.now();
    expect((await as(claimer).post(`/api/orders/${orderId}/claim`)).status).toBe(200);
    await waitFor(
      async () => listeners.otherEditor.messages.filter((m) => m.type === 'pool.changed').length,
      (count) => count > poolBeforeClaim,
    );
    // Two seconds in a quiet stack (the browser test holds it to that); the other files write
    // beside this one, and a pool change inside a busy second waits for the trailing push.
    expect(Date.now() - claimedAt).toBeLessThan(3_000);
    await heard(listeners.claimer, { type: 'order.changed', orderId, status: 'in_progress' });
    await heard(listeners.owner, { type: 'order.changed', orderId, status: 'in_progress' });
    await heard(listeners.admin, { type: 'order.changed', orderId, status: 'in_progress' });

    // A worker's news about the order: the same three, nobody else.
    await announce({ type: 'images.ready', orderId }, { type: 'zip.ready', orderId, kind: 'originals' });
    for (const listener of [listeners.owner, listeners.claimer, listeners.admin]) {
      await heard(listener, { type: 'images.ready', orderId });
      await heard(listener, { type: 'zip.ready', orderId, kind: 'originals' });
    }

    await settle();
    expect(about(orderId)(listeners.otherEditor)).toEqual([]);
    expect(about(orderId)(listeners.otherPhotographer)).toEqual([]);
    expect(listeners.otherPhotographer.messages.filter((m) => m.type === 'pool.changed')).toEqual([]);
    // Messages carry the kind of change and ids, never the order's data.
    for (const message of about(orderId)(listeners.owner)) {
      expect(Object.keys(message).sort()).toEqual(
        message.type === 'order.changed'
          ? ['orderId', 'status', 'type']
          : message.type === 'zip.ready'
            ? ['kind', 'orderId', 'type']
            : ['orderId', 'type'],
      );
    }
  });

  it('tells a burst of pool changes to editors once at once and once after the last, not once a change', async () => {
    const poolTimes = () =>
      listeners.otherEditor.times.filter((_, i) => listeners.otherEditor.messages[i]!.type === 'pool.changed');
    const orderIds = await Promise.all(Array.from({ length: 12 }, () => anUnpaidOrder(owner)));
    await settle(1_200);
    const started = Date.now();
    await Promise.all(
      orderIds.map((orderId) =>
        markOrderPaid({
          orderId,
          paymentIntentId: `pi_test_${orderId}`,
          amountCents: 2 * PRICE_PER_PHOTO_CENTS,
          via: 'webhook',
        }),
      ),
    );
    const lastCommitted = Date.now();
    // No change is left untold: a push reaches the editor after the last payment committed.
    const times = await waitFor(
      async () => poolTimes(),
      (found) => found.some((at) => at > lastCommitted),
      6_000,
    );
    expect(times.some((at) => at > lastCommitted)).toBe(true);
    await settle(2_500);
    // Twelve changes (and the other files' own pool changes meanwhile), told at most by a window's
    // leading push and its trailing one: a trailing push that a busy queue delivers late can land
    // just after the next window's leading push, so a window may tell twice, never once a change.
    const told = poolTimes().filter((at) => at >= started).length;
    expect(told).toBeGreaterThan(0);
    expect(told).toBeLessThanOrEqual(2 * (1 + Math.ceil((Date.now() - started) / 1000)));
    expect(told).toBeLessThan(orderIds.length);
  });

  it('pushes a redelivered message again, harmlessly, and deletes a connection API Gateway calls gone (410)', async () => {
    const orderId = await anUnpaidOrder(owner);
    await heard(listeners.owner, { type: 'order.changed', orderId });
    const goneConnection = `gone${randomUUID().slice(0, 8)}=`;
    await saveConnection({ connectionId: goneConnection, userId: owner.uid, roles: ['photographer'] });

    const request: PushRequest = { push: { type: 'copies.ready', orderId } };
    const event = sqsEvent('live-updates', [JSON.stringify(request)]);
    expect(await pushUpdates(event)).toEqual({ batchItemFailures: [] });
    expect(await pushUpdates(event)).toEqual({ batchItemFailures: [] });

    await waitFor(
      async () => listeners.owner.messages.filter((m) => m.type === 'copies.ready' && m.orderId === orderId).length,
      (count) => count === 2,
    );
    expect(listeners.owner.messages.filter((m) => m.type === 'copies.ready' && m.orderId === orderId)).toHaveLength(2);
    expect((await db().liveConnection.get({ connectionId: goneConnection }).go()).data).toBeNull();
    expect(listeners.owner.socket.readyState).toBe(WebSocket.OPEN);
  });

  it('closes and forgets the sockets of a user an admin suspends', async () => {
    const [suspended, stays] = await Promise.all([aPhotographer(), aPhotographer()]);
    const [first, second, bystander] = await Promise.all([open(suspended), open(suspended), open(stays)]);
    expect((await as(admin).patch(`/api/admin/users/${suspended.uid}/deactivate`)).status).toBe(200);

    expect(await first.closed).toBe(1000);
    expect(await second.closed).toBe(1000);
    const rows = await waitFor(
      async () => (await db().liveConnection.query.byUser({ userId: suspended.uid }).go()).data,
      (found) => found.length === 0,
    );
    expect(rows).toEqual([]);
    expect(bystander.socket.readyState).toBe(WebSocket.OPEN);
  });
});

describe('the local live gateway', () => {
  it('drops every socket on a restart, refuses connections while down, and takes them again after', async () => {
    const photographer = await aPhotographer();
    const listener = await listen(photographer.token);
    const restart = await fetch(`${process.env.LIVE_ENDPOINT}/_local/restart?downMs=1500`, { method: 'POST' });
    expect(restart.status).toBe(200);
    expect(await listener.closed).toBe(1012);
    expect(await refusal(photographer.token)).toBe('503');
    await settle(1_600);
    expect(await refusal(photographer.token)).toBe('connected');
  });

  it('answers the management API as API Gateway does: 410 GoneException for an unknown connection', async () => {
    const response = await fetch(`${process.env.LIVE_ENDPOINT}/@connections/${encodeURIComponent('nobody=')}`, {
      method: 'POST',
      body: '{}',
    });
    expect(response.status).toBe(410);
    expect(response.headers.get('x-amzn-errortype')).toBe('GoneException');
  });
});
