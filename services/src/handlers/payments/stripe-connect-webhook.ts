import type Stripe from 'stripe';
import { logger } from '../../adapters/logger';
import { retrieveAccount, verifiedConnectEvent } from '../../adapters/stripe-connect';
import { bankPayoutEvent } from '../../data/bank-payouts';
import { syncPayoutAccount } from '../../data/payout-accounts';
import { BadRequest } from '../../http/errors';
import { publicHttp } from '../../http/http';
import { ok } from '../../http/responses';

/**
 * Stripe's Connect endpoint: events about the editors' connected accounts, signed with this
 * endpoint's own secret (not the payments endpoint's). account.updated makes the server read the
 * account again and keep what Stripe says of it; payout.* moves the editor's figures. Each is
 * safe to receive again, in any order: the account is read fresh, a payout's status only moves
 * forward. Anything else is acknowledged; a failure here is a 5xx, which Stripe retries.
 */
const received = ok({ received: true });

const unreadable = () => new BadRequest('This event does not hold an object we can read', undefined, 'INVALID_EVENT');

const objectOf = (event: Stripe.Event) => {
  const object = event.data?.object as { id?: unknown; object?: unknown } | undefined;
  if (!object || typeof object.id !== 'string' || typeof object.object !== 'string') throw unreadable();
  return object as { id: string; object: string; metadata?: Record<string, string> | null };
};

const accountUpdated = async (event: Stripe.Event) => {
  const account = objectOf(event);
  const accountId = typeof event.account === 'string' ? event.account : account.id;
  const userId = account.metadata?.userId;
  if (account.object !== 'account' || accountId !== account.id) throw unreadable();
  if (typeof userId !== 'string' || !userId) {
    logger.warn('account.updated for an account of no editor', { eventId: event.id, accountId });
    return;
  }
  // Events may arrive late and out of order: what the account is now is what counts.
  const synced = await syncPayoutAccount(userId, await retrieveAccount(accountId));
  if (!synced) logger.warn('account.updated for an account the editor does not hold', { eventId: event.id, accountId });
};

export const handler = publicHttp({}, async ({ event }) => {
  const signature = event.headers['stripe-signature'];
  if (!signature) throw new BadRequest('Missing Stripe-Signature header', undefined, 'INVALID_SIGNATURE');
  const payload = event.isBase64Encoded ? Buffer.from(event.body ?? '', 'base64') : (event.body ?? '');
  const stripeEvent = await verifiedConnectEvent(payload, signature);
  if (!stripeEvent) throw new BadRequest('Invalid Stripe signature', undefined, 'INVALID_SIGNATURE');
  if (typeof stripeEvent.id !== 'string' || !stripeEvent.id) throw unreadable();
  switch (stripeEvent.type) {
    case 'account.updated':
      await accountUpdated(stripeEvent);
      return received;
    case 'payout.created':
    case 'payout.updated':
    case 'payout.paid':
    case 'payout.failed': {
      const payout = objectOf(stripeEvent);
      if (payout.object !== 'payout' || typeof stripeEvent.account !== 'string') throw unreadable();
      await bankPayoutEvent(stripeEvent.account, stripeEvent.data.object as Stripe.Payout, stripeEvent.id);
      return received;
    }
    default:
      return received;
  }
});
