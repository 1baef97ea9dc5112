import type { EditorPayoutsQuery, EditorPayoutsResponse, PayoutView } from '@marketplace/events/admin';
import { decodeTime, ulid } from 'ulid';
import { BadRequest, Conflict } from '../http/errors';
import { cursorComposites, getRecord, models, query } from './direct-reads';
import { HAND_PAID_CREDIT } from './earnings';
import { comparePositions, descending, mergePartitions, type Position, readPartition } from './list-pages';
import { editorScope, readCounters } from './orders';
import { commitAll, TransactionCancelled } from './transactions';

/**
 * Payouts to editors: each is a Payout item in the editor's partition, written in one transaction
 * with the move of its amount from the editor's pendingPayouts counter to paidOut. The item's
 * create is the idempotency mark (the same id books once) and the counter's condition refuses more
 * than is pending, so neither a retry nor two admins paying at once can overpay.
 */
interface PayoutRecord {
  editorId: string;
  payoutId: string;
  amountCents: number;
  paidAt: string;
  note?: string;
  recordedBy?: string;
}

/** Payouts the ops command booked before payouts had their own item: counter entries named by id. */
const legacyPayoutsScope = (editorId: string) => `payouts#${editorId}`;

const toPayoutView = (p: PayoutRecord): PayoutView => ({
  id: p.payoutId,
  amountCents: p.amountCents,
  paidAt: p.paidAt,
  note: p.note ?? null,
  recordedBy: p.recordedBy ?? null,
});

const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;

const getPayout = async (editorId: string, payoutId: string) => {
  return getRecord<PayoutRecord>(models.payout, { editorId, payoutId }, { consistent: true });
};

export const pendingAndPaid = async (editorId: string) => {
  const counters = await readCounters(editorScope(editorId));
  return { pendingPayoutCents: counters.pendingPayouts ?? 0, paidOutCents: counters.paidOut ?? 0 };
};

const MAX_ATTEMPTS = 3;

export const PAID_THROUGH_STRIPE =
  'This editor is paid through Stripe: their earnings go to their payout account once each revision window closes.';

/**
 * Pays an editor part or all of what is pending. Answers the payout and whether this call booked
 * it (false: the same id was booked before, and that payout is returned unchanged).
 */
export const recordEditorPayout = async ({
  editorId,
  amountCents,
  payoutId = ulid(),
  note,
  recordedBy,
}: {
  editorId: string;
  amountCents: number;
  payoutId?: string;
  note?: string | undefined;
  recordedBy?: string | undefined;
}): Promise<{ payout: PayoutView; recorded: boolean }> => {
  const scope = editorScope(editorId);
  const record: PayoutRecord = {
    editorId,
    payoutId,
    amountCents,
    paidAt: new Date().toISOString(),
    ...(note ? { note } : {}),
    ...(recordedBy ? { recordedBy } : {}),
  };
  for (let attempt = 1; ; attempt++) {
    try {
      await commitAll((e) => [
        e.payout.create(record).commit(),
        e.counter
          .update({ scope, name: 'pendingPayouts' })
          .add({ value: -amountCents })
          .where(({ value }, { gte }) => gte(value, amountCents))
          .commit(),
        e.counter.update({ scope, name: 'paidOut' }).add({ value: amountCents }).commit(),
        // Paid outside Stripe: the editor's first transfers are short by it (data/earning-release.ts).
        e.counter
          .update({ scope, name: HAND_PAID_CREDIT })
          .add({ value: amountCents })
          .commit(),
        // Only while Stripe does not pay them: a payout by hand beside the transfers would pay twice.
        e.user
          .check({ userId: editorId })
          .where(
            ({ payoutStatus }, { notExists, ne }) => `(${notExists(payoutStatus)} OR ${ne(payoutStatus, 'enabled')})`,
          )
          .commit(),
      ]);
      return { payout: toPayoutView(record), recorded: true };
    } catch (error) {
      if (!(error instanceof TransactionCancelled)) throw error;
      const existing = await getPayout(editorId, payoutId);
      if (existing) return { payout: toPayoutView(existing), recorded: false };
      if (error.conditionFailed && error.codes.at(-1) === 'ConditionalCheckFailed') {
        throw new Conflict(PAID_THROUGH_STRIPE);
      }
      if (error.conditionFailed) {
        const { pendingPayoutCents } = await pendingAndPaid(editorId);
        if (pendingPayoutCents < amountCents) {
          throw new Conflict(`Cannot pay more than the pending ${usd(pendingPayoutCents)}`);
        }
      }
      // A concurrent payout on the same counters: try again with what is pending now.
      if (attempt >= MAX_ATTEMPTS) throw new Conflict('Another payout was being recorded. Please try again.');
    }
  }
};

/** Where a read stopped, from DynamoDB's last evaluated key: the payout id (or legacy entry name). */
const stopOf =
  (kind: 'payout' | 'counter') =>
  (cursor: string): Position => {
    const composite =
      kind === 'payout'
        ? cursorComposites(models.payout, 'byEditor', cursor)
        : cursorComposites(models.counter, 'byScope', cursor);
    return [String(composite.payoutId ?? composite.name ?? '').toLowerCase()];
  };

const payoutPosition = (p: PayoutView): Position => [p.id.toLowerCase()];

const encodePayoutCursor = ([id]: Position) => Buffer.from(JSON.stringify({ id })).toString('base64url');

const decodePayoutCursor = (cursor: string): Position => {
  let id: unknown;
  try {
    ({ id } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { id?: unknown });
  } catch {
    id = undefined;
  }
  if (typeof id !== 'string' || !id) {
    throw new BadRequest('This page link is no longer valid. Please start again from the first page.');
  }
  return [id];
};

/**
 * An editor's payouts, newest first (by id: route ids are ULIDs, so time order), a page at a
 * time, with what is pending and what has been paid (counters). Entries the ops command wrote
 * before payouts had their own item are a second partition, merged in by their id. After a cursor
 * each is a key range ending at the cursor (inclusive, so the cursor's own row is dropped): the
 * range keeps the read inside the payouts of the editor's partition, which also holds their rates.
 */
export const listEditorPayouts = async (
  editorId: string,
  { limit, cursor }: EditorPayoutsQuery,
): Promise<EditorPayoutsResponse> => {
  const after = cursor ? decodePayoutCursor(cursor) : undefined;
  const payouts = query<PayoutRecord>(models.payout, 'byEditor', { editorId });
  const legacy = query<{ name: string; value: number }>(models.counter, 'byScope', {
    scope: legacyPayoutsScope(editorId),
  });
  const read = { order: 'desc' as const, want: limit + 2, budget: limit + 2, filtered: false };
  const [payoutRead, legacyRead, totals] = await Promise.all([
    readPartition<PayoutRecord>({
      ...read,
      query: after ? payouts.between({ payoutId: '' }, { payoutId: after[0]! }) : payouts,
      positionOfCursor: stopOf('payout'),
    }),
    readPartition<{ name: string; value: number }>({
      ...read,
      query: after ? legacy.between({ name: '' }, { name: after[0]! }) : legacy,
      positionOfCursor: stopOf('counter'),
    }),
    pendingAndPaid(editorId),
  ]);
  const beyondCursor = (view: PayoutView) => !after || comparePositions(payoutPosition(view), after) !== 0;
  const { rows, next } = mergePartitions(
    [
      { rows: payoutRead.rows.map(toPayoutView).filter(beyondCursor), stoppedAt: payoutRead.stoppedAt },
      { rows: legacyRead.rows.map(legacyPayoutView).filter(beyondCursor), stoppedAt: legacyRead.stoppedAt },
    ],
    { limit, positionOf: payoutPosition, compare: descending },
  );
  return { payouts: rows, ...totals, nextCursor: next && encodePayoutCursor(next) };
};

const legacyPayoutView = (c: { name: string; value: number }): PayoutView => ({
  id: c.name,
  amountCents: c.value,
  paidAt: legacyPaidAt(c.name),
  note: null,
  recordedBy: null,
});

/** A legacy entry's time is in its id when the id is a ULID; otherwise it sorts last. */
const legacyPaidAt = (payoutId: string) => {
  try {
    return new Date(decodeTime(payoutId)).toISOString();
  } catch {
    return new Date(0).toISOString();
  }
};
