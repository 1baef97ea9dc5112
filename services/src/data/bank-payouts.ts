import type { BankPayoutsPage, BankPayoutView, EarningsQuery, StripePayoutStatus } from '@marketplace/events/payouts';
import * as z from '@marketplace/events/zod';
import type Stripe from 'stripe';
import { logger } from '../adapters/logger';
import { retrieveAccount } from '../adapters/stripe-connect';
import { isConditionFailure } from './conditional-write';
import { query as directQuery, getRecord, models } from './direct-reads';
import { writers } from './direct-writes';
import { type EarningRecord, earningEditorScope, isConditionFailed, payoutOutboxWrite } from './earnings';
import { decodePageCursor, encodePageCursor } from './page-cursors';
import { commitAll } from './transactions';

/**
 * The payouts Stripe makes from an editor's connected account to their bank (Connect webhooks,
 * payout.*), and what they pay: a payout pays out the account's balance, so when it is paid it
 * is matched to the editor's transferred earnings, oldest first, as far as its amount goes. Paid,
 * those earnings are `paid_out` and their amount moves from pendingPayouts to paidOut; a payout
 * that fails after it was paid (a bank return) gives them back. Each event is safe to receive
 * again: the payout's status moves forward only, and every move is conditional on what was read.
 */
export interface BankPayoutRecord {
  editorId: string;
  payoutId: string;
  accountId: string;
  amountCents: number;
  status: StripePayoutStatus;
  createdAt: string;
  arrivalDate?: string;
  failureMessage?: string;
  settledCents: number;
  orders?: PaidOrder[];
}

interface PaidOrder {
  orderId: string;
  orderNumber: number | null;
  orderName?: string | null;
  amountCents: number;
}

const entities = () => writers();
/** Earnings a transaction settles at most: with the payout, two counters and the event, within DynamoDB's 100. */
const SETTLE_CHUNK = 90;
const MAX_ROUNDS = 50;

const isoOf = (seconds: number | null | undefined) =>
  typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : undefined;

const keyOf = (editorId: string, payout: Pick<Stripe.Payout, 'id' | 'created'>) => ({
  editorId,
  createdAt: isoOf(payout.created)!,
  payoutId: payout.id,
});

const getBankPayout = async (key: ReturnType<typeof keyOf>) => {
  return getRecord<BankPayoutRecord>(models.bankPayout, key, { consistent: true });
};

/** The editor whose account this is: the account's metadata names them, and their record names the account. */
const editorOfAccount = async (accountId: string) => {
  const account = await retrieveAccount(accountId);
  const userId = account.metadata?.userId;
  if (!userId) return null;
  const user = await getRecord<{ stripeAccountId?: string }>(models.user, { userId });
  return user?.stripeAccountId === accountId ? userId : null;
};

const money = (cents: number) => `${(cents / 100).toFixed(2)} USD`;

/** The oldest transferred earnings of the editor whose amounts fit in `room`, in order, at most a chunk. */
const earningsToSettle = async (editorId: string, room: number) => {
  const chosen: EarningRecord[] = [];
  let total = 0;
  let cursor: string | null = null;
  do {
    const page = await directQuery<EarningRecord>(models.earning, 'inTransit', { inTransitOf: editorId }).go({
      cursor,
      limit: 100,
      order: 'asc',
    });
    for (const earning of page.data) {
      const amount = earning.transferAmountCents ?? earning.amountCents;
      if (total + amount > room) return { chosen, total };
      chosen.push(earning);
      total += amount;
      if (chosen.length >= SETTLE_CHUNK) return { chosen, total };
    }
    cursor = page.cursor;
  } while (cursor);
  return { chosen, total };
};

const createInTransit = async (editorId: string, accountId: string, payout: Stripe.Payout) => {
  try {
    await entities()
      .bankPayout.create({
        ...keyOf(editorId, payout),
        accountId,
        amountCents: payout.amount,
        status: 'in_transit',
        settledCents: 0,
        orders: [],
        ...(isoOf(payout.arrival_date) ? { arrivalDate: isoOf(payout.arrival_date) } : {}),
      })
      .go();
  } catch (error) {
    // Known already (a repeat, or a later event that came first): it moves forward only.
    if (!isConditionFailure(error)) throw error;
  }
};

/** payout.paid: the payout is paid and matched to the editor's transferred earnings, once. */
const settle = async (editorId: string, accountId: string, payout: Stripe.Payout) => {
  const key = keyOf(editorId, payout);
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const item = await getBankPayout(key);
    if (item?.status === 'failed') return;
    const settled = item?.settledCents ?? 0;
    const { chosen, total } = await earningsToSettle(editorId, payout.amount - settled);
    const becomesPaid = item?.status !== 'paid';
    if (!becomesPaid && chosen.length === 0) {
      if (settled < payout.amount) {
        logger.warn('payout larger than the earnings it could be matched to', { payoutId: payout.id, settled });
      }
      return;
    }
    const paidAt = new Date().toISOString();
    const orders: PaidOrder[] = chosen.map((e) => ({
      orderId: e.orderId,
      orderNumber: e.orderNumber ?? null,
      orderName: e.orderName ?? null,
      amountCents: e.transferAmountCents ?? e.amountCents,
    }));
    try {
      await commitAll((e) => [
        item
          ? e.bankPayout
              .patch(key)
              .set({
                status: 'paid',
                orders: [...(item.orders ?? []), ...orders],
                ...(isoOf(payout.arrival_date) ? { arrivalDate: isoOf(payout.arrival_date) } : {}),
              })
              .add({ settledCents: total })
              .where(
                ({ settledCents, status }, { eq, ne }) => `${eq(settledCents, settled)} AND ${ne(status, 'failed')}`,
              )
              .commit()
          : e.bankPayout
              .create({
                ...key,
                accountId,
                amountCents: payout.amount,
                status: 'paid',
                settledCents: total,
                orders,
                ...(isoOf(payout.arrival_date) ? { arrivalDate: isoOf(payout.arrival_date) } : {}),
              })
              .commit(),
        ...chosen.map((earning) =>
          e.earning
            .patch({ orderId: earning.orderId })
            .set({ state: 'paid_out', payoutId: payout.id, paidOutAt: paidAt })
            .remove(['inTransitOf'])
            .where(({ state, inTransitOf }, { eq }) => `${eq(state, 'transferred')} AND ${eq(inTransitOf, editorId)}`)
            .commit(),
        ),
        ...(total > 0
          ? [
              e.counter
                .update({ scope: earningEditorScope(editorId), name: 'pendingPayouts' })
                .add({ value: -total })
                .commit(),
              e.counter
                .update({ scope: earningEditorScope(editorId), name: 'paidOut' })
                .add({ value: total })
                .commit(),
            ]
          : []),
        ...(becomesPaid
          ? [
              payoutOutboxWrite(e, {
                editorId,
                eventType: 'payout_paid',
                description: `A payout of ${money(payout.amount)} reached the editor's bank`,
                metadata: { payoutId: payout.id, accountId, amountCents: payout.amount },
              }),
            ]
          : []),
      ]);
    } catch (error) {
      // Another delivery of this event, or a transfer or refund of one of the earnings, went first: read again.
      if (isConditionFailed(error)) continue;
      throw error;
    }
    if (chosen.length < SETTLE_CHUNK) return;
  }
  throw new Error(`payout ${payout.id} could not be settled after ${MAX_ROUNDS} rounds`);
};

/** payout.failed: the money went back to the editor's balance; if it had been paid, its earnings are theirs to pay again. */
const fail = async (editorId: string, accountId: string, payout: Stripe.Payout) => {
  const key = keyOf(editorId, payout);
  const failureMessage = (payout.failure_message ?? payout.failure_code ?? 'The payout failed').slice(0, 300);
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const item = await getBankPayout(key);
    if (item?.status === 'failed') return;
    const paid = item?.status === 'paid' ? (item.orders ?? []) : [];
    const returned = paid.slice(0, SETTLE_CHUNK);
    const returnedCents = returned.reduce((sum, o) => sum + o.amountCents, 0);
    const last = returned.length === paid.length;
    try {
      await commitAll((e) => [
        item
          ? e.bankPayout
              .patch(key)
              .set({
                orders: paid.slice(returned.length),
                ...(last ? { status: 'failed' as const, failureMessage } : {}),
              })
              .add({ settledCents: -returnedCents })
              .where(
                ({ settledCents, status }, { eq }) =>
                  `${eq(settledCents, item.settledCents)} AND ${eq(status, item.status)}`,
              )
              .commit()
          : e.bankPayout
              .create({
                ...key,
                accountId,
                amountCents: payout.amount,
                status: 'failed',
                failureMessage,
                settledCents: 0,
                orders: [],
              })
              .commit(),
        ...returned.map((order) =>
          e.earning
            .patch({ orderId: order.orderId })
            .set({ state: 'transferred', inTransitOf: editorId })
            .remove(['payoutId', 'paidOutAt'])
            .where(({ state, payoutId }, { eq }) => `${eq(state, 'paid_out')} AND ${eq(payoutId, payout.id)}`)
            .commit(),
        ),
        ...(returnedCents > 0
          ? [
              e.counter
                .update({ scope: earningEditorScope(editorId), name: 'pendingPayouts' })
                .add({ value: returnedCents })
                .commit(),
              e.counter
                .update({ scope: earningEditorScope(editorId), name: 'paidOut' })
                .add({ value: -returnedCents })
                .commit(),
            ]
          : []),
        ...(last
          ? [
              payoutOutboxWrite(e, {
                editorId,
                eventType: 'payout_failed',
                description: `A payout of ${money(payout.amount)} failed: ${failureMessage}`,
                metadata: { payoutId: payout.id, accountId, amountCents: payout.amount, failureMessage },
              }),
            ]
          : []),
      ]);
    } catch (error) {
      if (isConditionFailed(error)) continue;
      throw error;
    }
    if (last) return;
  }
  throw new Error(`payout ${payout.id} could not be marked failed after ${MAX_ROUNDS} rounds`);
};

/** One payout.* event of a connected account; an account that is no editor's is logged and let go. */
export const bankPayoutEvent = async (accountId: string, payout: Stripe.Payout, eventId: string) => {
  if (typeof payout.amount !== 'number' || typeof payout.created !== 'number') {
    logger.warn('payout event without an amount or a time', { eventId, payoutId: payout.id });
    return;
  }
  const editorId = await editorOfAccount(accountId);
  if (!editorId) {
    logger.warn('payout of an account that is no editor of ours', { eventId, accountId, payoutId: payout.id });
    return;
  }
  if (payout.status === 'paid') return settle(editorId, accountId, payout);
  if (payout.status === 'failed' || payout.status === 'canceled') return fail(editorId, accountId, payout);
  return createInTransit(editorId, accountId, payout);
};

// ---------------------------------------------------------------- the editor's list

const payoutsCursor = z.object({
  createdAt: z.string().check(z.minLength(1), z.maxLength(64)),
  payoutId: z.string().check(z.minLength(1), z.maxLength(128)),
});

const toBankPayoutView = (p: BankPayoutRecord): BankPayoutView => ({
  id: p.payoutId,
  amountCents: p.amountCents,
  status: p.status,
  arrivalDate: p.arrivalDate ?? null,
  failureMessage: p.failureMessage ?? null,
  orders: (p.orders ?? []).map((o) => ({ ...o, orderName: o.orderName ?? null })),
  createdAt: p.createdAt,
});

/** An editor's payouts to their bank, newest first, a page at a time. */
export const listBankPayouts = async (editorId: string, { limit, cursor }: EarningsQuery): Promise<BankPayoutsPage> => {
  const query = directQuery<BankPayoutRecord>(models.bankPayout, 'byEditor', { editorId });
  const after = cursor ? decodePageCursor(cursor, payoutsCursor) : undefined;
  const { data } = await (after ? query.lt(after) : query).go({ order: 'desc', limit: limit + 1 });
  const rows = (data as BankPayoutRecord[]).slice(0, limit);
  const last = rows.at(-1);
  return {
    payouts: rows.map(toBankPayoutView),
    nextCursor:
      data.length > limit && last ? encodePageCursor({ createdAt: last.createdAt, payoutId: last.payoutId }) : null,
  };
};
