import type { EditorPayoutsResponse, PayoutView } from '@marketplace/events/admin';
import { decodeTime, ulid } from 'ulid';
import { Conflict } from '../http/errors';
import { marketplace } from './entities';
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
  const { data } = await marketplace().entities.payout.get({ editorId, payoutId }).go({ consistent: true });
  return (data as PayoutRecord | null) ?? null;
};

export const pendingAndPaid = async (editorId: string) => {
  const counters = await readCounters(editorScope(editorId));
  return { pendingPayoutCents: counters.pendingPayouts ?? 0, paidOutCents: counters.paidOut ?? 0 };
};

const MAX_ATTEMPTS = 3;

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
      ]);
      return { payout: toPayoutView(record), recorded: true };
    } catch (error) {
      if (!(error instanceof TransactionCancelled)) throw error;
      const existing = await getPayout(editorId, payoutId);
      if (existing) return { payout: toPayoutView(existing), recorded: false };
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

/** An editor's payouts, newest first, with what is pending and what has been paid. */
export const listEditorPayouts = async (editorId: string): Promise<EditorPayoutsResponse> => {
  const [{ data: payouts }, { data: legacy }, totals] = await Promise.all([
    marketplace().entities.payout.query.byEditor({ editorId }).go({ pages: 'all' }),
    marketplace()
      .entities.counter.query.byScope({ scope: legacyPayoutsScope(editorId) })
      .go({ pages: 'all' }),
    pendingAndPaid(editorId),
  ]);
  const views = [
    ...(payouts as PayoutRecord[]).map(toPayoutView),
    ...(legacy as { name: string; value: number }[]).map((c) => ({
      id: c.name,
      amountCents: c.value,
      paidAt: legacyPaidAt(c.name),
      note: null,
      recordedBy: null,
    })),
  ];
  return { payouts: views.sort((a, b) => b.paidAt.localeCompare(a.paidAt)), ...totals };
};

/** A legacy entry's time is in its id when the id is a ULID; otherwise it sorts last. */
const legacyPaidAt = (payoutId: string) => {
  try {
    return new Date(decodeTime(payoutId)).toISOString();
  } catch {
    return new Date(0).toISOString();
  }
};
