import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type Stripe from 'stripe';
import { exchange } from './aws-requests';

/**
 * The few Stripe API calls the routes make, over node:https (node:http for an http:// stand-in),
 * through the exchange the AWS calls use (aws-requests.ts). The `stripe` package would do the
 * same, but it adds about 250 KB to every bundle that reaches it, parsed on each cold start; these
 * calls are a small part of it. Nor do they go over fetch: its first use loads Node's HTTP client
 * (undici), which a payment route would pay for on its cold start. What the package gave us is
 * kept: the same API version (so answers keep their shape), a timeout per attempt, retries with
 * backoff on what is worth retrying, an idempotency key on every POST (so a retried create cannot
 * charge twice), errors of the same types, and connections kept alive between calls.
 */

/** The API version of the `stripe` package the types come from: answers are read in that shape. */
export const STRIPE_API_VERSION = '2026-10-28.endive';

const STRIPE_API_URL = 'https://api.stripe.com';

export interface StripeApiOptions {
  secretKey: string;
  /** Another host speaking Stripe's API (the local fake); only the origin is used. */
  baseUrl?: string;
  /** Per attempt, the answer's body included. */
  timeoutMs?: number;
  /** Attempts after the first. */
  maxRetries?: number;
  /** The pause before the first retry; it doubles with each retry, with jitter, up to 5 s. */
  firstRetryDelayMs?: number;
}

/** The `stripe` package's error class names: callers tell errors apart by `type` and `code`, as before. */
export type StripeErrorType =
  | 'StripeAPIError'
  | 'StripeAuthenticationError'
  | 'StripeCardError'
  | 'StripeConnectionError'
  | 'StripeIdempotencyError'
  | 'StripeInvalidRequestError'
  | 'StripePermissionError'
  | 'StripeRateLimitError';

/** What Stripe puts under `error` in an error answer (or what we say for a failed connection). */
export interface StripeRawError {
  type?: string;
  code?: string;
  message?: string;
  param?: string;
  decline_code?: string;
  doc_url?: string;
  [field: string]: unknown;
}

export class StripeError extends Error {
  readonly rawType: string | undefined;
  readonly code: string | undefined;
  readonly param: string | undefined;
  readonly decline_code: string | undefined;

  constructor(
    readonly type: StripeErrorType,
    readonly raw: StripeRawError,
    readonly statusCode?: number,
    readonly requestId?: string,
    options?: ErrorOptions,
  ) {
    super(raw.message ?? '', options);
    this.name = type;
    this.rawType = raw.type;
    this.code = raw.code;
    this.param = raw.param;
    this.decline_code = raw.decline_code;
  }
}

/** The class the `stripe` package gives an error answer: by status first, as it does for the v1 API. */
const errorTypeOf = (statusCode: number, raw: StripeRawError): StripeErrorType => {
  if (statusCode === 429 || (statusCode === 400 && raw.code === 'rate_limit')) return 'StripeRateLimitError';
  if (statusCode === 400 || statusCode === 404) {
    return raw.type === 'idempotency_error' ? 'StripeIdempotencyError' : 'StripeInvalidRequestError';
  }
  if (statusCode === 401) return 'StripeAuthenticationError';
  if (statusCode === 402) return 'StripeCardError';
  if (statusCode === 403) return 'StripePermissionError';
  return 'StripeAPIError';
};

type FormValue = string | number | boolean | null | undefined | Date | object;

/**
 * Stripe's form encoding: nested keys in brackets (`metadata[orderId]=...`), arrays by index,
 * booleans as `true`/`false`, dates as Unix seconds, null as empty (which unsets a field).
 */
export const stripeForm = (params: object) => {
  const form = new URLSearchParams();
  const add = (key: string, value: FormValue) => {
    if (value === undefined) return;
    if (value === null) form.append(key, '');
    else if (value instanceof Date) form.append(key, String(Math.floor(value.getTime() / 1000)));
    // An array's entries are its indexes: `items[0][price]`.
    else if (typeof value === 'object') for (const [k, v] of Object.entries(value)) add(`${key}[${k}]`, v);
    else form.append(key, String(value));
  };
  for (const [key, value] of Object.entries(params)) add(key, value);
  return form.toString();
};

interface StripeCall {
  method: 'GET' | 'POST';
  path: string;
  params?: object;
  idempotencyKey?: string;
  /** A connected account to act on (the `Stripe-Account` header): its balance, its payouts. */
  stripeAccount?: string;
}

/** What the API said, once no retry is left or worth making. */
interface Answered {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Stripe's advice wins; otherwise a lock timeout, too many requests, or an error on its side. */
const worthRetrying = ({ status, headers }: Pick<Answered, 'status' | 'headers'>) => {
  const advice = headers['stripe-should-retry'];
  if (advice === 'false') return false;
  if (advice === 'true') return true;
  return status === 409 || status === 429 || status >= 500;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const stripeApi = ({
  secretKey,
  baseUrl = STRIPE_API_URL,
  timeoutMs = 8000,
  maxRetries = 2,
  firstRetryDelayMs = 500,
}: StripeApiOptions) => {
  /** The pause before retry `n` (from 1): exponential, jittered down to half, never under the first. */
  const retryDelay = (n: number) =>
    Math.max(firstRetryDelayMs, Math.min(firstRetryDelayMs * 2 ** (n - 1), 5000) * 0.5 * (1 + Math.random()));

  const connectionError = (error: unknown, retries: number) => {
    // The attempt's deadline aborts the request: Node's AbortError carries the TimeoutError as its cause.
    const named = (value: unknown) => (value as { name?: string } | undefined)?.name;
    const timedOut = named(error) === 'TimeoutError' || named((error as { cause?: unknown })?.cause) === 'TimeoutError';
    const message = timedOut
      ? `Request aborted due to timeout being reached (${timeoutMs}ms)`
      : `An error occurred with our connection to Stripe.${retries > 0 ? ` Request was retried ${retries} times.` : ''}`;
    return new StripeError('StripeConnectionError', { message }, undefined, undefined, { cause: error });
  };

  // Only the origin of the base URL is used: the calls' paths are Stripe's.
  const { protocol, hostname, port } = new URL(baseUrl);

  const send = async ({ method, path, params, idempotencyKey, stripeAccount }: StripeCall): Promise<Answered> => {
    const form = params ? stripeForm(params) : '';
    const address = {
      protocol,
      hostname,
      ...(port ? { port: Number(port) } : {}),
      path: method === 'GET' && form ? `${path}?${form}` : path,
    };
    const body = method === 'POST' ? Buffer.from(form) : undefined;
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: `Bearer ${secretKey}`,
      'stripe-version': STRIPE_API_VERSION,
    };
    if (stripeAccount) headers['stripe-account'] = stripeAccount;
    if (body) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers['content-length'] = String(body.length);
      // One key for every attempt: a retry of a request Stripe did run gets its first answer back.
      headers['idempotency-key'] = idempotencyKey ?? randomUUID();
    }
    for (let retries = 0; ; retries += 1) {
      if (retries > 0) await sleep(retryDelay(retries));
      const canRetry = retries < maxRetries;
      try {
        const answer = await exchange(address, { method, headers, body }, timeoutMs);
        if (canRetry && worthRetrying(answer)) continue;
        return answer;
      } catch (error) {
        // No answer, no whole answer, or none in time. GETs change nothing and POSTs carry their
        // key, so trying again is safe.
        if (canRetry) continue;
        throw connectionError(error, retries);
      }
    }
  };

  const call = async <T>(request: StripeCall): Promise<T> => {
    const { status, headers, body } = await send(request);
    const requestId = typeof headers['request-id'] === 'string' ? headers['request-id'] : undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch (error) {
      throw new StripeError(
        'StripeAPIError',
        { message: 'Invalid JSON received from the Stripe API' },
        status,
        requestId,
        { cause: error },
      );
    }
    const raw = (parsed as { error?: unknown } | null)?.error;
    if (raw !== undefined || status >= 400) {
      const error: StripeRawError = typeof raw === 'object' && raw !== null ? (raw as StripeRawError) : {};
      throw new StripeError(errorTypeOf(status, error), error, status, requestId);
    }
    return parsed as T;
  };

  const intentPath = (id: string, action = '') => `/v1/payment_intents/${encodeURIComponent(id)}${action}`;

  return {
    paymentIntents: {
      create: (params: Stripe.PaymentIntentCreateParams, options: { idempotencyKey?: string } = {}) =>
        call<Stripe.PaymentIntent>({ method: 'POST', path: '/v1/payment_intents', params, ...options }),
      retrieve: (id: string) => call<Stripe.PaymentIntent>({ method: 'GET', path: intentPath(id) }),
      cancel: (id: string, params?: Stripe.PaymentIntentCancelParams) =>
        call<Stripe.PaymentIntent>({ method: 'POST', path: intentPath(id, '/cancel'), ...(params ? { params } : {}) }),
      update: (id: string, params: Stripe.PaymentIntentUpdateParams, options: { idempotencyKey?: string } = {}) =>
        call<Stripe.PaymentIntent>({ method: 'POST', path: intentPath(id), params, ...options }),
      confirm: (id: string, params: Stripe.PaymentIntentConfirmParams, options: { idempotencyKey?: string } = {}) =>
        call<Stripe.PaymentIntent>({ method: 'POST', path: intentPath(id, '/confirm'), params, ...options }),
    },
    // Saved cards: a Customer per photographer and the cards attached to it.
    customers: {
      create: (params: Stripe.CustomerCreateParams, options: { idempotencyKey?: string } = {}) =>
        call<Stripe.Customer>({ method: 'POST', path: '/v1/customers', params, ...options }),
      retrieve: (id: string) =>
        call<Stripe.Customer | Stripe.DeletedCustomer>({
          method: 'GET',
          path: `/v1/customers/${encodeURIComponent(id)}`,
        }),
      update: (id: string, params: Stripe.CustomerUpdateParams) =>
        call<Stripe.Customer>({ method: 'POST', path: `/v1/customers/${encodeURIComponent(id)}`, params }),
      listPaymentMethods: (id: string, params: Stripe.CustomerListPaymentMethodsParams = {}) =>
        call<Stripe.ApiList<Stripe.PaymentMethod>>({
          method: 'GET',
          path: `/v1/customers/${encodeURIComponent(id)}/payment_methods`,
          params,
        }),
      /** Stripe answers 404 for a card that is not this customer's. */
      retrievePaymentMethod: (id: string, paymentMethodId: string) =>
        call<Stripe.PaymentMethod>({
          method: 'GET',
          path: `/v1/customers/${encodeURIComponent(id)}/payment_methods/${encodeURIComponent(paymentMethodId)}`,
        }),
    },
    paymentMethods: {
      retrieve: (id: string) =>
        call<Stripe.PaymentMethod>({ method: 'GET', path: `/v1/payment_methods/${encodeURIComponent(id)}` }),
      detach: (id: string) =>
        call<Stripe.PaymentMethod>({ method: 'POST', path: `/v1/payment_methods/${encodeURIComponent(id)}/detach` }),
    },
    refunds: {
      create: (params: Stripe.RefundCreateParams, options: { idempotencyKey?: string } = {}) =>
        call<Stripe.Refund>({ method: 'POST', path: '/v1/refunds', params, ...options }),
    },
    // Editors' payouts (Connect): their connected accounts, onboarding, transfers and what Stripe pays out.
    accounts: {
      create: (params: Stripe.AccountCreateParams, options: { idempotencyKey?: string } = {}) =>
        call<Stripe.Account>({ method: 'POST', path: '/v1/accounts', params, ...options }),
      retrieve: (id: string) => call<Stripe.Account>({ method: 'GET', path: `/v1/accounts/${encodeURIComponent(id)}` }),
    },
    accountLinks: {
      create: (params: Stripe.AccountLinkCreateParams) =>
        call<Stripe.AccountLink>({ method: 'POST', path: '/v1/account_links', params }),
    },
    transfers: {
      create: (params: Stripe.TransferCreateParams, options: { idempotencyKey?: string } = {}) =>
        call<Stripe.Transfer>({ method: 'POST', path: '/v1/transfers', params, ...options }),
      retrieve: (id: string) =>
        call<Stripe.Transfer>({ method: 'GET', path: `/v1/transfers/${encodeURIComponent(id)}` }),
      list: (params: Stripe.TransferListParams = {}) =>
        call<Stripe.ApiList<Stripe.Transfer>>({ method: 'GET', path: '/v1/transfers', params }),
    },
    reversals: {
      create: (
        transferId: string,
        params: Stripe.TransferCreateReversalParams,
        options: { idempotencyKey?: string } = {},
      ) =>
        call<Stripe.TransferReversal>({
          method: 'POST',
          path: `/v1/transfers/${encodeURIComponent(transferId)}/reversals`,
          params,
          ...options,
        }),
    },
    balance: {
      retrieve: (options: { stripeAccount?: string } = {}) =>
        call<Stripe.Balance>({ method: 'GET', path: '/v1/balance', ...options }),
    },
    payouts: {
      list: (params: Stripe.PayoutListParams = {}, options: { stripeAccount?: string } = {}) =>
        call<Stripe.ApiList<Stripe.Payout>>({ method: 'GET', path: '/v1/payouts', params, ...options }),
      retrieve: (id: string, options: { stripeAccount?: string } = {}) =>
        call<Stripe.Payout>({ method: 'GET', path: `/v1/payouts/${encodeURIComponent(id)}`, ...options }),
    },
  };
};
