import type Stripe from 'stripe';
import { allTransfers } from '../adapters/stripe-connect';
import { type EarningRecord, TRANSFER_LEDGER } from '../data/earnings';
import { marketplace } from '../data/entities';

/**
 * `npm run ops -- check-transfers`: every earning the table says was transferred, against the
 * transfers Stripe holds, both read a page at a time (an offline job: it reads every transfer).
 * A difference is a transfer missing at Stripe, another amount or account, a reversal one side
 * has and the other not, or a transfer of an earning at Stripe that the table has not recorded.
 */
export interface TransferDifference {
  orderId: string;
  transferId: string | null;
  problem: string;
}

const entities = () => marketplace().entities;

/** Every earning that was transferred (the sparse transfers index), a page at a time. */
async function* transferredEarnings() {
  let cursor: string | null = null;
  do {
    const page: { data: unknown[]; cursor: string | null } = await entities()
      .earning.query.transfers({ transferLedger: TRANSFER_LEDGER })
      .go({ cursor, limit: 500 });
    for (const earning of page.data as EarningRecord[]) yield earning;
    cursor = page.cursor;
  } while (cursor);
}

const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;

export const checkTransfers = async ({
  inScope = () => true,
}: {
  /** Only earnings of these orders (a test checks its own beside others'). */
  inScope?: (orderId: string) => boolean;
} = {}) => {
  const differences: TransferDifference[] = [];
  const atStripe = new Map<string, Stripe.Transfer>();
  for await (const transfer of allTransfers()) atStripe.set(transfer.id, transfer);

  const accounts = new Map<string, string | undefined>();
  const accountOf = async (editorId: string) => {
    if (!accounts.has(editorId)) {
      const { data } = await entities().user.get({ userId: editorId }).go();
      accounts.set(editorId, (data as { stripeAccountId?: string } | null)?.stripeAccountId);
    }
    return accounts.get(editorId);
  };

  const recorded = new Set<string>();
  for await (const earning of transferredEarnings()) {
    if (!inScope(earning.orderId) || !earning.transferId) continue;
    recorded.add(earning.orderId);
    const note = (problem: string) =>
      differences.push({ orderId: earning.orderId, transferId: earning.transferId ?? null, problem });
    const transfer = atStripe.get(earning.transferId);
    if (!transfer) {
      note('recorded as transferred, but Stripe has no such transfer');
      continue;
    }
    const amount = earning.transferAmountCents ?? earning.amountCents - (earning.paidByHandCents ?? 0);
    if (transfer.amount !== amount) note(`Stripe transferred ${usd(transfer.amount)}, the table says ${usd(amount)}`);
    const account = await accountOf(earning.editorId);
    if (transfer.destination !== account) {
      note(`sent to ${String(transfer.destination)}, but the editor's account is ${account ?? 'none'}`);
    }
    if (transfer.metadata?.earningId !== earning.orderId) note('the transfer at Stripe names another earning');
    const reversedAtStripe = transfer.amount_reversed >= transfer.amount;
    if (earning.state === 'reversed' && !reversedAtStripe) {
      note(`reversed in the table, but Stripe reversed ${usd(transfer.amount_reversed)} of it`);
    }
    if (earning.state !== 'reversed' && transfer.amount_reversed > 0) {
      note(`Stripe reversed ${usd(transfer.amount_reversed)} of it, but the table has it ${earning.state}`);
    }
  }

  // Transfers Stripe made for an earning the table has not recorded (a release that lost its answer
  // and has not been back since), or for an order without an earning.
  for (const transfer of atStripe.values()) {
    const orderId = transfer.metadata?.earningId;
    if (!orderId || !inScope(orderId) || recorded.has(orderId)) continue;
    const { data } = await entities().earning.get({ orderId }).go();
    const earning = data as EarningRecord | null;
    differences.push({
      orderId,
      transferId: transfer.id,
      problem: earning
        ? `Stripe transferred ${usd(transfer.amount)} for it, but the table has it ${earning.state}`
        : `Stripe transferred ${usd(transfer.amount)} for an order with no earning`,
    });
  }
  return { differences, transfersAtStripe: atStripe.size, earningsChecked: recorded.size };
};

export const formatTransferCheck = ({
  differences,
  transfersAtStripe,
  earningsChecked,
}: Awaited<ReturnType<typeof checkTransfers>>) =>
  [
    ...differences.map((d) => `${d.orderId}  ${d.transferId ?? '-'}  ${d.problem}`),
    differences.length
      ? `${differences.length} difference(s) between the table's transfers and Stripe's (docs/operations.md says what to do).`
      : `Every one of ${earningsChecked} transferred earnings matches Stripe (${transfersAtStripe} transfers read).`,
  ].join('\n');
