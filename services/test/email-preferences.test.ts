import type { OrderEventType } from '@marketplace/events/order-events';
import { beforeAll, describe, expect, it } from 'vitest';
import { getOrder, markOrderPaid, type OrderRecord } from '../src/data/orders';
import { outboxRecord } from '../src/data/transactions';
import { signUnsubscribeToken } from '../src/domain/unsubscribe-token';
import { handler } from '../src/workers/send-notifications';
import {
  aDataLayerOrder,
  as,
  aUserWithRoles,
  db,
  outboxStreamRecord,
  sqsEvent,
  type TestAccount,
  waitFor,
} from './support';

/**
 * Email preferences: the switches on the profile page, the notification worker reading them when
 * it sends, and the one-click unsubscribe links (RFC 8058) in every email that can be switched off.
 */
interface StoredEmail {
  destination: { to: string[] };
  subject: string;
  body: { text?: string; html?: string };
  headers?: { name: string; value: string }[];
}

const inbox = async (to: string) => {
  const response = await fetch(`${process.env.SES_ENDPOINT}/store`);
  const { emails } = (await response.json()) as { emails: StoredEmail[] };
  return emails.filter((e) => e.destination.to.includes(to));
};

const header = (mail: StoredEmail, name: string) =>
  mail.headers?.find((h) => h.name.toLowerCase() === name.toLowerCase())?.value;

const deliver = (...bodies: string[]) =>
  handler(sqsEvent('notifications', bodies)) as Promise<{ batchItemFailures: { itemIdentifier: string }[] }>;

/** An event's stream record as the event log forwards it, made here so only this test delivers it. */
const eventRecord = (orderId: string, eventType: OrderEventType, metadata: Record<string, unknown> = {}) =>
  JSON.stringify(outboxStreamRecord(outboxRecord({ orderId, eventType, description: `test ${eventType}`, metadata })));

const publicCall = async (method: string, path: string, init: { body?: string; contentType?: string } = {}) => {
  const response = await fetch(`${process.env.API_URL}${path}`, {
    method,
    ...(init.body !== undefined
      ? { body: init.body, headers: { 'content-type': init.contentType ?? 'application/x-www-form-urlencoded' } }
      : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
};

const oneClick = (token: string) =>
  publicCall('POST', `/api/unsubscribe?token=${encodeURIComponent(token)}`, { body: 'List-Unsubscribe=One-Click' });

const mutedOf = async (userId: string) => {
  const { data } = await db().user.get({ userId }).go({ consistent: true });
  return [...((data as { mutedEmails?: string[] } | null)?.mutedEmails ?? [])].sort();
};

const switchesOf = async (account: TestAccount) => {
  const { status, body } = await as(account).get('/api/account/notifications');
  expect(status).toBe(200);
  return Object.fromEntries(
    (body.switchable as { kind: string; enabled: boolean }[]).map((s) => [s.kind, s.enabled]),
  ) as Record<string, boolean>;
};

let photographer: TestAccount;
let editor: TestAccount;
let admin: TestAccount;

beforeAll(async () => {
  [photographer, editor, admin] = await Promise.all([
    aUserWithRoles(['photographer'], { displayName: 'Pia Prefs' }),
    aUserWithRoles(['editor'], { displayName: 'Ed Prefs' }),
    aUserWithRoles(['admin'], { displayName: 'Ad Prefs' }),
  ]);
});

const aPaidOrder = async (): Promise<OrderRecord> => {
  const order = await aDataLayerOrder(photographer, { photographerName: 'Pia Prefs' });
  await markOrderPaid({
    orderId: order.orderId,
    paymentIntentId: order.stripePaymentIntentId!,
    amountCents: order.totalAmountCents,
    via: 'client',
  });
  return (await getOrder(order.orderId))!;
};

describe('the switches', () => {
  it('shows each role the kinds it receives, and the ones that always go out', async () => {
    const photographerView = (await as(photographer).get('/api/account/notifications')).body;
    expect(photographerView.switchable.map((s: { kind: string }) => s.kind)).toEqual([
      'editor_started',
      'photos_ready',
    ]);
    expect(photographerView.switchable.every((s: { enabled: boolean }) => s.enabled)).toBe(true);
    expect(photographerView.alwaysOn.map((s: { kind: string }) => s.kind)).toEqual(['payment_receipt', 'security']);
    const editorView = (await as(editor).get('/api/account/notifications')).body;
    expect(editorView.switchable.map((s: { kind: string }) => s.kind)).toEqual([
      'order_assigned',
      'revision_requested',
    ]);
    expect(editorView.alwaysOn.map((s: { kind: string }) => s.kind)).toEqual(['security']);
    const adminView = (await as(admin).get('/api/account/notifications')).body;
    expect(adminView.switchable).toEqual([]);
  });

  it('saves a switch on the user record at once, and turns it back on', async () => {
    const off = await as(photographer).patch('/api/account/notifications', { emails: { editor_started: false } });
    expect(off.status).toBe(200);
    expect(off.body.switchable.find((s: { kind: string }) => s.kind === 'editor_started').enabled).toBe(false);
    expect(await mutedOf(photographer.uid)).toEqual(['editor_started']);
    expect(await switchesOf(photographer)).toEqual({ editor_started: false, photos_ready: true });
    const on = await as(photographer).patch('/api/account/notifications', { emails: { editor_started: true } });
    expect(on.status).toBe(200);
    expect(await mutedOf(photographer.uid)).toEqual([]);
  });

  it('refuses an unknown kind, an always-on kind, or a kind of another role, and writes nothing', async () => {
    for (const emails of [
      { photos_ready: false, newsletter: false },
      { payment_receipt: false },
      { security: false },
      { photos_ready: false, order_assigned: false },
      {},
      { photos_ready: 'no' },
    ]) {
      const answer = await as(photographer).patch('/api/account/notifications', { emails });
      expect(answer.status, JSON.stringify(emails)).toBe(400);
      expect(answer.body.message).toBeTruthy();
    }
    expect(await mutedOf(photographer.uid)).toEqual([]);
    const foreign = await as(editor).patch('/api/account/notifications', { emails: { photos_ready: false } });
    expect(foreign.status).toBe(400);
    expect(foreign.body.message).toContain('Photos ready');
    expect(await mutedOf(editor.uid)).toEqual([]);
  });
});

describe('the worker reads the switch when it sends', () => {
  it('sends nothing once photos ready is off, though the event came while it was on; the receipt still goes', async () => {
    const order = await aPaidOrder();
    // The receipt: always on, with no unsubscribe header or link.
    const receipts = await waitFor(
      () => inbox(photographer.email),
      (mails) => mails.some((m) => m.subject.startsWith(`Receipt for order #${order.orderNumber}:`)),
    );
    const receipt = receipts.find((m) => m.subject.startsWith(`Receipt for order #${order.orderNumber}:`))!;
    expect(receipt).toBeTruthy();
    expect(header(receipt, 'List-Unsubscribe')).toBeUndefined();
    expect(header(receipt, 'List-Unsubscribe-Post')).toBeUndefined();
    expect(receipt.body.html).not.toContain('Unsubscribe');

    // The event is written while the switch is on...
    const completed = eventRecord(order.orderId, 'order_completed', { editedCount: 2 });
    // ...and switched off before the worker gets to it.
    expect(
      (await as(photographer).patch('/api/account/notifications', { emails: { photos_ready: false } })).status,
    ).toBe(200);
    expect((await deliver(completed)).batchItemFailures).toEqual([]);
    // The receipts of orders paid now still go out.
    const receiptAgain = eventRecord(order.orderId, 'order_paid');
    expect((await deliver(receiptAgain)).batchItemFailures).toEqual([]);
    const mails = await inbox(photographer.email);
    const about = mails.filter((m) => m.subject.includes(`#${order.orderNumber}`));
    expect(about.filter((m) => m.subject.includes('edited photos are ready'))).toEqual([]);
    expect(about.filter((m) => m.subject.startsWith('Receipt'))).toHaveLength(2);

    // On again: the next one goes out, with the one-click headers and a footer link.
    expect(
      (await as(photographer).patch('/api/account/notifications', { emails: { photos_ready: true } })).status,
    ).toBe(200);
    expect(
      (await deliver(eventRecord(order.orderId, 'order_completed', { editedCount: 2 }))).batchItemFailures,
    ).toEqual([]);
    const ready = (await inbox(photographer.email)).filter(
      (m) => m.subject === `Order #${order.orderNumber}: your edited photos are ready`,
    );
    expect(ready).toHaveLength(1);
    const mail = ready[0]!;
    const listUnsubscribe = header(mail, 'List-Unsubscribe')!;
    expect(listUnsubscribe).toMatch(
      new RegExp(`^<${process.env.SITE_URL}/api/unsubscribe\\?token=[A-Za-z0-9_.%-]+>$`.replace(/\//g, '\\/')),
    );
    expect(header(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(mail.body.html).toContain('>Unsubscribe</a>');
    expect(mail.body.html).toContain(`${process.env.SITE_URL}/unsubscribe?token=`);
    expect(mail.body.text).toContain('Unsubscribe from “Photos ready” emails:');
  });

  it("an editor's order assigned email carries the headers, and none goes once it is off", async () => {
    const order = await aPaidOrder();
    const assigned = () => eventRecord(order.orderId, 'order_assigned', { editorId: editor.uid });
    expect((await deliver(assigned())).batchItemFailures).toEqual([]);
    const subject = `Order #${order.orderNumber} has been assigned to you`;
    const first = (await inbox(editor.email)).filter((m) => m.subject === subject);
    expect(first).toHaveLength(1);
    expect(header(first[0]!, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect((await as(editor).patch('/api/account/notifications', { emails: { order_assigned: false } })).status).toBe(
      200,
    );
    expect((await deliver(assigned())).batchItemFailures).toEqual([]);
    expect((await inbox(editor.email)).filter((m) => m.subject === subject)).toHaveLength(1);
    await as(editor).patch('/api/account/notifications', { emails: { order_assigned: true } });
  });
});

describe('one-click unsubscribe', () => {
  let token: string;

  beforeAll(async () => {
    await as(photographer).patch('/api/account/notifications', {
      emails: { photos_ready: true, editor_started: true },
    });
    const order = await aPaidOrder();
    expect(
      (await deliver(eventRecord(order.orderId, 'order_completed', { editedCount: 1 }))).batchItemFailures,
    ).toEqual([]);
    const mail = (await inbox(photographer.email)).find(
      (m) => m.subject === `Order #${order.orderNumber}: your edited photos are ready`,
    )!;
    const url = new URL(header(mail, 'List-Unsubscribe')!.slice(1, -1));
    token = url.searchParams.get('token')!;
  });

  it('GET says which email and changes nothing (link scanners open links)', async () => {
    const answer = await publicCall('GET', `/api/unsubscribe?token=${encodeURIComponent(token)}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ kind: 'photos_ready', label: 'Photos ready', enabled: true });
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(await mutedOf(photographer.uid)).toEqual([]);
  });

  it('POST List-Unsubscribe=One-Click without signing in turns off that kind only, and again is the same', async () => {
    const first = await oneClick(token);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ kind: 'photos_ready', label: 'Photos ready', enabled: false });
    expect(await switchesOf(photographer)).toEqual({ editor_started: true, photos_ready: false });
    const again = await oneClick(token);
    expect(again.status).toBe(200);
    expect(await mutedOf(photographer.uid)).toEqual(['photos_ready']);
    // The page's button posts without the form body; that works too.
    expect((await publicCall('POST', `/api/unsubscribe?token=${encodeURIComponent(token)}`)).status).toBe(200);
    expect(await mutedOf(photographer.uid)).toEqual(['photos_ready']);
    await as(photographer).patch('/api/account/notifications', { emails: { photos_ready: true } });
  });

  it('a tampered, foreign or missing token is 400 and writes nothing', async () => {
    const [payload, signature] = token.split('.') as [string, string];
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const otherKind = Buffer.from(JSON.stringify({ ...decoded, k: 'editor_started' })).toString('base64url');
    const otherUser = Buffer.from(JSON.stringify({ ...decoded, u: editor.uid, k: 'order_assigned' })).toString(
      'base64url',
    );
    const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    const foreignKey = signUnsubscribeToken('another-key-of-someone-else', {
      userId: photographer.uid,
      kind: 'photos_ready',
    });
    for (const bad of [
      `${otherKind}.${signature}`,
      `${otherUser}.${signature}`,
      `${payload}.${flipped}`,
      foreignKey,
      'not-a-token',
      `${payload}.`,
    ]) {
      for (const method of ['GET', 'POST']) {
        const answer =
          method === 'POST'
            ? await oneClick(bad)
            : await publicCall('GET', `/api/unsubscribe?token=${encodeURIComponent(bad)}`);
        expect(answer.status, `${method} ${bad}`).toBe(400);
        expect(answer.body.error).toBe('INVALID_LINK');
      }
    }
    expect((await publicCall('POST', '/api/unsubscribe', { body: 'List-Unsubscribe=One-Click' })).status).toBe(400);
    expect(await mutedOf(photographer.uid)).toEqual([]);
    expect(await mutedOf(editor.uid)).toEqual([]);
  });

  it('an expired token is 410 and writes nothing', async () => {
    const longAgo = new Date(Date.now() - 91 * 24 * 60 * 60 * 1000);
    const expired = signUnsubscribeToken(process.env.UNSUBSCRIBE_KEY!, {
      userId: photographer.uid,
      kind: 'photos_ready',
      now: longAgo,
    });
    for (const answer of [
      await oneClick(expired),
      await publicCall('GET', `/api/unsubscribe?token=${encodeURIComponent(expired)}`),
    ]) {
      expect(answer.status).toBe(410);
      expect(answer.body.error).toBe('LINK_EXPIRED');
      expect(answer.body.message).toContain('profile');
    }
    expect(await mutedOf(photographer.uid)).toEqual([]);
    // The same token signed now works: only the date made it fail.
    const fresh = signUnsubscribeToken(process.env.UNSUBSCRIBE_KEY!, {
      userId: photographer.uid,
      kind: 'photos_ready',
    });
    expect((await publicCall('GET', `/api/unsubscribe?token=${encodeURIComponent(fresh)}`)).status).toBe(200);
  });
});
