import {
  type PayoutAccountLinkView,
  type PayoutAccountStatus,
  type PayoutAccountView,
  type payoutReturnPages,
  requirementsInWords,
} from '@marketplace/events/payouts';
import type Stripe from 'stripe';
import { logger } from '../adapters/logger';
import {
  createEditorAccount,
  createOnboardingLink,
  payoutAccountStateOf,
  retrieveAccount,
} from '../adapters/stripe-connect';
import { config } from '../config';
import { HttpError } from '../http/errors';
import { getRecord, models } from './direct-reads';
import { requeueAwaitingEarnings } from './earning-release';
import { isConditionFailed, payoutOutboxWrite } from './earnings';
import { commitAll } from './transactions';

/**
 * An editor's payout account: an Express connected account at Stripe, made once per editor and
 * kept on their user record (`stripeAccountId`, written once on the condition that none is set).
 * Its status is what Stripe last said of it, read by the server on return from onboarding and on
 * each `account.updated`; the browser never tells it. See docs/decisions/0095-*.md.
 */
export interface PayoutAccountUser {
  userId: string;
  email: string;
  stripeAccountId?: string;
  payoutStatus?: string;
  payoutRequirements?: string[];
  payoutDisabledReason?: string;
  payoutCheckedAt?: string;
}

const readUser = async (userId: string) => {
  return getRecord<PayoutAccountUser>(models.user, { userId }, { consistent: true });
};

export const toPayoutAccountView = (user: PayoutAccountUser): PayoutAccountView =>
  user.stripeAccountId
    ? {
        status: (user.payoutStatus as PayoutAccountStatus | undefined) ?? 'onboarding',
        requirements: requirementsInWords(user.payoutRequirements ?? []),
        disabledReason: user.payoutDisabledReason ? user.payoutDisabledReason.replaceAll(/[._]/g, ' ') : null,
        updatedAt: user.payoutCheckedAt ?? null,
      }
    : { status: 'not_set_up', requirements: [], disabledReason: null, updatedAt: null };

const providerDown = () =>
  new HttpError(
    502,
    'PAYMENT_PROVIDER_UNAVAILABLE',
    'Payouts cannot be set up with Stripe just now. Nothing was changed; please try again in a moment.',
  );

/** Stripe failing or refusing: nothing of ours was written, so the editor may simply try again. */
const withStripe = async <T>(call: () => Promise<T>): Promise<T> => {
  try {
    return await call();
  } catch (error) {
    if (error instanceof HttpError) throw error;
    if (!String((error as { type?: string })?.type ?? '').startsWith('Stripe')) throw error;
    logger.error('stripe connect call failed', { error: error as Error });
    throw providerDown();
  }
};

/**
 * The editor's connected account id, made at Stripe the first time. Stripe gives a retry (or a
 * second tab) the same account for the editor's idempotency key; the conditional write keeps the
 * first one should two ever differ, and the other is logged as an orphan to close at Stripe.
 */
const accountOf = async (user: PayoutAccountUser) => {
  if (user.stripeAccountId) return user.stripeAccountId;
  const account = await createEditorAccount({ userId: user.userId, email: user.email });
  const state = payoutAccountStateOf(account);
  try {
    await commitAll((e) => [
      e.user
        .patch({ userId: user.userId })
        .set({
          stripeAccountId: account.id,
          payoutStatus: state.status,
          payoutRequirements: state.requirements,
          payoutCheckedAt: new Date().toISOString(),
        })
        .where(({ stripeAccountId }, { notExists }) => notExists(stripeAccountId))
        .commit(),
    ]);
    return account.id;
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    const kept = (await readUser(user.userId))?.stripeAccountId;
    if (!kept) throw error;
    if (kept !== account.id) logger.warn('second connected account for an editor', { kept, orphan: account.id });
    return kept;
  }
};

export type PayoutReturnPage = (typeof payoutReturnPages)[number];

/** Where Stripe sends the editor back: the page they started from, told to read the account again. */
export const onboardingUrls = (returnTo: PayoutReturnPage) => {
  const site = config().SITE_URL.replace(/\/+$/, '');
  const page = returnTo === 'editor' ? '/editor' : '/profile';
  return {
    returnUrl: `${site}${page}?payouts=returned`,
    // An expired or used link comes back here, and the page asks for a fresh one.
    refreshUrl: `${site}/profile/payouts/refresh?returnTo=${returnTo}`,
  };
};

/**
 * 'Set up payouts' (and its fresh links): the editor's account, made once, and a one-time link into
 * Stripe's hosted onboarding, which sends them back to the page they came from.
 */
export const startPayoutOnboarding = async (
  user: { userId: string; email: string },
  returnTo: PayoutReturnPage,
): Promise<PayoutAccountLinkView> => {
  const current = (await readUser(user.userId)) ?? user;
  return withStripe(async () => {
    const accountId = await accountOf(current);
    const link = await createOnboardingLink({ accountId, ...onboardingUrls(returnTo) });
    const latest = (await readUser(user.userId)) ?? current;
    return { url: link.url, account: toPayoutAccountView(latest) };
  });
};

/**
 * Keeps the user record's view of the account in step with Stripe's, in one conditional write
 * (the record must still name this account), with its event when the status changed. An account
 * that can now be paid gets the earnings that waited for it back into the release queue.
 */
export const syncPayoutAccount = async (
  userId: string,
  account: Pick<Stripe.Account, 'id' | 'details_submitted' | 'payouts_enabled' | 'capabilities' | 'requirements'>,
) => {
  const user = await readUser(userId);
  if (!user || user.stripeAccountId !== account.id) return null;
  const state = payoutAccountStateOf(account);
  const changed = state.status !== user.payoutStatus;
  const checkedAt = new Date().toISOString();
  const fields = { payoutStatus: state.status, payoutRequirements: state.requirements, payoutCheckedAt: checkedAt };
  try {
    await commitAll((e) => [
      (state.disabledReason
        ? e.user.patch({ userId }).set({ ...fields, payoutDisabledReason: state.disabledReason })
        : e.user.patch({ userId }).set(fields).remove(['payoutDisabledReason'])
      )
        .where(({ stripeAccountId }, { eq }) => eq(stripeAccountId, account.id))
        .commit(),
      ...(changed
        ? [
            payoutOutboxWrite(e, {
              editorId: userId,
              eventType: 'payout_account_updated',
              description: `The payout account is now ${state.status.replace('_', ' ')}`,
              metadata: { accountId: account.id, status: state.status, requirements: state.requirements },
            }),
          ]
        : []),
    ]);
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    return null;
  }
  if (state.status === 'enabled') await requeueAwaitingEarnings(userId);
  return toPayoutAccountView({
    ...user,
    payoutStatus: state.status,
    payoutRequirements: state.requirements,
    payoutCheckedAt: checkedAt,
    ...(state.disabledReason ? { payoutDisabledReason: state.disabledReason } : { payoutDisabledReason: undefined }),
  } as PayoutAccountUser);
};

/** On return from onboarding: the server reads the account from Stripe itself and keeps what it says. */
export const refreshPayoutAccount = async (userId: string): Promise<PayoutAccountView> => {
  const user = await readUser(userId);
  if (!user?.stripeAccountId) return toPayoutAccountView(user ?? { userId, email: '' });
  const accountId = user.stripeAccountId;
  const account = await withStripe(() => retrieveAccount(accountId));
  return (await syncPayoutAccount(userId, account)) ?? toPayoutAccountView((await readUser(userId)) ?? user);
};

export const payoutAccountOf = async (userId: string) =>
  toPayoutAccountView((await readUser(userId)) ?? { userId, email: '' });
