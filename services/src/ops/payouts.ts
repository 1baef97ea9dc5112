import { ulid } from 'ulid';
import { marketplace } from '../data/entities';
import { editorScope } from '../data/orders';
import { commitAll, TransactionCancelled } from '../data/transactions';
import { findUserByEmail } from '../data/users';
import { OpsError } from './roles';

/** Each payout is a counter entry named by its id, so recording the same id twice books it once. */
const payoutsScope = (editorId: string) => `payouts#${editorId}`;

/** '12', '12.5' or '12.50' dollars as integer cents, without floating point. */
export const dollarsToCents = (dollars: string) => {
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(dollars.trim());
  if (!match) throw new OpsError(`"${dollars}" is not an amount in dollars (like 120 or 120.50)`);
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  if (cents <= 0) throw new OpsError('A payout must be more than 0.00');
  return cents;
};

/**
 * Pays an editor part or all of what is pending: one transaction writes the payout entry and
 * moves the amount from pendingPayouts to paidOut, and refuses more than is pending.
 */
export const recordPayout = async ({
  email,
  amountCents,
  payoutId = ulid(),
}: {
  email: string;
  amountCents: number;
  payoutId?: string;
}) => {
  const editor = await findUserByEmail(email);
  if (!editor?.roles.includes('editor')) throw new OpsError(`No editor with email ${email}`);
  const scope = editorScope(editor.userId);
  try {
    await commitAll((e) => [
      e.counter.create({ scope: payoutsScope(editor.userId), name: payoutId, value: amountCents }).commit(),
      e.counter
        .update({ scope, name: 'pendingPayouts' })
        .add({ value: -amountCents })
        .where(({ value }, { gte }) => gte(value, amountCents))
        .commit(),
      e.counter.update({ scope, name: 'paidOut' }).add({ value: amountCents }).commit(),
    ]);
  } catch (error) {
    if (!(error instanceof TransactionCancelled && error.conditionFailed)) throw error;
    const { data: existing } = await marketplace()
      .entities.counter.get({ scope: payoutsScope(editor.userId), name: payoutId })
      .go();
    if (existing) return { editor, payoutId, recorded: false };
    throw new OpsError(`Cannot pay ${(amountCents / 100).toFixed(2)} to ${editor.email}: more than is pending`);
  }
  return { editor, payoutId, recorded: true };
};
