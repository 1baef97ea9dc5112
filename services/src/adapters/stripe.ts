import type Stripe from 'stripe';
import { config } from '../config';
import type { PaymentFacts } from '../domain/payment-check';
import { HttpError } from '../http/errors';
import { awsJsonHeaders, awsService, regionalHost } from './aws-requests';
import { logger } from './logger';
import { recordMetrics } from './metrics';
import { stripeApi } from './stripe-api';
import { verifyStripeSignature } from './stripe-webhook-signature';

/**
 * Stripe, or the local fake that speaks Stripe's API: only the host differs, by configuration.
 * Keys come from the environment locally and from Secrets Manager in the cloud (read once per
 * container, started while the function initialises). The routes call Stripe's API over
 * node:https (stripe-api.ts), not through the `stripe` package, which would weigh on every cold
 * start, nor over fetch, whose first use loads Node's HTTP client.
 */
interface StripeKeys {
  secretKey: string;
  webhookSecret: string;
}

let keys: Promise<StripeKeys> | undefined;

/**
 * Secrets Manager's GetSecretValue (AWS JSON 1.1), signed and sent by aws-requests.ts: its SDK
 * client would be loaded, and compiled, on every cold start of the Stripe routes. The endpoint is
 * the one the SDK would use: AWS_ENDPOINT_URL_SECRETS_MANAGER or AWS_ENDPOINT_URL when set.
 */
export const readSecret = async (secretId: string, region: string) => {
  const endpoint =
    process.env.AWS_ENDPOINT_URL_SECRETS_MANAGER ||
    process.env.AWS_ENDPOINT_URL ||
    `https://${regionalHost('secretsmanager', region)}`;
  const { SecretString } = await awsService({
    name: 'Secrets Manager',
    signingName: 'secretsmanager',
    region,
  }).sendJson<{ SecretString?: string }>('GetSecretValue', {
    url: endpoint,
    headers: awsJsonHeaders('1.1', 'secretsmanager.GetSecretValue'),
    input: { SecretId: secretId },
  });
  return SecretString;
};

const loadKeys = async (): Promise<StripeKeys> => {
  const { STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_SECRET_ARN, AWS_REGION } = config();
  if (STRIPE_SECRET_KEY && STRIPE_WEBHOOK_SECRET) {
    return { secretKey: STRIPE_SECRET_KEY, webhookSecret: STRIPE_WEBHOOK_SECRET };
  }
  if (!STRIPE_SECRET_ARN) throw new Error('Stripe is not configured: set STRIPE_SECRET_ARN or the two keys');
  const parsed = JSON.parse((await readSecret(STRIPE_SECRET_ARN, AWS_REGION)) ?? '{}') as Partial<StripeKeys>;
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

/** The API calls the routes make, with this container's key, to Stripe or the configured stand-in. */
export const stripeCalls = async () =>
  stripeApi({ secretKey: (await stripeKeys()).secretKey, baseUrl: config().STRIPE_API_URL });

/**
 * A card payment for one order, in USD. The idempotency key makes a retried create return the
 * same intent; a payment started again after Stripe lost the first intent uses a key of its own.
 */
export const createOrderPaymentIntent = async ({
  orderId,
  orderNumber,
  amountCents,
  idempotencyKey = `order-${orderId}-payment-intent`,
}: {
  orderId: string;
  orderNumber: number;
  amountCents: number;
  idempotencyKey?: string;
}) =>
  callStripe(
    'Card payments are not available right now. Nothing was charged; please try again in a moment.',
    async () =>
      payableIntent(
        await (await stripeCalls()).paymentIntents.create(
          {
            amount: amountCents,
            currency: 'usd',
            automatic_payment_methods: { enabled: true },
            description: `Photo editing order #${orderNumber}`,
            metadata: { orderId, orderNumber: String(orderNumber) },
          },
          { idempotencyKey },
        ),
      ),
  );

/**
 * A new amount on an order's unconfirmed intent (its add-ons changed). The key names the order's
 * change and the amount, so a retried request is sent once and a later change is never answered
 * with an earlier one's reply.
 */
export const updateOrderPaymentIntentAmount = async ({
  paymentIntentId,
  amountCents,
  idempotencyKey,
}: {
  paymentIntentId: string;
  amountCents: number;
  idempotencyKey: string;
}) =>
  callStripe(
    'Card payments are not available right now. Nothing was changed; please try again in a moment.',
    async () =>
      readablePaymentIntent(
        await (await stripeCalls()).paymentIntents.update(paymentIntentId, { amount: amountCents }, { idempotencyKey }),
      ),
  );

const checkFailed = 'Your payment could not be checked with the card provider just now. Please try again in a moment.';

/** The intent, or null when Stripe says it has no such intent (deleted, or never made with these keys). */
export const findPaymentIntent = async (paymentIntentId: string) =>
  callStripe(checkFailed, async () => {
    try {
      return readablePaymentIntent(await (await stripeCalls()).paymentIntents.retrieve(paymentIntentId));
    } catch (error) {
      if (isMissingAtStripe(error)) return null;
      throw error;
    }
  });

/** The intent; one Stripe does not know is a 409 telling the photographer to start the payment again. */
export const retrievePaymentIntent = async (paymentIntentId: string) => {
  const intent = await findPaymentIntent(paymentIntentId);
  if (intent) return intent;
  logger.warn('payment intent not found at stripe', { paymentIntentId });
  throw new HttpError(
    409,
    'PAYMENT_NOT_FOUND',
    "This payment could not be found at the card provider. Please open the order's payment page to start the payment again.",
  );
};

/** Stripe failing on its side or unreachable, after stripe-api.ts's retries: the caller may just try again. */
const STRIPE_DOWN = new Set(['StripeAPIError', 'StripeConnectionError', 'StripeRateLimitError']);

/** Stripe's own word that it has no such object. */
export const isMissingAtStripe = (error: unknown) =>
  (error as { type?: string } | undefined)?.type === 'StripeInvalidRequestError' &&
  (error as { code?: string }).code === 'resource_missing';

/** An answer that is no payment intent we can read (valid JSON of another shape). */
class UnreadableAnswer extends Error {}

/**
 * Every call to Stripe: whatever Stripe answers that the caller does not handle itself (down,
 * unreachable, a body that is not JSON or not the object asked for, a refusal of our request)
 * is a 502 PAYMENT_PROVIDER_UNAVAILABLE with this message, never the generic 500. Only Stripe
 * being down is worth a quick retry, but the browser cannot tell them apart and need not: in
 * every case nothing was written on our side. The log keeps what Stripe said.
 */
export const callStripe = async <T>(message: string, call: () => Promise<T>): Promise<T> => {
  try {
    return await call();
  } catch (error) {
    if (error instanceof HttpError) throw error;
    const type = (error as { type?: string } | undefined)?.type ?? '';
    const fromStripe = error instanceof UnreadableAnswer || (error instanceof Error && type.startsWith('Stripe'));
    if (!fromStripe) throw error;
    recordMetrics({ StripeErrors: 1 });
    if (STRIPE_DOWN.has(type)) logger.error('stripe unavailable', { error: error as Error });
    else logger.error('stripe answer not usable', { error: error as Error });
    throw new HttpError(502, 'PAYMENT_PROVIDER_UNAVAILABLE', message);
  }
};

/** The fields we rely on, checked: an answer without them is Stripe's fault, not a 500 of ours. */
export const readablePaymentIntent = <T>(value: T): T & PaymentFacts => {
  const intent = value as Partial<PaymentFacts> | null;
  const readable =
    typeof intent === 'object' &&
    intent !== null &&
    typeof intent.id === 'string' &&
    typeof intent.status === 'string' &&
    Number.isInteger(intent.amount) &&
    typeof intent.currency === 'string' &&
    (intent.metadata === undefined || intent.metadata === null || typeof intent.metadata === 'object');
  if (!readable) throw new UnreadableAnswer('The answer is not a payment intent');
  return value as T & PaymentFacts;
};

/** A new intent must carry the client secret the card form confirms with. */
const payableIntent = (intent: Stripe.PaymentIntent) => {
  readablePaymentIntent(intent);
  if (typeof intent.client_secret !== 'string')
    throw new UnreadableAnswer('The new payment intent has no client secret');
  return intent as Stripe.PaymentIntent & { client_secret: string };
};

/**
 * The event Stripe signed, or null when the signature does not verify over these exact bytes
 * (wrong secret, altered body, stale timestamp, malformed header).
 */
export const verifiedWebhookEvent = async (payload: string | Buffer, signature: string) => {
  const { webhookSecret } = await stripeKeys();
  return verifyStripeSignature(payload, signature, webhookSecret) as Stripe.Event | null;
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
  (await stripeCalls()).refunds
    .create(
      { payment_intent: paymentIntentId, ...(amountCents === undefined ? {} : { amount: amountCents }) },
      { idempotencyKey },
    )
    .catch((error: unknown) => {
      recordMetrics({ StripeErrors: 1 });
      throw error;
    });

/**
 * Stops a payment that has not gone through, so the card form can no longer charge it: canceled
 * (now or before), missing (Stripe has no such intent), or succeeded, with the intent, when the
 * charge went through first. Stripe down or answering otherwise is a 502: nothing was stopped.
 */
export const cancelPaymentIntent = async (
  paymentIntentId: string,
): Promise<{ status: 'canceled' | 'missing' } | { status: 'succeeded'; intent: Stripe.PaymentIntent }> =>
  callStripe(
    'The payment could not be stopped at the card provider just now. Please try again in a moment.',
    async () => {
      const client = await stripeCalls();
      try {
        await client.paymentIntents.cancel(paymentIntentId);
        return { status: 'canceled' };
      } catch (error) {
        if (isMissingAtStripe(error)) return { status: 'missing' };
        if ((error as { code?: string }).code !== 'payment_intent_unexpected_state') throw error;
        const intent = readablePaymentIntent(await client.paymentIntents.retrieve(paymentIntentId));
        if (intent.status === 'canceled') return { status: 'canceled' };
        if (intent.status === 'succeeded') return { status: 'succeeded', intent };
        throw error;
      }
    },
  );
