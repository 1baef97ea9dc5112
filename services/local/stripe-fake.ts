import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import { StripeFakeStore } from './stripe-fake-store';

/**
 * A Stripe stand-in for the few endpoints the marketplace calls, speaking Stripe's own paths,
 * form-encoded bodies, keys and object shapes, so our Stripe client (adapters/stripe-api.ts), the
 * `stripe` SDK the tests use, and a browser confirming the way Stripe.js does work against it unchanged. After a confirm it sends signed webhooks to our
 * webhook route, as Stripe does. Given a `stateDir`, it keeps its payment intents, refunds and
 * idempotency keys there (see stripe-fake-store.ts), so a payment outlives a restart; without
 * one, they live in memory only.
 *
 * Test cards (as `payment_method`, or a card number in `payment_method_data[card][number]`):
 * pm_card_visa / 4242424242424242 succeed; pm_card_chargeDeclined / 4000000000000002 are declined;
 * pm_card_chargeDeclinedInsufficientFunds / 4000000000009995 are declined for insufficient funds.
 *
 * Faults, for tests (local only, never part of Stripe's API): `POST /__faults` with
 * `{method?, path, match?, status?, times?, when?, reply?}` makes the next `times` requests to that
 * path (whose form params include `match`) answer badly. `reply` is "error" (the default: `status`,
 * 500 unless given, with Stripe's api_error body; a 404 gets Stripe's own `resource_missing` body
 * for the object the path names, as for an intent Stripe does not know), "malformed" (`status`,
 * 200 unless given, with a body cut off mid-JSON) or "disconnect" (the connection is closed with
 * no answer). `when` is "before" (the default: nothing runs, as an outage in front of the API) or
 * "after" (the request runs and its answer is lost, so a retry with the same idempotency key gets
 * the replay). A fault on the path `webhooks` drops that many delivery attempts of events whose
 * object matches (as if our webhook route were unreachable; Stripe gives up after its attempts).
 * `GET /__faults` lists the faults left and the requests seen; `DELETE /__faults` clears both.
 *
 * `POST /__restart` (local only too) drops every object the fake holds in memory and reads its
 * folder again, exactly as a new process does at start-up, so a test can restart the stack's fake
 * without stopping the stack. Faults, the requests seen and webhook deliveries already under way
 * are kept: they belong to the tests running beside it on the same fake, not to Stripe's state.
 */
export interface StripeFakeOptions {
  port: number;
  webhookUrl: string;
  webhookSecret: string;
  /** The folder that keeps the fake's objects across restarts; without one they live in memory only. */
  stateDir?: string;
  log?: (line: string) => void;
}

type Params = Record<string, unknown>;

interface PaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_capturable: number;
  amount_received: number;
  automatic_payment_methods: { enabled: boolean; allow_redirects: string } | null;
  canceled_at: number | null;
  cancellation_reason: string | null;
  capture_method: string;
  client_secret: string;
  confirmation_method: string;
  created: number;
  currency: string;
  customer: string | null;
  description: string | null;
  last_payment_error: Params | null;
  latest_charge: string | null;
  livemode: false;
  metadata: Record<string, string>;
  next_action: null;
  payment_method: string | null;
  payment_method_types: string[];
  receipt_email: string | null;
  status: 'requires_payment_method' | 'requires_confirmation' | 'succeeded' | 'canceled';
}

interface Refund {
  id: string;
  object: 'refund';
  amount: number;
  balance_transaction: null;
  charge: string | null;
  created: number;
  currency: string;
  metadata: Record<string, string>;
  payment_intent: string;
  reason: string | null;
  receipt_number: null;
  status: 'succeeded';
}

interface Answer {
  status: number;
  body: unknown;
  /** Sent as it is instead of the body as JSON (a malformed answer). */
  raw?: string;
  /** No answer at all: the connection is closed. */
  hangUp?: boolean;
}

/** The first answer under an idempotency key, replayed to a retry with that key. */
interface IdempotentAnswer {
  route: string;
  answer: Answer;
  /** Milliseconds since the epoch; Stripe forgets a key after a day. */
  createdAt: number;
}

type Caller = { kind: 'secret' } | { kind: 'publishable' };

export interface StripeFault {
  method?: string;
  path: string;
  /** Only requests whose (top-level) form params hold these values. */
  match?: Record<string, string>;
  status: number;
  times: number;
  when: 'before' | 'after';
  reply: FaultReply;
}

const faultReplies = ['error', 'malformed', 'disconnect'] as const;
export type FaultReply = (typeof faultReplies)[number];

/** One request as the fake saw it, for tests to check what the SDK sent and retried. */
export interface SeenRequest {
  method: string;
  path: string;
  idempotencyKey?: string;
  /** 0 when the connection was closed with no answer. */
  status: number;
  replayed: boolean;
  injected: boolean;
}

const SEEN_REQUESTS_KEPT = 500;
const IDEMPOTENCY_KEYS_KEPT_MS = 24 * 60 * 60 * 1000;
/** What a "malformed" fault answers: JSON cut off, as from a proxy that dropped the rest. */
const MALFORMED_BODY = '{"id": "pi_';

const WEBHOOK_ATTEMPTS = 5;
const WEBHOOK_FIRST_RETRY_MS = 200;
/** Stripe sends events after its API has answered; the browser's own report usually comes first. */
const WEBHOOK_DELAY_MS = 250;
const API_VERSION = '2026-10-28.endive';

const randomId = (prefix: string, length = 24) =>
  `${prefix}_${randomBytes(length).toString('base64url').replace(/[-_]/g, '').slice(0, length)}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Stripe's form encoding: `metadata[orderId]=x`, `items[0][price]=y` -> nested objects and arrays. */
export const parseStripeForm = (text: string): Params => {
  const root: Params = {};
  for (const [fullKey, value] of new URLSearchParams(text)) {
    const [head, ...rest] = fullKey.split('[');
    const path = [head!, ...rest.map((part) => part.replace(/\]$/, ''))];
    let node: Params = root;
    path.forEach((key, i) => {
      if (i === path.length - 1) {
        node[key] = value;
        return;
      }
      if (typeof node[key] !== 'object' || node[key] === null) node[key] = {};
      node = node[key] as Params;
    });
  }
  const arrays = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    const entries = Object.entries(value as Params).map(([k, v]) => [k, arrays(v)] as const);
    const isArray = entries.length > 0 && entries.every(([k], i) => k === String(i));
    return isArray ? entries.map(([, v]) => v) : Object.fromEntries(entries);
  };
  return arrays(root) as Params;
};

const stripeError = (status: number, error: Params): Answer => ({ status, body: { error } });
const invalidRequest = (message: string, extra: Params = {}, status = 400) =>
  stripeError(status, { type: 'invalid_request_error', message, ...extra });
const missingResource = (kind: string, id: string, param: string) =>
  invalidRequest(
    `No such ${kind}: '${id}'`,
    { code: 'resource_missing', doc_url: 'https://stripe.com/docs/error-codes/resource-missing', param },
    404,
  );

interface CardOutcome {
  paymentMethod: string;
  brand: string;
  last4: string;
  decline?: { code: string; declineCode: string; message: string };
}

const generic = { code: 'card_declined', declineCode: 'generic_decline', message: 'Your card was declined.' };
const insufficient = {
  code: 'card_declined',
  declineCode: 'insufficient_funds',
  message: 'Your card has insufficient funds.',
};
const testPaymentMethods: Record<string, Omit<CardOutcome, 'paymentMethod'>> = {
  pm_card_visa: { brand: 'visa', last4: '4242' },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444' },
  pm_card_amex: { brand: 'amex', last4: '8431' },
  pm_card_chargeDeclined: { brand: 'visa', last4: '0002', decline: generic },
  pm_card_visa_chargeDeclined: { brand: 'visa', last4: '0341', decline: generic },
  pm_card_chargeDeclinedInsufficientFunds: { brand: 'visa', last4: '9995', decline: insufficient },
};
const testCardNumbers: Record<string, string> = {
  '4242424242424242': 'pm_card_visa',
  '5555555555554444': 'pm_card_mastercard',
  '378282246310005': 'pm_card_amex',
  '4000000000000002': 'pm_card_chargeDeclined',
  '4000000000009995': 'pm_card_chargeDeclinedInsufficientFunds',
};

/** The card a confirm names: a test PaymentMethod id, or card details as Stripe.js sends them. */
const cardOf = (params: Params, attached: string | null): CardOutcome | Answer | null => {
  const data = params.payment_method_data as { card?: { number?: string } } | undefined;
  const number = data?.card?.number?.replace(/\s/g, '');
  const named = typeof params.payment_method === 'string' ? params.payment_method : undefined;
  const id = number !== undefined ? testCardNumbers[number] : (named ?? attached ?? undefined);
  if (number !== undefined && !id) {
    return stripeError(402, {
      type: 'card_error',
      code: 'incorrect_number',
      message: 'Your card number is incorrect.',
      param: 'number',
    });
  }
  if (!id) return null;
  const known = testPaymentMethods[id];
  if (!known) return missingResource('PaymentMethod', id, 'payment_method');
  return { paymentMethod: id, ...known };
};

const isAnswer = (value: unknown): value is Answer =>
  typeof value === 'object' && value !== null && 'status' in value && 'body' in value;

export const startStripeFake = async ({
  port,
  webhookUrl,
  webhookSecret,
  stateDir,
  log = () => {},
}: StripeFakeOptions) => {
  const store = new StripeFakeStore(stateDir, ['intents', 'refunds', 'idempotent'] as const, log);
  let intents = new Map<string, PaymentIntent>();
  let refunds = new Map<string, Refund>();
  /** Idempotency-Key -> the first answer, so a retried request gets the same object back. */
  let idempotent = new Map<string, IdempotentAnswer>();
  /** What a new process starts with: the objects in the folder, less the idempotency keys Stripe has forgotten. */
  const readState = () => {
    const stored = store.load();
    intents = stored.intents as Map<string, PaymentIntent>;
    refunds = stored.refunds as Map<string, Refund>;
    idempotent = stored.idempotent as Map<string, IdempotentAnswer>;
    const forgottenBefore = Date.now() - IDEMPOTENCY_KEYS_KEPT_MS;
    for (const [key, kept] of idempotent) if (kept.createdAt < forgottenBefore) idempotent.delete(key);
    store.snapshot(stored);
  };
  readState();
  const saveIntent = (intent: PaymentIntent) => store.put('intents', intent.id, intent);
  const refundedCentsOf = (intentId: string) =>
    [...refunds.values()].filter((r) => r.payment_intent === intentId).reduce((sum, r) => sum + r.amount, 0);
  const pendingDeliveries = new Set<NodeJS.Timeout>();
  let closed = false;
  let faults: StripeFault[] = [];
  const seen: SeenRequest[] = [];

  /** The first fault that applies to this request, used up by one. */
  const takeFault = (method: string, path: string, params: Params) => {
    const fault = faults.find(
      (f) =>
        f.times > 0 &&
        f.path === path &&
        (!f.method || f.method.toUpperCase() === method) &&
        Object.entries(f.match ?? {}).every(([key, value]) => String(params[key]) === value),
    );
    if (!fault) return undefined;
    fault.times -= 1;
    faults = faults.filter((f) => f.times > 0);
    return fault;
  };

  const injectedError = (status: number): Answer =>
    stripeError(status, {
      type: 'api_error',
      message: 'An injected fault: the fake answered as if Stripe had an error on its side.',
    });

  /** What a fault answers instead of the request's own answer. */
  const faultyAnswer = (fault: StripeFault, path: string): Answer => {
    if (fault.reply === 'disconnect') return { status: 0, body: null, hangUp: true };
    if (fault.reply === 'malformed') return { status: fault.status, body: null, raw: MALFORMED_BODY };
    if (fault.status !== 404) return injectedError(fault.status);
    // Stripe's answer for an object it does not know, for the object the path names.
    const intent = /^\/v1\/payment_intents\/([^/]+)/.exec(path)?.[1];
    if (intent) return missingResource('payment_intent', decodeURIComponent(intent), 'intent');
    const refund = /^\/v1\/refunds\/([^/]+)/.exec(path)?.[1];
    if (refund) return missingResource('refund', decodeURIComponent(refund), 'id');
    return invalidRequest(`Unrecognized request URL (${path}).`, {}, 404);
  };

  /** The local-only control endpoint: faults to add, list or clear. */
  const controlFaults = (method: string, body: string): Answer => {
    if (method === 'GET') return { status: 200, body: { faults, requests: seen } };
    if (method === 'DELETE') {
      faults = [];
      seen.length = 0;
      return { status: 200, body: { faults } };
    }
    if (method !== 'POST') return invalidRequest(`${method} /__faults is not served`, {}, 405);
    let input: Partial<StripeFault>;
    try {
      input = JSON.parse(body || '{}');
    } catch {
      return invalidRequest('The fault must be JSON');
    }
    if (typeof input.path !== 'string' || !(input.path.startsWith('/v1/') || input.path === 'webhooks')) {
      return invalidRequest('A fault needs the path it applies to, such as /v1/payment_intents or webhooks');
    }
    const reply = input.reply ?? 'error';
    if (!faultReplies.includes(reply)) {
      return invalidRequest(`A fault's reply is one of ${faultReplies.join(', ')}`);
    }
    faults.push({
      ...(input.method ? { method: String(input.method) } : {}),
      path: input.path,
      ...(input.match ? { match: input.match } : {}),
      status: Number(input.status ?? (reply === 'malformed' ? 200 : 500)),
      times: Number(input.times ?? 1),
      when: input.when === 'after' ? 'after' : 'before',
      reply,
    });
    return { status: 200, body: { faults } };
  };

  const signedHeader = (payload: string) => {
    const t = nowSeconds();
    return `t=${t},v1=${createHmac('sha256', webhookSecret).update(`${t}.${payload}`).digest('hex')}`;
  };

  /** Sends one event as Stripe does: signed, retried with a growing pause until our route answers 2xx. */
  const deliver = (type: string, object: unknown) => {
    const event = {
      id: randomId('evt'),
      object: 'event',
      api_version: API_VERSION,
      created: nowSeconds(),
      data: { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: randomId('req', 14), idempotency_key: null },
      type,
    };
    const payload = JSON.stringify(event, null, 2);
    const attempt = async (n: number) => {
      if (closed) return;
      let outcome: string;
      const dropped = takeFault('POST', 'webhooks', object as Params);
      try {
        if (dropped) throw new Error(`an injected fault (${dropped.status})`);
        const response = await fetch(webhookUrl, {
          method: 'POST',
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
            'stripe-signature': signedHeader(payload),
          },
          body: payload,
        });
        await response.arrayBuffer();
        if (response.ok) return;
        outcome = `answered ${response.status}`;
      } catch (error) {
        outcome = `failed: ${(error as Error).message}`;
      }
      if (n >= WEBHOOK_ATTEMPTS || closed) {
        log(`stripe fake: gave up delivering ${event.type} ${event.id} after ${n} attempts (${outcome})`);
        return;
      }
      const timer = setTimeout(
        () => {
          pendingDeliveries.delete(timer);
          void attempt(n + 1);
        },
        WEBHOOK_FIRST_RETRY_MS * 2 ** (n - 1),
      );
      timer.unref();
      pendingDeliveries.add(timer);
    };
    const first = setTimeout(() => {
      pendingDeliveries.delete(first);
      void attempt(1);
    }, WEBHOOK_DELAY_MS);
    first.unref();
    pendingDeliveries.add(first);
  };

  const createIntent = (params: Params): Answer => {
    const amount = Number(params.amount);
    if (params.amount === undefined) return invalidRequest('Missing required param: amount.', { param: 'amount' });
    if (!Number.isInteger(amount) || amount < 1) {
      return invalidRequest('Invalid integer: amount', { code: 'parameter_invalid_integer', param: 'amount' });
    }
    if (amount < 50) {
      return invalidRequest('Amount must be at least $0.50 usd', { code: 'amount_too_small', param: 'amount' });
    }
    if (typeof params.currency !== 'string' || !params.currency) {
      return invalidRequest('Missing required param: currency.', { param: 'currency' });
    }
    const id = randomId('pi');
    const automatic = params.automatic_payment_methods as { enabled?: string } | undefined;
    const intent: PaymentIntent = {
      id,
      object: 'payment_intent',
      amount,
      amount_capturable: 0,
      amount_received: 0,
      automatic_payment_methods: automatic?.enabled === 'true' ? { enabled: true, allow_redirects: 'always' } : null,
      canceled_at: null,
      cancellation_reason: null,
      capture_method: 'automatic_async',
      client_secret: `${id}_secret_${randomBytes(18).toString('base64url').replace(/[-_]/g, '')}`,
      confirmation_method: 'automatic',
      created: nowSeconds(),
      currency: params.currency.toLowerCase(),
      customer: null,
      description: typeof params.description === 'string' ? params.description : null,
      last_payment_error: null,
      latest_charge: null,
      livemode: false,
      metadata: (params.metadata as Record<string, string> | undefined) ?? {},
      next_action: null,
      payment_method: null,
      payment_method_types: ['card'],
      receipt_email: null,
      status: 'requires_payment_method',
    };
    intents.set(id, intent);
    saveIntent(intent);
    return { status: 200, body: intent };
  };

  /** What a publishable key may see of an intent: Stripe.js gets it only with the matching client secret. */
  const intentFor = (caller: Caller, id: string, params: Params): PaymentIntent | Answer => {
    const intent = intents.get(id);
    if (!intent) return missingResource('payment_intent', id, 'intent');
    if (caller.kind === 'publishable') {
      if (typeof params.client_secret !== 'string') {
        return invalidRequest('You must provide a client_secret when using a publishable key.', {
          param: 'client_secret',
        });
      }
      if (params.client_secret !== intent.client_secret) {
        return invalidRequest(
          'The client_secret provided does not match the client_secret associated with the PaymentIntent.',
          { code: 'payment_intent_invalid_parameter', param: 'client_secret' },
        );
      }
    }
    return intent;
  };

  const confirmIntent = (caller: Caller, id: string, params: Params): Answer => {
    const intent = intentFor(caller, id, params);
    if (isAnswer(intent)) return intent;
    if (intent.status === 'succeeded' || intent.status === 'canceled') {
      const already = intent.status === 'succeeded' ? 'it has already succeeded' : 'it has a status of canceled';
      return invalidRequest(`You cannot confirm this PaymentIntent because ${already}.`, {
        code: 'payment_intent_unexpected_state',
        payment_intent: intent,
      });
    }
    const card = cardOf(params, intent.payment_method);
    if (isAnswer(card)) return card;
    if (!card) {
      return invalidRequest(
        "You cannot confirm this PaymentIntent because it's missing a payment method. To confirm the PaymentIntent, pass a payment_method.",
        { code: 'payment_intent_unexpected_state', payment_intent: intent },
      );
    }
    if (card.decline) {
      const error = {
        type: 'card_error',
        code: card.decline.code,
        decline_code: card.decline.declineCode,
        doc_url: 'https://stripe.com/docs/error-codes/card-declined',
        message: card.decline.message,
        payment_method: {
          id: card.paymentMethod,
          object: 'payment_method',
          type: 'card',
          card: { brand: card.brand, last4: card.last4 },
        },
      };
      Object.assign(intent, { status: 'requires_payment_method', payment_method: null, last_payment_error: error });
      saveIntent(intent);
      deliver('payment_intent.payment_failed', intent);
      return stripeError(402, { ...error, payment_intent: intent });
    }
    Object.assign(intent, {
      status: 'succeeded',
      amount_received: intent.amount,
      payment_method: card.paymentMethod,
      latest_charge: intent.latest_charge ?? randomId('ch'),
      last_payment_error: null,
    });
    saveIntent(intent);
    deliver('payment_intent.succeeded', intent);
    return { status: 200, body: intent };
  };

  /** A canceled intent can no longer be confirmed; a succeeded one can no longer be canceled (refund it instead). */
  const cancelIntent = (id: string, params: Params): Answer => {
    const intent = intents.get(id);
    if (!intent) return missingResource('payment_intent', id, 'intent');
    if (intent.status === 'succeeded' || intent.status === 'canceled') {
      return invalidRequest(
        `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: requires_payment_method, requires_capture, requires_confirmation, requires_action, processing.`,
        { code: 'payment_intent_unexpected_state', payment_intent: intent },
      );
    }
    Object.assign(intent, {
      status: 'canceled',
      canceled_at: nowSeconds(),
      cancellation_reason: typeof params.cancellation_reason === 'string' ? params.cancellation_reason : null,
    });
    saveIntent(intent);
    deliver('payment_intent.canceled', intent);
    return { status: 200, body: intent };
  };

  const createRefund = (params: Params): Answer => {
    const intentId = params.payment_intent;
    if (typeof intentId !== 'string') {
      return invalidRequest(
        'One of the following params should be provided for this request: payment_intent or charge.',
      );
    }
    const intent = intents.get(intentId);
    if (!intent) return missingResource('payment_intent', intentId, 'payment_intent');
    if (intent.status !== 'succeeded') {
      return invalidRequest(`This PaymentIntent (${intent.id}) does not have a successful charge to refund.`, {
        code: 'charge_not_refundable',
      });
    }
    const refunded = refundedCentsOf(intent.id);
    const left = intent.amount_received - refunded;
    if (left <= 0) {
      return invalidRequest(`Charge ${intent.latest_charge} has already been refunded.`, {
        code: 'charge_already_refunded',
      });
    }
    const amount = params.amount === undefined ? left : Number(params.amount);
    if (!Number.isInteger(amount) || amount < 1) {
      return invalidRequest('Invalid integer: amount', { code: 'parameter_invalid_integer', param: 'amount' });
    }
    if (amount > left) {
      return invalidRequest(
        `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`,
        { code: 'amount_too_large', param: 'amount' },
      );
    }
    const refund: Refund = {
      id: randomId('re'),
      object: 'refund',
      amount,
      balance_transaction: null,
      charge: intent.latest_charge,
      created: nowSeconds(),
      currency: intent.currency,
      metadata: (params.metadata as Record<string, string> | undefined) ?? {},
      payment_intent: intent.id,
      reason: typeof params.reason === 'string' ? params.reason : null,
      receipt_number: null,
      status: 'succeeded',
    };
    refunds.set(refund.id, refund);
    store.put('refunds', refund.id, refund);
    return { status: 200, body: refund };
  };

  /** Which key called: a secret key for server calls, a publishable key for the browser's confirm. */
  const callerOf = (req: http.IncomingMessage, params: Params): Caller | Answer => {
    const authorization = req.headers.authorization ?? '';
    const bearer = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
    const basic = /^Basic\s+(\S+)$/i.exec(authorization)?.[1];
    const key =
      bearer ??
      (basic ? Buffer.from(basic, 'base64').toString('utf8').split(':')[0] : undefined) ??
      (typeof params.key === 'string' ? params.key : undefined);
    if (!key) {
      return invalidRequest(
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
        {},
        401,
      );
    }
    if (key.startsWith('sk_test_')) return { kind: 'secret' };
    if (key.startsWith('pk_test_')) return { kind: 'publishable' };
    return invalidRequest(
      `Invalid API Key provided: ${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`,
      {},
      401,
    );
  };

  const secretOnly = invalidRequest(
    'This API call cannot be made with a publishable API key. Please use a secret API key.',
    {},
    401,
  );

  const route = (method: string, path: string, caller: Caller, params: Params): Answer => {
    if (method === 'POST' && path === '/v1/payment_intents') {
      return caller.kind === 'secret' ? createIntent(params) : secretOnly;
    }
    const intentPath = /^\/v1\/payment_intents\/([^/]+)(\/confirm|\/cancel)?$/.exec(path);
    if (intentPath && method === 'GET' && !intentPath[2]) {
      const intent = intentFor(caller, decodeURIComponent(intentPath[1]!), params);
      return isAnswer(intent) ? intent : { status: 200, body: intent };
    }
    if (intentPath && method === 'POST' && intentPath[2] === '/confirm') {
      return confirmIntent(caller, decodeURIComponent(intentPath[1]!), params);
    }
    if (intentPath && method === 'POST' && intentPath[2] === '/cancel') {
      return caller.kind === 'secret' ? cancelIntent(decodeURIComponent(intentPath[1]!), params) : secretOnly;
    }
    if (method === 'POST' && path === '/v1/refunds') {
      return caller.kind === 'secret' ? createRefund(params) : secretOnly;
    }
    if (method === 'GET' && path === '/v1/refunds') {
      if (caller.kind !== 'secret') return secretOnly;
      // Stripe's list: newest first, optionally of one payment intent (one page is all the fake holds).
      const data = [...refunds.values()]
        .filter((refund) => !params.payment_intent || refund.payment_intent === params.payment_intent)
        .reverse();
      return { status: 200, body: { object: 'list', data, has_more: false, url: '/v1/refunds' } };
    }
    const refundPath = /^\/v1\/refunds\/([^/]+)$/.exec(path);
    if (refundPath && method === 'GET') {
      if (caller.kind !== 'secret') return secretOnly;
      const refund = refunds.get(decodeURIComponent(refundPath[1]!));
      return refund ? { status: 200, body: refund } : missingResource('refund', refundPath[1]!, 'id');
    }
    return invalidRequest(
      `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
      {},
      404,
    );
  };

  const cors = {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
    'access-control-allow-headers': 'authorization, content-type, idempotency-key, stripe-version, stripe-account',
    'access-control-expose-headers': 'request-id, idempotency-key, idempotent-replayed',
    'access-control-max-age': '600',
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const method = (req.method ?? 'GET').toUpperCase();
      if (method === 'OPTIONS') {
        res.writeHead(204, cors);
        res.end();
        return;
      }
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname === '/__faults') {
        const control = controlFaults(method, Buffer.concat(chunks).toString('utf8'));
        res.writeHead(control.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(control.body));
        return;
      }
      if (url.pathname === '/__restart') {
        if (method === 'POST') readState();
        res.writeHead(method === 'POST' ? 200 : 405, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ restarted: method === 'POST', paymentIntents: intents.size }));
        return;
      }
      const params = {
        ...parseStripeForm(url.search.slice(1)),
        ...parseStripeForm(Buffer.concat(chunks).toString('utf8')),
      };
      const idempotencyKey = method === 'POST' ? req.headers['idempotency-key']?.toString() : undefined;
      const routeName = `${method} ${url.pathname}`;
      const caller = callerOf(req, params);
      const fault = isAnswer(caller) ? undefined : takeFault(method, url.pathname, params);
      const replay =
        idempotencyKey && !isAnswer(caller) && fault?.when !== 'before' ? idempotent.get(idempotencyKey) : undefined;
      let answer: Answer;
      if (isAnswer(caller)) {
        answer = caller;
      } else if (fault?.when === 'before') {
        // Nothing ran and nothing is kept under the idempotency key: the retry runs for real.
        answer = faultyAnswer(fault, url.pathname);
      } else if (replay && replay.route !== routeName) {
        answer = invalidRequest(
          `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${replay.route}' vs '${routeName}'). Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
          { type: 'idempotency_error' },
        );
      } else if (replay) {
        answer = replay.answer;
      } else {
        answer = route(method, url.pathname, caller, params);
        // Stripe keeps the first result of a key, a declined card included, and replays it.
        if (idempotencyKey) {
          const kept = { route: routeName, answer: structuredClone(answer), createdAt: Date.now() };
          idempotent.set(idempotencyKey, kept);
          store.put('idempotent', idempotencyKey, kept);
        }
        try {
          // On disk before the answer leaves: a caller told "done" finds it done after any restart.
          store.commit();
        } catch (error) {
          log(`stripe fake: could not save its state: ${(error as Error).message}`);
          answer = injectedError(500);
        }
      }
      // "after": the request ran (and its result is kept under its key), but its answer is lost.
      if (fault?.when === 'after') answer = faultyAnswer(fault, url.pathname);
      seen.push({
        method,
        path: url.pathname,
        ...(idempotencyKey ? { idempotencyKey } : {}),
        status: answer.status,
        replayed: !!replay && !fault,
        injected: !!fault,
      });
      if (seen.length > SEEN_REQUESTS_KEPT) seen.shift();
      if (answer.hangUp) {
        req.socket.destroy();
        return;
      }
      res.writeHead(answer.status, {
        ...cors,
        'content-type': 'application/json',
        'request-id': randomId('req', 14),
        'stripe-version': API_VERSION,
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
        ...(replay && !fault ? { 'idempotent-replayed': 'true' } : {}),
      });
      res.end(answer.raw ?? JSON.stringify(answer.body));
    });
  });
  server.on('close', () => {
    closed = true;
    for (const timer of pendingDeliveries) clearTimeout(timer);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const kept = stateDir ? `state kept in ${stateDir}` : 'state in memory: a restart forgets every payment';
  log(`Stripe fake on http://127.0.0.1:${port} (${kept}), webhooks to ${webhookUrl}`);
  return server;
};
