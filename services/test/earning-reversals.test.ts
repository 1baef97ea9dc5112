import { createHmac } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { releaseDueEarnings, releaseEarning } from '../src/data/earning-release';
import { editorStats } from '../src/data/editor-orders';
import { checkCounters } from '../src/ops/check-counters';
import {
  aCompletedOrderPaidByCard,
  afterWindow,
  atStripe,
  earningOf,
  fundPlatform,
  giveStripeAccount,
  refundAtStripe,
  transfersOf,
} from './payout-support';
import { anEditor, aPhotographer, type TestAccount, waitFor } from './support';

/**
 * A refund of a delivered order takes the editor's share back once: refunded in full at Stripe
 * (as an admin does in the Dashboard), the fake sends charge.refunded to our webhook; a transferred
 * earning is reversed by one Transfer Reversal, one not sent yet is cancelled; a partial refund
 * leaves the editor's earning as it is.
 */
let photographer: TestAccount;

beforeAll(async () => {
  photographer = await aPhotographer();
  await fundPlatform(100_000);
});

const reversedOf = async (orderId: string) => (await transfersOf(orderId)).map((t) => t.amount_reversed);

const chargeOf = async (paymentIntentId: string) =>
  (await atStripe<{ data: Record<string, unknown>[] }>(`/v1/charges?payment_intent=${paymentIntentId}`)).body.data[0]!;

const sendRefundEvent = async (charge: Record<string, unknown>, id: string) => {
  const payload = JSON.stringify({ id, object: 'event', type: 'charge.refunded', data: { object: charge } });
  const at = Math.floor(Date.now() / 1000);
  const signature = `t=${at},v1=${createHmac('sha256', process.env.STRIPE_WEBHOOK_SECRET!).update(`${at}.${payload}`).digest('hex')}`;
  const response = await fetch(`${process.env.API_URL}/api/webhooks/stripe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    body: payload,
  });
  return response.status;
};

describe('a refund of a delivered order', () => {
  it('in full, after the transfer, reverses the editor’s share once however often Stripe says so', async () => {
    const editor = await anEditor();
    await giveStripeAccount(editor, 'complete');
    const { order, earning, paymentIntentId } = await aCompletedOrderPaidByCard(photographer, editor, {
      photoCount: 2,
      rateCents: 175,
    });
    expect(await releaseEarning(earning, afterWindow(earning))).toBe('transferred');
    expect(await editorStats(editor.uid)).toMatchObject({ totalEarnings: 350, pendingPayouts: 350 });

    await refundAtStripe(paymentIntentId);
    const reversed = await waitFor(
      () => earningOf(order.orderId),
      (e) => e.state === 'reversed',
    );
    expect(reversed.reversalId).toMatch(/^trr_/);
    expect(await reversedOf(order.orderId)).toEqual([350]);
    expect(await editorStats(editor.uid)).toMatchObject({ totalEarnings: 0, pendingPayouts: 0 });

    // Stripe sends the event again (and again, at once): nothing more is taken back.
    const charge = await chargeOf(paymentIntentId);
    const statuses = await Promise.all(
      [1, 2, 3].map((n) => sendRefundEvent(charge, `evt_refund_${order.orderId}_${n}`)),
    );
    expect(statuses).toEqual([200, 200, 200]);
    const reversals = await atStripe<{ data: unknown[] }>(
      `/v1/transfers/${(await transfersOf(order.orderId))[0]!.id}/reversals`,
    );
    expect(reversals.body.data).toHaveLength(1);
    expect(await editorStats(editor.uid)).toMatchObject({ totalEarnings: 0, pendingPayouts: 0 });
    // The counters' check counts the reversal in as the writes did.
    expect(await checkCounters({ inScope: (scope) => scope === `editor#${editor.uid}` })).toEqual([]);
  }, 60_000);

  it('before the transfer, cancels the earning: nothing is ever sent for it', async () => {
    const editor = await anEditor();
    await giveStripeAccount(editor, 'complete');
    const { order, earning, paymentIntentId } = await aCompletedOrderPaidByCard(photographer, editor, {
      photoCount: 1,
      rateCents: 240,
    });
    await refundAtStripe(paymentIntentId);
    await waitFor(
      () => earningOf(order.orderId),
      (e) => e.state === 'reversed',
    );
    expect(await editorStats(editor.uid)).toMatchObject({ totalEarnings: 0, pendingPayouts: 0 });
    await releaseDueEarnings({ asOf: afterWindow(earning), limit: 50 });
    expect(await releaseEarning(earning, afterWindow(earning))).toBe('skipped');
    expect(await transfersOf(order.orderId)).toEqual([]);
  });

  it('in part, is the platform’s goodwill: the editor keeps the earning', async () => {
    const editor = await anEditor();
    await giveStripeAccount(editor, 'complete');
    const { order, earning, paymentIntentId } = await aCompletedOrderPaidByCard(photographer, editor, {
      photoCount: 2,
      rateCents: 160,
    });
    expect(await releaseEarning(earning, afterWindow(earning))).toBe('transferred');
    await refundAtStripe(paymentIntentId, 400);
    const charge = await waitFor(
      () => chargeOf(paymentIntentId),
      (c) => c.amount_refunded === 400,
    );
    expect(await sendRefundEvent(charge, `evt_partial_${order.orderId}`)).toBe(200);
    expect(await earningOf(order.orderId)).toMatchObject({ state: 'transferred' });
    expect(await reversedOf(order.orderId)).toEqual([0]);
    expect(await editorStats(editor.uid)).toMatchObject({ totalEarnings: 320, pendingPayouts: 320 });
  });
});
