import type Stripe from 'stripe';
import { config } from '../config';
import { HttpError } from '../http/errors';
import { logger } from './logger';

/**
 * Stripe, or the local fake that speaks Stripe's API: only the host differs, by configuration.
 * Keys come from the environment locally and from Secrets Manager in the cloud (read once per
 * container, started while the function initialises). The SDK itself is loaded on first use: it
 * is a large module, and several functions bundle this file without ever calling Stripe.
 */
interface StripeKeys {
  secretKey: string;
  webhookSecret: string;
}

let keys: Promise<StripeKeys> | undefined;
let client: Promise<Stripe> | undefined;

const loadKeys = async (): Promise<StripeKeys> => {
  const { STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_SECRET_ARN, AWS_REGION } = config();
  if (STRIPE_SECRET_KEY && STRIPE_WEBHOOK_SECRET) {
    return { secretKey: STRIPE_SECRET_KEY, webhookSecret: STRIPE_WEBHOOK_SECRET };
  }
  if (!STRIPE_SECRET_ARN) throw new Error('Stripe is not configured: set STRIPE_SECRET_ARN or the two keys');
  const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
  const secrets = new SecretsManagerClient({ region: AWS_REGION });
  const { SecretString } = await secrets.send(new GetSecretValueCommand({ SecretId: STRIPE_SECRET_ARN }));
  const parsed = JSON.parse(SecretString ?? '{}') as Partial<StripeKeys>;
  if (!parsed.secretKey || !parsed.webhookSecret) {
    throw new Error('The Stripe secret must hold {"secretKey": ..., "webhookSecret": ...}');
  }
  return { secretKey: parsed.secretKey, webhookSecret: parsed.webhookSecret };
};

export const stripeKeys = () => {
  keys ??= loadKeys().catch((error: unknown) => {
    // A failed read (Secrets Manager briefly unreachable) is not kept: the next request reads again.
    keys = undefined;
    throw error;
  });
  return keys;
};

/**
 * In the cloud the keys are a Secrets Manager call: start it during the function's init (this
 * module loads with the functions granted 'stripe', the only ones given STRIPE_SECRET_ARN), so the
 * first request finds it done or under way. A failure here is left to that request to report.
 */
export const prefetchStripeKeys = (environment: NodeJS.ProcessEnv = process.env) => {
  const fromEnvironment = environment.STRIPE_SECRET_KEY && environment.STRIPE_WEBHOOK_SECRET;
  if (!environment.STRIPE_SECRET_ARN || fromEnvironment) return false;
  stripeKeys().catch(() => undefined);
  return true;
};
prefetchStripeKeys();

const stripeSdk = async () => (await import('stripe')).default;

export const stripe = () => {
  if (client) return client;
  client = Promise.all([stripeKeys(), stripeSdk()]).then(([{ secretKey }, StripeClient]) => {
    const apiUrl = config().STRIPE_API_URL;
    const target = apiUrl ? new URL(apiUrl) : undefined;
    return new StripeClient(secretKey, {
      maxNetworkRetries: 2,
      timeout: 8000,
      ...(target
        ? {
            host: target.hostname,
            port: Number(target.port || (target.protocol === 'https:' ? 443 : 80)),
            protocol: target.protocol.replace(':', '') as 'http' | 'https',
          }
        : {}),
    });
  });
  client.catch(() => {
    client = undefined;
  });
  return client;
};

/** A card payment for one order, in USD; the idempotency key makes a retried create return the same intent. */
export const createOrderPaymentIntent = async ({
  orderId,
  orderNumber,
  amountCents,
}: {
  orderId: string;
  orderNumber: number;
  amountCents: number;
}) =>
  unlessStripeIsDown(
    'Card payments are not available right now. Nothing was charged; please try again in a moment.',
    async () =>
      (await stripe()).paymentIntents.create(
        {
          amount: amountCents,
          currency: 'usd',
          automatic_payment_methods: { enabled: true },
          description: `Photo editing order #${orderNumber}`,
          metadata: { orderId, orderNumber: String(orderNumber) },
        },
        { idempotencyKey: `order-${orderId}-payment-intent` },
      ),
  );

export const retrievePaymentIntent = async (paymentIntentId: string) =>
  unlessStripeIsDown(
    'Your payment could not be checked with the card provider just now. Please try again in a moment.',
    async () => (await stripe()).paymentIntents.retrieve(paymentIntentId),
  );

/** Stripe failing on its side or unreachable, after the SDK's own retries: the caller may just try again. */
const STRIPE_DOWN = new Set(['StripeAPIError', 'StripeConnectionError', 'StripeRateLimitError']);

const unlessStripeIsDown = async <T>(message: string, call: () => Promise<T>): Promise<T> => {
  try {
    return await call();
  } catch (error) {
    if (!STRIPE_DOWN.has((error as { type?: string } | undefined)?.type ?? '')) throw error;
    logger.error('stripe unavailable', { error: error as Error });
    throw new HttpError(502, 'PAYMENT_PROVIDER_UNAVAILABLE', message);
  }
};

/**
 * The event Stripe signed, or null when the signature does not verify over these exact bytes
 * (wrong secret, altered body, stale timestamp).
 */
export const verifiedWebhookEvent = async (payload: string | Buffer, signature: string) => {
  const [client, { webhookSecret }] = await Promise.all([stripe(), stripeKeys()]);
  try {
    return client.webhooks.constructEvent(payload, signature, webhookSecret);
  } catch {
    // Not only StripeSignatureVerificationError: a header with an empty signature (`v1=`) makes
    // the SDK's compare throw a plain Error. Either way the call is not from Stripe.
    return null;
  }
};

/** Gives back all of a payment (or `amountCents` of it); the key makes a retried refund happen once. */
export const refundPayment = async ({
  paymentIntentId,
  amountCents,
  idempotencyKey,
}: {
  paymentIntentId: string;
  amountCents?: number;
  idempotencyKey: string;
}) =>
  (await stripe()).refunds.create(
    { payment_intent: paymentIntentId, ...(amountCents === undefined ? {} : { amount: amountCents }) },
    { idempotencyKey },
  );

/**
 * Stops a payment that has not gone through, so the card form can no longer charge it: canceled
 * (now or before), missing (Stripe has no such intent), or succeeded, with the intent, when the
 * charge went through first.
 */
export const cancelPaymentIntent = async (
  paymentIntentId: string,
): Promise<{ status: 'canceled' | 'missing' } | { status: 'succeeded'; intent: Stripe.PaymentIntent }> => {
  const client = await stripe();
  try {
    await client.paymentIntents.cancel(paymentIntentId);
    return { status: 'canceled' };
  } catch (error) {
    if (!(error instanceof (await stripeSdk()).errors.StripeInvalidRequestError)) throw error;
    if (error.code === 'resource_missing') return { status: 'missing' };
    if (error.code !== 'payment_intent_unexpected_state') throw error;
    const intent = await client.paymentIntents.retrieve(paymentIntentId);
    if (intent.status === 'canceled') return { status: 'canceled' };
    if (intent.status === 'succeeded') return { status: 'succeeded', intent };
    throw error;
  }
};
