import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { EARNING_HOLD_DAYS } from '@marketplace/events/payouts';
import { beforeAll, describe, expect, it } from 'vitest';
import { releaseDueEarnings, releaseEarning } from '../src/data/earning-release';
import { editorStats } from '../src/data/editor-orders';
import { recordEditorPayout } from '../src/data/payouts';
import { requestRevision } from '../src/data/revisions';
import { releaseEarningsNow } from '../src/ops/earnings';
import {
  aCompletedOrder,
  afterWindow,
  aRedelivery,
  earningOf,
  fundPlatform,
  giveStripeAccount,
  stripeFault,
  transfersOf,
} from './payout-support';
import { anEditor, aPhotographer, type TestAccount } from './support';

const DAY_MS = 24 * 60 * 60 * 1000;
const MINUTE_MS = 60 * 1000;

let photographer: TestAccount;

beforeAll(async () => {
  photographer = await aPhotographer();
  await fundPlatform(500_000);
});

const anEditorPaidByStripe = async () => {
  const editor = await anEditor();
  const accountId = await giveStripeAccount(editor, 'complete');
  return { editor, accountId };
};

describe('an earning', () => {
  it('is booked held with the completion, for the revision window, and counts as pending at once', async () => {
    const editor = await anEditor();
    const { order, earning } = await aCompletedOrder(photographer, editor, { photoCount: 3, rateCents: 150 });
    expect(earning).toMatchObject({ editorId: editor.uid, amountCents: 450, state: 'held', attempts: 0 });
    expect(Date.parse(earning.releaseAt!) - Date.parse(order.completedAt!)).toBe(EARNING_HOLD_DAYS * DAY_MS);
    expect(earning.nextAttemptAt).toBe(earning.releaseAt);
    expect(await editorStats(editor.uid)).toMatchObject({ totalEarnings: 450, pendingPayouts: 450 });
  });

  it('is not released before its window closes, and is transferred once after', async () => {
    const { editor, accountId } = await anEditorPaidByStripe();
    const { order, earning } = await aCompletedOrder(photographer, editor, { photoCount: 2, rateCents: 175 });

    expect(await releaseEarning(earning, new Date(Date.parse(earning.releaseAt!) - MINUTE_MS))).toBe('skipped');
    expect(await transfersOf(order.orderId)).toEqual([]);

    expect(await releaseEarning(earning, afterWindow(earning))).toBe('transferred');
    const transfers = await transfersOf(order.orderId);
    expect(transfers).toHaveLength(1);
    expect(transfers[0]).toMatchObject({ amount: 350, destination: accountId });
    const released = await earningOf(order.orderId);
    expect(released).toMatchObject({ state: 'transferred', transferId: transfers[0]!.id, transferAmountCents: 350 });
    expect(released.nextAttemptAt).toBeUndefined();
    // Still the editor's until Stripe pays it out to their bank.
    expect(await editorStats(editor.uid)).toMatchObject({ totalEarnings: 350, pendingPayouts: 350 });
    // Released again (an old copy of the record, a second run): nothing more is sent.
    expect(await releaseEarning(earning, afterWindow(earning))).toBe('skipped');
    expect(await transfersOf(order.orderId)).toHaveLength(1);
  });

  it('makes one transfer when releases run twice at once and again later', async () => {
    const { editor } = await anEditorPaidByStripe();
    const { order, earning } = await aCompletedOrder(photographer, editor, { photoCount: 1, rateCents: 220 });
    const asOf = afterWindow(earning);
    const outcomes = await Promise.all([
      releaseEarning(earning, asOf),
      releaseEarning(earning, asOf),
      releaseEarning(earning, asOf),
      releaseDueEarnings({ asOf, limit: 50 }),
    ]);
    expect(outcomes.slice(0, 3).filter((o) => o === 'transferred').length).toBeLessThanOrEqual(1);
    await releaseDueEarnings({ asOf: new Date(asOf.getTime() + DAY_MS), limit: 50 });
    expect(await transfersOf(order.orderId)).toHaveLength(1);
    expect((await earningOf(order.orderId)).state).toBe('transferred');
  });

  it('whose transfer went through but whose answer was lost is recorded from Stripe, not sent again', async () => {
    const { editor } = await anEditorPaidByStripe();
    const { order, earning } = await aCompletedOrder(photographer, editor, { photoCount: 1, rateCents: 130 });
    // Stripe makes the transfer, and each of the client's three attempts loses its answer.
    await stripeFault({
      method: 'POST',
      path: '/v1/transfers',
      match: { transfer_group: order.orderId },
      when: 'after',
      reply: 'disconnect',
      times: 3,
    });
    const asOf = afterWindow(earning);
    expect(await releaseEarning(earning, asOf)).toBe('refused');
    const refused = await earningOf(order.orderId);
    expect(refused).toMatchObject({ state: 'due', attempts: 1 });
    expect(refused.lastError).toMatch(/could not be reached/);
    expect(await transfersOf(order.orderId)).toHaveLength(1);

    expect(await releaseEarning(refused, new Date(Date.parse(refused.nextAttemptAt!) + 1000))).toBe('transferred');
    const transfers = await transfersOf(order.orderId);
    expect(transfers).toHaveLength(1);
    expect((await earningOf(order.orderId)).transferId).toBe(transfers[0]!.id);
  });

  it('stays due while Stripe is down, with the reason, and is tried again after a growing pause', async () => {
    const { editor } = await anEditorPaidByStripe();
    const { order, earning } = await aCompletedOrder(photographer, editor, { photoCount: 1, rateCents: 140 });
    const fault = { method: 'POST', path: '/v1/transfers', match: { transfer_group: order.orderId }, status: 500 };
    await stripeFault({ ...fault, times: 3 });
    const asOf = afterWindow(earning);
    expect(await releaseEarning(earning, asOf)).toBe('refused');
    const first = await earningOf(order.orderId);
    expect(first).toMatchObject({ state: 'due', attempts: 1, releaseQueue: 'due' });
    expect(first.lastError).toMatch(/could not be reached/);
    expect(Date.parse(first.nextAttemptAt!) - asOf.getTime()).toBe(15 * MINUTE_MS);
    expect(await transfersOf(order.orderId)).toEqual([]);

    // Not before its next attempt; then down again: the pause doubles.
    expect(await releaseEarning(first, new Date(asOf.getTime() + 5 * MINUTE_MS))).toBe('skipped');
    await stripeFault({ ...fault, times: 3 });
    const secondAt = new Date(Date.parse(first.nextAttemptAt!) + 1000);
    expect(await releaseEarning(first, secondAt)).toBe('refused');
    const second = await earningOf(order.orderId);
    expect(Date.parse(second.nextAttemptAt!) - secondAt.getTime()).toBe(30 * MINUTE_MS);

    // Stripe is back: the next run transfers it once and clears the reason.
    expect(await releaseEarning(second, new Date(Date.parse(second.nextAttemptAt!) + 1000))).toBe('transferred');
    expect(await transfersOf(order.orderId)).toHaveLength(1);
    const done = await earningOf(order.orderId);
    expect(done.lastError).toBeUndefined();
    expect(done.state).toBe('transferred');
  });

  it("stays due with Stripe's reason when the platform's balance cannot cover it", async () => {
    const { editor } = await anEditorPaidByStripe();
    // Far more than any test put into the platform's balance.
    const { order, earning } = await aCompletedOrder(photographer, editor, { photoCount: 100, rateCents: 9_000_000 });
    expect(await releaseEarning(earning, afterWindow(earning))).toBe('refused');
    const refused = await earningOf(order.orderId);
    expect(refused.state).toBe('due');
    expect(refused.lastError).toBe("The platform's Stripe balance is too low for this transfer.");
    expect(await transfersOf(order.orderId)).toEqual([]);
  });

  it('of an editor without a payout account is held for it, and goes once the account can take it', async () => {
    const editor = await anEditor();
    const { order, earning } = await aCompletedOrder(photographer, editor, { photoCount: 2, rateCents: 100 });
    expect(await releaseEarning(earning, afterWindow(earning))).toBe('held');
    const held = await earningOf(order.orderId);
    expect(held).toMatchObject({ state: 'held', holdReason: 'no_payout_account', awaitingAccountOf: editor.uid });
    expect(held.releaseQueue).toBeUndefined();

    // Onboarding left incomplete: still held, now for the account.
    await giveStripeAccount(editor, 'incomplete');
    const { requeueAwaitingEarnings } = await import('../src/data/earning-release');
    expect(await requeueAwaitingEarnings(editor.uid)).toBe(1);
    const requeued = await earningOf(order.orderId);
    expect(await releaseEarning(requeued, afterWindow(earning))).toBe('held');
    expect(await earningOf(order.orderId)).toMatchObject({ holdReason: 'payouts_not_enabled' });
    expect(await transfersOf(order.orderId)).toEqual([]);
  });

  it('is held by a revision request and its window starts again from the re-delivery', async () => {
    const { editor } = await anEditorPaidByStripe();
    const { order, earning } = await aCompletedOrder(photographer, editor, { photoCount: 1, rateCents: 160 });
    await requestRevision({ order, input: { note: 'Brighter, please.', photoNotes: [] } });
    const held = await earningOf(order.orderId);
    expect(held).toMatchObject({ state: 'held', holdReason: 'revision' });
    expect(held.releaseAt).toBeUndefined();
    expect(held.releaseQueue).toBeUndefined();
    await releaseDueEarnings({ asOf: afterWindow(earning), limit: 50 });
    expect(await transfersOf(order.orderId)).toEqual([]);

    // The editor re-delivers: the earning waits a whole window from now.
    await aRedelivery(order.orderId, editor);
    const restarted = await earningOf(order.orderId);
    expect(restarted).toMatchObject({ state: 'held', releaseQueue: 'due' });
    expect(restarted.holdReason).toBeUndefined();
    expect(Date.parse(restarted.releaseAt!)).toBeGreaterThan(Date.parse(earning.releaseAt!));
    expect(await releaseEarning(restarted, new Date(Date.parse(restarted.releaseAt!) - 1))).toBe('skipped');
    expect(await releaseEarning(restarted, afterWindow(restarted))).toBe('transferred');
    expect(await transfersOf(order.orderId)).toHaveLength(1);
  });

  it('paid by hand before the editor had payouts is not sent again', async () => {
    const editor = await anEditor();
    const first = await aCompletedOrder(photographer, editor, { photoCount: 1, rateCents: 300 });
    const second = await aCompletedOrder(photographer, editor, { photoCount: 1, rateCents: 300 });
    // An admin paid $4.00 by hand: all of the first earning and $1.00 of the second.
    await recordEditorPayout({ editorId: editor.uid, amountCents: 400, note: 'Bank transfer' });
    await giveStripeAccount(editor, 'complete');
    expect(await releaseEarning(first.earning, afterWindow(first.earning))).toBe('paid-by-hand');
    expect(await releaseEarning(second.earning, afterWindow(second.earning))).toBe('transferred');
    expect(await transfersOf(first.order.orderId)).toEqual([]);
    expect((await transfersOf(second.order.orderId)).map((t) => t.amount)).toEqual([200]);
    expect(await earningOf(first.order.orderId)).toMatchObject({ state: 'paid_out', paidByHandCents: 300 });
    expect(await earningOf(second.order.orderId)).toMatchObject({ state: 'transferred', paidByHandCents: 100 });
    // And from now on Stripe pays them: a payout by hand would pay twice.
    await expect(recordEditorPayout({ editorId: editor.uid, amountCents: 100 })).rejects.toThrow(/paid through Stripe/);
  });
});

describe('npm run ops -- release-earnings', () => {
  it('sends what is due as of the given time and says what it did', async () => {
    const { editor } = await anEditorPaidByStripe();
    const { order, earning } = await aCompletedOrder(photographer, editor, { photoCount: 1, rateCents: 190 });
    const asOf = afterWindow(earning);
    const summary = await releaseEarningsNow(asOf);
    expect(summary.transferred).toBeGreaterThanOrEqual(1);
    expect(await transfersOf(order.orderId)).toHaveLength(1);

    const repoRoot = path.resolve(import.meta.dirname, '../..');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(repoRoot, 'services/src/ops/cli.ts'),
        'release-earnings',
        '--as-of',
        asOf.toISOString(),
      ],
      { cwd: repoRoot, env: process.env },
    );
    expect(stdout).toContain(`Release as of ${asOf.toISOString()}:`);
    expect(stdout).toMatch(/\d+ transferred to editors' Stripe accounts/);
    expect(await transfersOf(order.orderId)).toHaveLength(1);
  }, 60_000);
});
