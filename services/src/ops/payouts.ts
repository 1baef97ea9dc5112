import { recordEditorPayout } from '../data/payouts';
import { findUserByEmail } from '../data/users';
import { HttpError } from '../http/errors';
import { OpsError } from './roles';

/** '12', '12.5' or '12.50' dollars as integer cents, without floating point. */
export const dollarsToCents = (dollars: string) => {
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(dollars.trim());
  if (!match) throw new OpsError(`"${dollars}" is not an amount in dollars (like 120 or 120.50)`);
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  if (cents <= 0) throw new OpsError('A payout must be more than 0.00');
  return cents;
};

/**
 * Pays an editor by email from what is pending: the same booking as the admin console's payout
 * route (once per payout id, never more than is pending).
 */
export const recordPayout = async ({
  email,
  amountCents,
  payoutId,
}: {
  email: string;
  amountCents: number;
  payoutId?: string;
}) => {
  const editor = await findUserByEmail(email);
  if (!editor?.roles.includes('editor')) throw new OpsError(`No editor with email ${email}`);
  try {
    const { payout, recorded } = await recordEditorPayout({
      editorId: editor.userId,
      amountCents,
      ...(payoutId ? { payoutId } : {}),
    });
    return { editor, payoutId: payout.id, recorded };
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    throw new OpsError(
      error.message.startsWith('Cannot pay more')
        ? `Cannot pay ${(amountCents / 100).toFixed(2)} to ${editor.email}: more than is pending (${error.message})`
        : error.message,
    );
  }
};
