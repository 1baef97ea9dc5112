import { createHmac } from 'node:crypto';
import type { BankPayoutsPage, EarningsPage } from '@marketplace/events/payouts';
import { beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_STRIPE_CONNECT_WEBHOOK_SECRET } from '../local/stack';
import { releaseEarning } from '../src/data/earning-release';
import { editorStats } from '../src/data/editor-orders';
import { readCounters } from '../src/data/orders';
import { checkCounters } from '../src/ops/check-counters';
import {
  aCompletedOrder,
  afterWindow,
  atStripe,
  earningOf,
  fundPlatform,
  giveStripeAccount,
  stripeUrl,
} from './payout-support';
import { anEditor, aPhotographer, as, type TestAccount, waitFor } from './support';

/**
 * Stripe's payouts from an editor's connected account to their bank, through the fake's payout
 * run (POST /__payouts, what Stripe's schedule does) and its Connect webhooks: payout.paid moves
 * the editor's figures, payout.failed leaves the money theirs, and a replay moves nothing twice.
 */
let photographer: TestAccount;

beforeAll(async () => {
  photographer = await aPhotographer();
  await fundPlatform(200_000);
});

const runPayouts = async (account: string, fail = false) => {
  const response = await fetch(`${stripeUrl()}/__payouts`, { method: 'POST', body: JSON.stringify({ account, fail }) });
  expect(response.status).toBe(200);
  return ((await response.json()) as { payouts: { id: string; amount: number; status: string; created: number }[] })
    .payouts;
};

/** An editor paid through Stripe with one earning transferred to their account. */
const anEditorWithATransfer = async (rateCents: number) => {
  const editor = await anEditor();
  const accountId = await giveStripeAccount(editor, 'complete');
  const { order, earning } = await aCompletedOrder(photographer, editor, { photoCount: 2, rateCents });
  expect(await releaseEarning(earning, afterWindow(earning))).toBe('transferred');
  return { editor, accountId, order, amount: 2 * rateCents };
};

const paidOut = async (editorId: string) => (await readCounters(`editor#${editorId}`)).paidOut ?? 0;

const bankPayoutsOf = async (editor: TestAccount) => (await as(editor).get('/api/payouts')).body as BankPayoutsPage;

describe('a payout to the editor’s bank', () => {
  it('paid, marks the earnings it paid as paid out and moves them from pending to paid out', async () => {
    const { editor, accountId, order, amount } = await anEditorWithATransfer(210);
    expect(await editorStats(editor.uid)).toMatchObject({ totalEarnings: amount, pendingPayouts: amount });

    const [payout] = await runPayouts(accountId);
    expect(payout).toMatchObject({ amount, status: 'paid' });
    const listed = await waitFor(
      () => bankPayoutsOf(editor),
      (page) => page.payouts[0]?.status === 'paid',
    );
    expect(listed.payouts).toEqual([
      expect.objectContaining({
        id: payout!.id,
        amountCents: amount,
        status: 'paid',
        orders: [{ orderId: order.orderId, orderNumber: order.orderNumber, orderName: null, amountCents: amount }],
      }),
    ]);
    expect(await earningOf(order.orderId)).toMatchObject({ state: 'paid_out', payoutId: payout!.id });
    expect(await editorStats(editor.uid)).toMatchObject({ totalEarnings: amount, pendingPayouts: 0 });
    expect(await paidOut(editor.uid)).toBe(amount);
    const earnings = (await as(editor).get('/api/earnings')).body as EarningsPage;
    expect(earnings.earnings[0]).toMatchObject({ orderId: order.orderId, state: 'paid_out', payoutId: payout!.id });
  });

  it('failed, leaves the money in the editor’s balance and their figures as they were', async () => {
    const { editor, accountId, order, amount } = await anEditorWithATransfer(230);
    const [payout] = await runPayouts(accountId, true);
    const listed = await waitFor(
      () => bankPayoutsOf(editor),
      (page) => page.payouts[0]?.status === 'failed',
    );
    expect(listed.payouts[0]).toMatchObject({ id: payout!.id, status: 'failed', failureMessage: expect.any(String) });
    expect(await earningOf(order.orderId)).toMatchObject({ state: 'transferred' });
    expect(await editorStats(editor.uid)).toMatchObject({ pendingPayouts: amount });
    expect(await paidOut(editor.uid)).toBe(0);

    // The next payout takes the money back out and pays it.
    await runPayouts(accountId);
    await waitFor(
      () => earningOf(order.orderId),
      (e) => e.state === 'paid_out',
    );
    expect(await editorStats(editor.uid)).toMatchObject({ pendingPayouts: 0 });
    expect(await paidOut(editor.uid)).toBe(amount);
  });

  it('is taken once however often Stripe sends its events, and given back if it fails after it was paid', async () => {
    const { editor, accountId, order, amount } = await anEditorWithATransfer(190);
    const [made] = await runPayouts(accountId);
    await waitFor(
      () => earningOf(order.orderId),
      (e) => e.state === 'paid_out',
    );
    const payout = (await atStripe<Record<string, unknown>>(`/v1/payouts/${made!.id}`, { account: accountId })).body;
    const send = async (type: string, object: Record<string, unknown>) => {
      const payload = JSON.stringify({
        id: `evt_replay_${type}_${made!.id}`,
        object: 'event',
        type,
        account: accountId,
        data: { object },
      });
      const at = Math.floor(Date.now() / 1000);
      const signature = `t=${at},v1=${createHmac('sha256', LOCAL_STRIPE_CONNECT_WEBHOOK_SECRET).update(`${at}.${payload}`).digest('hex')}`;
      const response = await fetch(`${process.env.API_URL}/api/stripe/connect-webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body: payload,
      });
      expect(response.status).toBe(200);
    };
    // payout.paid again, three times, and a late payout.created: nothing moves twice.
    await Promise.all([send('payout.paid', payout), send('payout.paid', payout), send('payout.paid', payout)]);
    await send('payout.created', { ...payout, status: 'in_transit' });
    expect(await paidOut(editor.uid)).toBe(amount);
    expect(await editorStats(editor.uid)).toMatchObject({ pendingPayouts: 0 });
    expect((await bankPayoutsOf(editor)).payouts).toHaveLength(1);

    // The bank returns it: the earning is the editor's again, to be paid out once more.
    await send('payout.failed', { ...payout, status: 'failed', failure_message: 'The bank account has been closed.' });
    await send('payout.failed', { ...payout, status: 'failed', failure_message: 'The bank account has been closed.' });
    expect(await earningOf(order.orderId)).toMatchObject({ state: 'transferred' });
    expect(await paidOut(editor.uid)).toBe(0);
    expect(await editorStats(editor.uid)).toMatchObject({ pendingPayouts: amount });
    expect((await bankPayoutsOf(editor)).payouts[0]).toMatchObject({
      status: 'failed',
      failureMessage: 'The bank account has been closed.',
      orders: [],
    });
    // Paid again by the next payout: the counters' check counts both payouts in as the writes did.
    await runPayouts(accountId);
    await waitFor(
      () => earningOf(order.orderId),
      (e) => e.state === 'paid_out',
    );
    expect(await checkCounters({ inScope: (scope) => scope === `editor#${editor.uid}` })).toEqual([]);
  }, 60_000);
});
