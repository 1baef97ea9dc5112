import type { PayoutAccountStatus } from '@marketplace/events/payouts';
import type Stripe from 'stripe';
import { config } from '../config';
import { logger } from './logger';
import { recordMetrics } from './metrics';
import { readSecret, stripeCalls } from './stripe';
import { verifyStripeSignature } from './stripe-webhook-signature';

/**
 * Stripe Connect for editors' payouts: an Express connected account per editor (v1 Accounts API,
 * docs/decisions/0095-editor-payouts-through-stripe-connect-express.md), its hosted onboarding,
 * transfers of earnings to it, their reversals, and the Connect endpoint's webhook signature.
 */

let connectSecret: Promise<string> | undefined;

/** The Connect endpoint's signing secret: from the environment locally, from the Stripe secret in the cloud. */
const loadConnectSecret = async () => {
  const { STRIPE_CONNECT_WEBHOOK_SECRET, STRIPE_SECRET_ARN, AWS_REGION } = config();
  if (STRIPE_CONNECT_WEBHOOK_SECRET) return STRIPE_CONNECT_WEBHOOK_SECRET;
  if (!STRIPE_SECRET_ARN) throw new Error('Stripe Connect is not configured: set STRIPE_CONNECT_WEBHOOK_SECRET');
  const parsed = JSON.parse((await readSecret(STRIPE_SECRET_ARN, AWS_REGION)) ?? '{}') as {
    connectWebhookSecret?: string;
  };
  if (!parsed.connectWebhookSecret) throw new Error('The Stripe secret must hold "connectWebhookSecret"');
  return parsed.connectWebhookSecret;
};

const connectWebhookSecret = () => {
  connectSecret ??= loadConnectSecret().catch((error: unknown) => {
    connectSecret = undefined;
    throw error;
  });
  return connectSecret;
};

/** The Connect event Stripe signed with the Connect endpoint's secret, or null when it does not verify. */
export const verifiedConnectEvent = async (payload: string | Buffer, signature: string) =>
  verifyStripeSignature(payload, signature, await connectWebhookSecret()) as Stripe.Event | null;

const counted = async <T>(call: () => Promise<T>) => {
  try {
    return await call();
  } catch (error) {
    recordMetrics({ StripeErrors: 1 });
    throw error;
  }
};

/**
 * The editor's Express account, made once: the idempotency key is the editor's, so a retry or a
 * second tab gets the same account back from Stripe (within Stripe's 24 hours; the user record's
 * conditional write holds it after that).
 */
export const createEditorAccount = async (editor: { userId: string; email: string }) =>
  counted(async () =>
    (await stripeCalls()).accounts.create(
      {
        type: 'express',
        country: 'US',
        email: editor.email,
        business_type: 'individual',
        capabilities: { transfers: { requested: true } },
        business_profile: { product_description: 'Real-estate photo editing', url: config().SITE_URL },
        metadata: { userId: editor.userId },
      },
      { idempotencyKey: `editor-account-${editor.userId}` },
    ),
  );

export const retrieveAccount = async (accountId: string) =>
  counted(async () => (await stripeCalls()).accounts.retrieve(accountId));

/** A one-time link into Stripe's hosted onboarding; Stripe sends the editor to one of the two pages after. */
export const createOnboardingLink = async ({
  accountId,
  returnUrl,
  refreshUrl,
}: {
  accountId: string;
  returnUrl: string;
  refreshUrl: string;
}) =>
  counted(async () =>
    (await stripeCalls()).accountLinks.create({
      account: accountId,
      type: 'account_onboarding',
      return_url: returnUrl,
      refresh_url: refreshUrl,
    }),
  );

/** What the account lets us do, read from Stripe's account object alone. */
export const payoutAccountStateOf = (
  account: Pick<Stripe.Account, 'details_submitted' | 'payouts_enabled' | 'capabilities' | 'requirements'>,
): { status: PayoutAccountStatus; requirements: string[]; disabledReason: string | null } => {
  const due = account.requirements?.currently_due ?? [];
  const disabledReason = account.requirements?.disabled_reason ?? null;
  const transfers = account.capabilities?.transfers;
  let status: PayoutAccountStatus;
  if (account.payouts_enabled && transfers === 'active') status = 'enabled';
  else if (disabledReason && /^(rejected|platform_paused|listed|under_review)/.test(disabledReason))
    status = 'restricted';
  else if (!account.details_submitted) status = 'onboarding';
  else if (due.length) status = 'needs_info';
  else status = 'pending';
  return { status, requirements: [...due], disabledReason: status === 'restricted' ? disabledReason : null };
};

/** Stripe refused a request of ours (a 4xx): trying again as it is will not help until something changes. */
export const isRefusedByStripe = (error: unknown) =>
  ['StripeInvalidRequestError', 'StripePermissionError', 'StripeCardError'].includes(
    (error as { type?: string } | undefined)?.type ?? '',
  );

/** Stripe's words for a refusal or an outage, as the admin and the editor read them. */
export const stripeFailureText = (error: unknown) => {
  const { type, code, message } = (error ?? {}) as { type?: string; code?: string; message?: string };
  if (code === 'balance_insufficient') return "The platform's Stripe balance is too low for this transfer.";
  if (code === 'insufficient_capabilities_for_transfer') return "The editor's account cannot receive transfers yet.";
  if (type === 'StripeConnectionError' || type === 'StripeAPIError' || type === 'StripeRateLimitError') {
    return 'Stripe could not be reached; the transfer will be tried again.';
  }
  return message?.slice(0, 300) || 'Stripe refused the transfer.';
};

/**
 * The transfer of one earning: its idempotency key is the earning's, so a retry, a redelivery or
 * two releases at once make one transfer. `transfer_group` is the order, as its charge's.
 */
export const transferEarning = async (earning: {
  orderId: string;
  editorId: string;
  accountId: string;
  amountCents: number;
  orderNumber?: number | undefined;
}) =>
  counted(async () =>
    (await stripeCalls()).transfers.create(
      {
        amount: earning.amountCents,
        currency: 'usd',
        destination: earning.accountId,
        transfer_group: earning.orderId,
        description: `Editing of order${earning.orderNumber ? ` #${earning.orderNumber}` : ''}`,
        metadata: { earningId: earning.orderId, orderId: earning.orderId, editorId: earning.editorId },
      },
      { idempotencyKey: earningTransferKey(earning.orderId) },
    ),
  );

export const earningTransferKey = (orderId: string) => `earning-${orderId}-transfer`;
export const earningReversalKey = (orderId: string) => `earning-${orderId}-reversal`;

/** The transfer already made for this earning, found by its order's transfer group (a release that lost its answer). */
export const findEarningTransfer = async (orderId: string) =>
  counted(async () => {
    const { data } = await (await stripeCalls()).transfers.list({ transfer_group: orderId, limit: 10 });
    return data.find((t) => t.metadata?.earningId === orderId) ?? null;
  });

/** Takes an earning's transfer back, whole, once (the key is the earning's). */
export const reverseEarningTransfer = async (orderId: string, transferId: string) =>
  counted(async () =>
    (await stripeCalls()).reversals.create(
      transferId,
      { metadata: { earningId: orderId, orderId } },
      { idempotencyKey: earningReversalKey(orderId) },
    ),
  );

/** Every transfer Stripe holds, a page at a time, newest first (for the ops check). */
export async function* allTransfers(pageSize = 100) {
  const client = await stripeCalls();
  let startingAfter: string | undefined;
  for (;;) {
    const page = await client.transfers.list({
      limit: pageSize,
      ...(startingAfter ? { starting_after: startingAfter } : {}),
    });
    for (const transfer of page.data) yield transfer;
    if (!page.has_more || page.data.length === 0) return;
    startingAfter = page.data.at(-1)!.id;
  }
}

export const logStripeRefusal = (what: string, context: Record<string, unknown>, error: unknown) =>
  logger.warn(what, { ...context, error: error as Error });
