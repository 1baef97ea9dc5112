import { createHash, createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import { StripeFakeStore } from './stripe-fake-store';

/**
 * A Stripe stand-in speaking Stripe's own paths, form-encoded bodies (`a[b]=`, `expand[]=`),
 * keys, errors and object shapes, so our Stripe client (adapters/stripe-api.ts), the `stripe` SDK
 * the tests use, and a browser confirming the way Stripe.js does work against it unchanged. It
 * sends signed webhooks as Stripe does: payment events to our webhook route, and Connect events
 * (with a top-level `account`) to the Connect endpoint when `connectWebhookUrl` is given. Given a
 * `stateDir`, it keeps every object, the balances and the idempotency keys there (see
 * stripe-fake-store.ts), so they outlive a restart; without one, they live in memory only. Its
 * objects carry every top-level field of Stripe's own examples (stripe-fixtures.json,
 * stripe-fake-shapes.test.ts checks them).
 *
 * What it serves, with the parameters Stripe documents for each (every POST replays its first
 * answer to a retry with the same `Idempotency-Key`; `expand[]` works on every answer):
 * - customers: POST /v1/customers, GET /v1/customers[/{id}], POST /v1/customers/{id}
 *   (email, name, description, phone, metadata, `invoice_settings[default_payment_method]`);
 * - payment methods: POST /v1/payment_methods (type=card, `card[number]`, ... as Stripe.js sends it),
 *   GET /v1/payment_methods/{id}, POST .../{id}/attach (customer), POST .../{id}/detach,
 *   GET /v1/payment_methods?customer=&type=card, GET /v1/customers/{id}/payment_methods[/{pm}]
 *   (limit, starting_after, ending_before);
 * - payment intents: POST /v1/payment_intents (amount, currency, customer, payment_method,
 *   setup_future_usage, confirm, off_session, return_url, receipt_email, transfer_group, ...),
 *   GET and POST /v1/payment_intents/{id}, POST .../confirm, POST .../cancel; charges:
 *   GET /v1/charges[/{id}] (each with a receipt page at its `receipt_url`);
 * - refunds: POST /v1/refunds, GET /v1/refunds[/{id}];
 * - Connect: POST /v1/accounts, GET /v1/accounts[/{id}], POST /v1/accounts/{id}, GET /v1/account,
 *   POST /v1/accounts/{id}/login_links, POST /v1/account_links, POST/GET /v1/transfers[/{id}],
 *   POST/GET /v1/transfers/{id}/reversals[/{id}];
 * - balances: GET /v1/balance, GET /v1/balance_transactions[/{id}], GET /v1/payouts[/{id}], each on
 *   the platform or, with a `Stripe-Account: acct_...` header, on that connected account (the only
 *   calls it serves on a connected account).
 *
 * Test cards (as `payment_method`, or a card number in `payment_method_data[card][number]` or
 * `card[number]`): pm_card_visa / 4242424242424242, pm_card_visa_debit / 4000056655665556,
 * pm_card_mastercard / 5555555555554444, pm_card_amex / 378282246310005 and
 * pm_card_bypassPending / 4000000000000077 succeed; pm_card_chargeDeclined / 4000000000000002 and
 * pm_card_chargeDeclinedInsufficientFunds / 4000000000009995 are declined (and cannot be saved to
 * a customer); pm_card_chargeCustomerFail / 4000000000000341 can be saved but every charge is
 * declined; pm_card_authenticationRequired / 4000002500003155 asks for authentication on every
 * payment made on session (the intent answers `requires_action`, with a `redirect_to_url` to a
 * stand-in challenge page, GET /__authenticate/{intent}), and off session unless it was saved by
 * an authenticated payment with `setup_future_usage`, as Stripe's own 3155 card does. As with
 * Stripe, a test id makes a new PaymentMethod (pm_...) each time it is used.
 *
 * Money: a succeeded charge adds its amount less Stripe's US card fee (2.9% + 30 cents, rounded
 * to the cent, kept in the charge's balance transaction) to the platform's balance at once (no
 * pending period: every charge acts as Stripe's 4000000000000077 card would); a refund takes its
 * amount back (the fee is not returned, as with Stripe; the balance may go below zero); a transfer
 * moves its amount from the platform's balance to the connected account's, and a reversal moves it
 * back. GET /v1/balance sums the balance transactions.
 *
 * Local-only controls (never part of Stripe's API):
 * - `POST /__faults` with `{method?, path, match?, status?, times?, when?, reply?}` makes the next
 *   `times` requests to that path (whose form params include `match`) answer badly. `reply` is
 *   "error" (the default: `status`, 500 unless given, with Stripe's api_error body; a 404 gets
 *   Stripe's own `resource_missing` body for the object the path names, as for an intent Stripe
 *   does not know), "malformed" (`status`, 200 unless given, with a body cut off mid-JSON) or
 *   "disconnect" (the connection is closed with no answer). `when` is "before" (the default:
 *   nothing runs, as an outage in front of the API) or "after" (the request runs and its answer is
 *   lost, so a retry with the same idempotency key gets the replay). A fault on the path
 *   `webhooks` (or `connect-webhooks`) drops that many delivery attempts to our webhook route (or
 *   the Connect one) of events whose object matches; Stripe gives up after its attempts.
 *   `GET /__faults` lists the faults left and the requests seen; `DELETE /__faults` clears both.
 * - `POST /__restart` drops every object the fake holds in memory and reads its folder again,
 *   exactly as a new process does at start-up, so a test can restart the stack's fake without
 *   stopping the stack. Faults, the requests seen and webhook deliveries already under way are
 *   kept: they belong to the tests running beside it on the same fake, not to Stripe's state.
 * - `POST /__payouts` with `{account?, fail?}` (JSON) does what Stripe's payout schedule would:
 *   pays out the whole available balance of each connected account with payouts enabled (or of
 *   the one named) to its bank account, and sends `payout.created` and then `payout.paid`, or,
 *   with `fail: true`, `payout.failed` (failure_code `account_closed`, the money back in the
 *   balance). It answers `{payouts: [...]}`.
 * - Pages a browser is sent to, plain HTML forms: GET /__authenticate/{intent} (the 3155 card's
 *   challenge: "Complete authentication" or "Fail authentication", then back to the `return_url`
 *   with `payment_intent`, `payment_intent_client_secret` and `redirect_status`), GET
 *   /__onboarding/{link} (an Account Link's onboarding: "Complete onboarding", "Leave incomplete"
 *   or "Come back later"; a link works once and for five minutes, as Stripe's), GET
 *   /__express/{account} (a login link's Express dashboard) and GET /__receipts/{charge}.
 */
export interface StripeFakeOptions {
  port: number;
  webhookUrl: string;
  webhookSecret: string;
  /** Where Connect events (account.updated, payout.*) go; without it (or its secret) none are sent. */
  connectWebhookUrl?: string;
  connectWebhookSecret?: string;
  /** The folder that keeps the fake's objects across restarts; without one they live in memory only. */
  stateDir?: string;
  log?: (line: string) => void;
}

type Params = Record<string, unknown>;
type Metadata = Record<string, string>;

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
  /** A digest of the request's parameters: a key reused with others is refused, as Stripe does. */
  params?: string;
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
/** Stripe's standard US card pricing, taken from each succeeded charge. */
const FEE_PERCENT = 0.029;
const FEE_FIXED_CENTS = 30;
/** How long an Account Link works, as Stripe's (its `expires_at`). */
const ACCOUNT_LINK_LIFETIME_S = 300;
const LIST_LIMIT_DEFAULT = 10;

const randomId = (prefix: string, length = 24) =>
  `${prefix}_${randomBytes(length).toString('base64url').replace(/[-_]/g, '').slice(0, length)}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);
const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
const stringOr = <T>(value: unknown, fallback: T): string | T => (typeof value === 'string' ? value : fallback);
const isTrue = (value: unknown) => value === true || value === 'true';
const clone = <T>(value: T): T => structuredClone(value);

/**
 * Stripe's form encoding: `metadata[orderId]=x`, `items[0][price]=y` and `expand[]=a&expand[]=b`
 * -> nested objects and arrays.
 */
export const parseStripeForm = (text: string): Params => {
  const root: Params = {};
  for (const [fullKey, value] of new URLSearchParams(text)) {
    const [head, ...rest] = fullKey.split('[');
    const path = [head!, ...rest.map((part) => part.replace(/\]$/, ''))];
    let node: Params = root;
    path.forEach((segment, i) => {
      // `[]` appends: the next index of the array being built.
      const key = segment === '' ? String(Object.keys(node).length) : segment;
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
const docUrl = (code: string) => `https://stripe.com/docs/error-codes/${code.replace(/_/g, '-')}`;
/** An object the path names that Stripe does not know: a 404. */
const missingResource = (kind: string, id: string, param: string) =>
  invalidRequest(
    `No such ${kind}: '${id}'`,
    { code: 'resource_missing', doc_url: docUrl('resource_missing'), param },
    404,
  );
/** An object a parameter names that Stripe does not know: a 400 naming the parameter. */
const noSuch = (kind: string, id: string, param: string) =>
  invalidRequest(`No such ${kind}: '${id}'`, { code: 'resource_missing', doc_url: docUrl('resource_missing'), param });
const missingParam = (param: string) => invalidRequest(`Missing required param: ${param}.`, { param });
const invalidInteger = (param: string, value: unknown) =>
  invalidRequest(`Invalid integer: ${String(value)}`, { code: 'parameter_invalid_integer', param });
const ok = (body: unknown): Answer => ({ status: 200, body });

const isAnswer = (value: unknown): value is Answer =>
  typeof value === 'object' && value !== null && 'status' in value && 'body' in value;

/** A positive amount in cents, as Stripe checks one. */
const amountParam = (params: Params, param = 'amount'): number | Answer => {
  if (params[param] === undefined) return missingParam(param);
  const amount = Number(params[param]);
  if (!Number.isInteger(amount)) return invalidInteger(param, params[param]);
  if (amount < 1) return invalidRequest('This value must be greater than or equal to 1.', { param });
  return amount;
};

/** Stripe's metadata update: keys merge, an empty value removes its key, `metadata=''` removes all. */
const mergedMetadata = (current: Metadata, update: unknown): Metadata => {
  if (update === undefined) return current;
  if (update === '') return {};
  if (typeof update !== 'object' || update === null) return current;
  const next = { ...current };
  for (const [key, value] of Object.entries(update as Params)) {
    if (value === '') delete next[key];
    else next[key] = String(value);
  }
  return next;
};

/** The keys of a `capabilities[x][requested]=true` parameter. */
const requestedCapabilities = (value: unknown) =>
  Object.entries((value as Record<string, { requested?: unknown }> | undefined) ?? {})
    .filter(([, setting]) => isTrue(setting?.requested))
    .map(([name]) => name);

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A page of our own (a challenge, an onboarding form, a receipt): plain HTML, one heading. */
const htmlPage = (title: string, body: string, head = '') => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
${head}
<style>
body { font-family: system-ui, sans-serif; max-width: 36rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; color: #1a1a1a; }
button { font: inherit; padding: 0.5rem 1rem; margin: 0.25rem 0; }
fieldset { border: 1px solid #767676; padding: 1rem; }
table { border-collapse: collapse; } th, td { text-align: left; padding: 0.25rem 1rem 0.25rem 0; }
.note { color: #4a4a4a; }
</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>
`;

interface Decline {
  code: string;
  declineCode: string;
  message: string;
}

const genericDecline: Decline = {
  code: 'card_declined',
  declineCode: 'generic_decline',
  message: 'Your card was declined.',
};
const insufficientFunds: Decline = {
  code: 'card_declined',
  declineCode: 'insufficient_funds',
  message: 'Your card has insufficient funds.',
};
const authenticationRequired: Decline = {
  code: 'authentication_required',
  declineCode: 'authentication_required',
  message: 'Your card was declined. This transaction requires authentication.',
};

interface TestCard {
  number: string;
  brand: string;
  funding: 'credit' | 'debit';
  /** Every charge is declined so. */
  decline?: Decline;
  /** Saving it to a customer is declined too (Stripe checks a card as it is attached). */
  declinedOnAttach?: boolean;
  /** 4000 0025 0000 3155: authentication on session, and off session unless it was set up with it. */
  authentication?: 'unless_set_up';
}

/** Stripe's test PaymentMethods (`pm_card_*`), each with the test card number it stands for. */
const testCards: Record<string, TestCard> = {
  pm_card_visa: { number: '4242424242424242', brand: 'visa', funding: 'credit' },
  pm_card_visa_debit: { number: '4000056655665556', brand: 'visa', funding: 'debit' },
  pm_card_mastercard: { number: '5555555555554444', brand: 'mastercard', funding: 'credit' },
  pm_card_amex: { number: '378282246310005', brand: 'amex', funding: 'credit' },
  pm_card_bypassPending: { number: '4000000000000077', brand: 'visa', funding: 'credit' },
  pm_card_chargeDeclined: {
    number: '4000000000000002',
    brand: 'visa',
    funding: 'credit',
    decline: genericDecline,
    declinedOnAttach: true,
  },
  pm_card_visa_chargeDeclined: {
    number: '4000000000000002',
    brand: 'visa',
    funding: 'credit',
    decline: genericDecline,
    declinedOnAttach: true,
  },
  pm_card_chargeDeclinedInsufficientFunds: {
    number: '4000000000009995',
    brand: 'visa',
    funding: 'credit',
    decline: insufficientFunds,
    declinedOnAttach: true,
  },
  pm_card_chargeCustomerFail: { number: '4000000000000341', brand: 'visa', funding: 'credit', decline: genericDecline },
  pm_card_authenticationRequired: {
    number: '4000002500003155',
    brand: 'visa',
    funding: 'credit',
    authentication: 'unless_set_up',
  },
};
/** A card number to the test PaymentMethod it behaves as (the first one listed for it). */
const testCardNumbers: Record<string, string> = {};
for (const [id, card] of Object.entries(testCards)) testCardNumbers[card.number] ??= id;

const nullAddress = () => ({ city: null, country: null, line1: null, line2: null, postal_code: null, state: null });

const billingDetailsOf = (input: unknown) => {
  const given = (input ?? {}) as Params;
  const address = (given.address ?? {}) as Params;
  const text = (value: unknown) => (typeof value === 'string' && value ? value : null);
  return {
    address: Object.fromEntries(Object.entries(nullAddress()).map(([key]) => [key, text(address[key])])) as Record<
      string,
      string | null
    >,
    email: text(given.email),
    name: text(given.name),
    phone: text(given.phone),
    tax_id: null,
  };
};

/** A card's fingerprint: the same card number gives the same one, as on one Stripe account. */
const fingerprintOf = (number: string) =>
  createHash('sha256').update(`card:${number}`).digest('base64url').replace(/[-_]/g, '').slice(0, 16);

const newPaymentMethod = (
  test: TestCard,
  input: { expMonth?: unknown; expYear?: unknown; cvc?: unknown; billingDetails?: unknown; metadata?: unknown },
) => {
  const today = new Date();
  const month = Number(input.expMonth);
  const year = Number(input.expYear);
  return {
    id: randomId('pm'),
    object: 'payment_method' as const,
    allow_redisplay: 'unspecified',
    billing_details: billingDetailsOf(input.billingDetails),
    card: {
      brand: test.brand,
      checks: {
        address_line1_check: null,
        address_postal_code_check: null,
        cvc_check: typeof input.cvc === 'string' && input.cvc ? 'pass' : null,
      },
      country: 'US',
      display_brand: test.brand,
      exp_month: Number.isInteger(month) && month >= 1 && month <= 12 ? month : today.getUTCMonth() + 1,
      exp_year: Number.isInteger(year) && year > 0 ? (year < 100 ? 2000 + year : year) : today.getUTCFullYear() + 3,
      fingerprint: fingerprintOf(test.number),
      funding: test.funding,
      generated_from: null,
      last4: test.number.slice(-4),
      networks: { available: [test.brand], preferred: null },
      regulated_status: 'unregulated',
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created: nowSeconds(),
    customer: null as string | null,
    customer_account: null,
    livemode: false,
    metadata: mergedMetadata({}, input.metadata),
    type: 'card',
  };
};
type PaymentMethod = ReturnType<typeof newPaymentMethod>;

/** What the fake knows of a card beyond Stripe's object: which test card it is and how it was used. */
interface CardState {
  testCard: string;
  /** Used without being saved to a customer (or detached): Stripe refuses it from then on. */
  consumed: boolean;
  /** Saved by an authenticated payment with setup_future_usage: pays off session without a challenge. */
  readyOffSession: boolean;
}

const newCustomer = (params: Params) => ({
  id: randomId('cus', 14),
  object: 'customer' as const,
  address: null,
  balance: 0,
  created: nowSeconds(),
  currency: null,
  default_source: null,
  delinquent: false,
  description: stringOr(params.description, null),
  discount: null,
  email: stringOr(params.email, null),
  invoice_prefix: randomBytes(4).toString('hex').toUpperCase(),
  invoice_settings: {
    custom_fields: null,
    default_payment_method: null as string | null,
    footer: null,
    rendering_options: null,
  },
  livemode: false,
  metadata: mergedMetadata({}, params.metadata),
  name: stringOr(params.name, null),
  next_invoice_sequence: 1,
  phone: stringOr(params.phone, null),
  preferred_locales: [] as string[],
  shipping: null,
  tax_exempt: 'none',
  test_clock: null,
});
type Customer = ReturnType<typeof newCustomer>;

/** Every field of a payment intent, for new intents and for those an older fake saved without some. */
const intentDefaults = () => ({
  object: 'payment_intent' as const,
  amount_capturable: 0,
  amount_details: { tip: {} },
  amount_received: 0,
  application: null,
  application_fee_amount: null,
  automatic_payment_methods: null as { enabled: boolean; allow_redirects: string } | null,
  canceled_at: null as number | null,
  cancellation_reason: null as string | null,
  capture_method: 'automatic_async',
  confirmation_method: 'automatic',
  customer: null as string | null,
  customer_account: null,
  description: null as string | null,
  excluded_payment_method_types: null,
  last_payment_error: null as Params | null,
  latest_charge: null as string | null,
  livemode: false,
  managed_payments: null,
  metadata: {} as Metadata,
  next_action: null as Params | null,
  on_behalf_of: null,
  payment_method: null as string | null,
  payment_method_configuration_details: null,
  payment_method_options: {
    card: { installments: null, mandate_options: null, network: null, request_three_d_secure: 'automatic' },
  },
  payment_method_types: ['card'],
  processing: null,
  receipt_email: null as string | null,
  review: null,
  setup_future_usage: null as string | null,
  shipping: null,
  source: null,
  statement_descriptor: null,
  statement_descriptor_suffix: null,
  status: 'requires_payment_method' as
    | 'requires_payment_method'
    | 'requires_confirmation'
    | 'requires_action'
    | 'succeeded'
    | 'canceled',
  transfer_data: null,
  transfer_group: null as string | null,
});
type PaymentIntent = ReturnType<typeof intentDefaults> & {
  id: string;
  amount: number;
  client_secret: string;
  created: number;
  currency: string;
};

const refundDefaults = () => ({
  object: 'refund' as const,
  balance_transaction: null as string | null,
  charge: null as string | null,
  customer: null as string | null,
  customer_account: null,
  destination_details: {
    card: { reference_status: 'pending', reference_type: 'acquirer_reference_number', type: 'refund' },
    type: 'card',
  },
  metadata: {} as Metadata,
  payment_method: null as string | null,
  reason: null as string | null,
  receipt_number: null,
  source_transfer_reversal: null,
  status: 'succeeded',
  transfer_reversal: null,
});
type Refund = ReturnType<typeof refundDefaults> & {
  id: string;
  amount: number;
  created: number;
  currency: string;
  payment_intent: string;
};

const newBalanceTransaction = (input: {
  amount: number;
  currency: string;
  type: string;
  reportingCategory: string;
  source: string;
  description?: string | null;
  fee?: number;
}) => {
  const fee = input.fee ?? 0;
  const created = nowSeconds();
  return {
    id: randomId('txn'),
    object: 'balance_transaction' as const,
    amount: input.amount,
    available_on: created,
    balance_type: 'payments',
    created,
    currency: input.currency,
    description: input.description ?? null,
    exchange_rate: null,
    fee,
    fee_details: fee
      ? [
          {
            amount: fee,
            application: null,
            currency: input.currency,
            description: 'Stripe processing fees',
            type: 'stripe_fee',
          },
        ]
      : [],
    net: input.amount - fee,
    reporting_category: input.reportingCategory,
    source: input.source,
    status: 'available',
    type: input.type,
  };
};
type BalanceTransaction = ReturnType<typeof newBalanceTransaction>;
/** One line of an account's balance: the platform's (`account: null`) or a connected account's. */
interface LedgerEntry {
  account: string | null;
  transaction: BalanceTransaction;
}

const REQUIREMENTS_OF_A_NEW_ACCOUNT = [
  'business_profile.mcc',
  'business_profile.url',
  'business_type',
  'external_account',
  'individual.address.city',
  'individual.address.line1',
  'individual.address.postal_code',
  'individual.address.state',
  'individual.dob.day',
  'individual.dob.month',
  'individual.dob.year',
  'individual.email',
  'individual.first_name',
  'individual.last_name',
  'individual.phone',
  'individual.ssn_last_4',
  'tos_acceptance.date',
  'tos_acceptance.ip',
];

const requirementsDue = (due: string[]) => ({
  alternatives: [] as unknown[],
  current_deadline: null,
  currently_due: [...due],
  disabled_reason: due.length ? ('requirements.past_due' as string | null) : null,
  errors: [] as unknown[],
  eventually_due: [...due],
  past_due: [...due],
  pending_verification: [] as string[],
});

const CURRENCY_OF_COUNTRY: Record<string, string> = { US: 'usd', CA: 'cad', GB: 'gbp', AU: 'aud', NZ: 'nzd' };
const EURO_COUNTRIES = ['AT', 'BE', 'DE', 'ES', 'FI', 'FR', 'IE', 'IT', 'LU', 'NL', 'PT'];

type AccountType = 'express' | 'standard' | 'custom' | 'none';
const controllers: Record<Exclude<AccountType, 'none'>, Params> = {
  express: {
    fees: { payer: 'application_express' },
    is_controller: true,
    losses: { payments: 'application' },
    requirement_collection: 'stripe',
    stripe_dashboard: { type: 'express' },
    type: 'application',
  },
  standard: {
    fees: { payer: 'account' },
    is_controller: true,
    losses: { payments: 'stripe' },
    requirement_collection: 'stripe',
    stripe_dashboard: { type: 'full' },
    type: 'application',
  },
  custom: {
    fees: { payer: 'application_custom' },
    is_controller: true,
    losses: { payments: 'application' },
    requirement_collection: 'application',
    stripe_dashboard: { type: 'none' },
    type: 'application',
  },
};

/** `type`, or the account type the `controller` properties describe (`none` when none matches). */
const accountTypeOf = (params: Params): { type: AccountType; controller: Params } | Answer => {
  if (params.type !== undefined) {
    if (params.type !== 'express' && params.type !== 'standard' && params.type !== 'custom') {
      return invalidRequest('Invalid type: must be one of custom, express, or standard', { param: 'type' });
    }
    return { type: params.type, controller: controllers[params.type] };
  }
  const given = params.controller as
    | {
        stripe_dashboard?: { type?: string };
        fees?: { payer?: string };
        losses?: { payments?: string };
        requirement_collection?: string;
      }
    | undefined;
  if (!given) return { type: 'standard', controller: controllers.standard };
  const dashboard = given.stripe_dashboard?.type ?? 'full';
  const type: AccountType = dashboard === 'express' ? 'express' : dashboard === 'full' ? 'standard' : 'custom';
  const controller = {
    fees: { payer: given.fees?.payer ?? (controllers[type] as { fees: { payer: string } }).fees.payer },
    is_controller: true,
    losses: { payments: given.losses?.payments ?? 'application' },
    requirement_collection: given.requirement_collection ?? (dashboard === 'none' ? 'application' : 'stripe'),
    stripe_dashboard: { type: dashboard },
    type: 'application',
  };
  const matches = JSON.stringify(controller) === JSON.stringify(controllers[type]);
  return { type: matches ? type : 'none', controller };
};

const newAccount = (params: Params, type: AccountType, controller: Params) => {
  const id = randomId('acct', 16);
  const country = typeof params.country === 'string' ? params.country.toUpperCase() : 'US';
  const profile = (params.business_profile ?? {}) as Params;
  const capabilities = Object.fromEntries(
    requestedCapabilities(params.capabilities).map((name) => [name, 'inactive']),
  ) as Record<string, 'inactive' | 'pending' | 'active'>;
  const due = REQUIREMENTS_OF_A_NEW_ACCOUNT.filter(
    (field) =>
      !(field === 'business_type' && typeof params.business_type === 'string') &&
      !(field === 'business_profile.url' && typeof profile.url === 'string') &&
      !(field === 'business_profile.mcc' && typeof profile.mcc === 'string'),
  );
  return {
    id,
    object: 'account' as const,
    business_profile: {
      annual_revenue: null,
      estimated_worker_count: null,
      mcc: stringOr(profile.mcc, null),
      minority_owned_business_designation: null,
      name: stringOr(profile.name, null),
      product_description: stringOr(profile.product_description, null),
      support_address: null,
      support_email: null,
      support_phone: null,
      support_url: null,
      url: stringOr(profile.url, null),
    },
    business_type: stringOr(params.business_type, null),
    capabilities,
    charges_enabled: false,
    controller,
    country,
    created: nowSeconds(),
    default_currency:
      stringOr(params.default_currency, null) ??
      CURRENCY_OF_COUNTRY[country] ??
      (EURO_COUNTRIES.includes(country) ? 'eur' : 'usd'),
    details_submitted: false,
    email: stringOr(params.email, null),
    external_accounts: {
      object: 'list' as const,
      data: [] as Params[],
      has_more: false,
      total_count: 0,
      url: `/v1/accounts/${id}/external_accounts`,
    },
    future_requirements: requirementsDue([]),
    metadata: mergedMetadata({}, params.metadata),
    payouts_enabled: false,
    requirements: requirementsDue(due),
    settings: {
      bacs_debit_payments: { display_name: null, service_user_number: null },
      branding: { icon: null, logo: null, primary_color: null, secondary_color: null },
      card_issuing: { tos_acceptance: { date: null, ip: null } },
      card_payments: {
        decline_on: { avs_failure: false, cvc_failure: false },
        statement_descriptor_prefix: null,
        statement_descriptor_prefix_kana: null,
        statement_descriptor_prefix_kanji: null,
      },
      dashboard: { display_name: stringOr(profile.name, null), timezone: 'Etc/UTC' },
      invoices: { default_account_tax_ids: null, hosted_payment_method_save: 'offer' },
      payments: {
        statement_descriptor: null,
        statement_descriptor_kana: null,
        statement_descriptor_kanji: null,
        statement_descriptor_prefix_kana: null,
        statement_descriptor_prefix_kanji: null,
      },
      payouts: {
        debit_negative_balances: true,
        schedule: { delay_days: 2, interval: 'daily' },
        statement_descriptor: null,
      },
      sepa_debit_payments: {},
    },
    tos_acceptance: { date: null as number | null, ip: null as string | null, user_agent: null as string | null },
    type,
  };
};
type Account = ReturnType<typeof newAccount>;

/** An Account Link as the fake keeps it: Stripe's object plus how far its one use has gone. */
interface AccountLinkRecord {
  id: string;
  account: string;
  type: string;
  refresh_url: string;
  return_url: string;
  created: number;
  expires_at: number;
  url: string;
  /** `opened`: its page was shown (a second visit finds it expired); `used`: a choice was made. */
  state: 'new' | 'opened' | 'used';
  /** The one form the page showed may post its choice. */
  session: string | null;
}

/** The test bank account Stripe's hosted onboarding adds in test mode. */
const testBankAccount = (account: Account) => ({
  id: randomId('ba'),
  object: 'bank_account',
  account: account.id,
  account_holder_name: null,
  account_holder_type: 'individual',
  account_type: null,
  available_payout_methods: ['standard', 'instant'],
  bank_name: 'STRIPE TEST BANK',
  country: account.country,
  currency: account.default_currency,
  customer: null,
  default_for_currency: true,
  fingerprint: fingerprintOf(`bank:${account.id}`),
  future_requirements: { currently_due: [], errors: [], past_due: [], pending_verification: [] },
  last4: '6789',
  metadata: {},
  requirements: { currently_due: [], errors: [], past_due: [], pending_verification: [] },
  routing_number: '110000000',
  status: 'new',
});

interface Transfer {
  id: string;
  object: 'transfer';
  amount: number;
  amount_reversed: number;
  balance_transaction: string;
  created: number;
  currency: string;
  description: string | null;
  destination: string;
  destination_payment: string;
  livemode: false;
  metadata: Metadata;
  reversals: { object: 'list'; data: TransferReversal[]; has_more: boolean; total_count: number; url: string };
  reversed: boolean;
  source_transaction: string | null;
  source_type: 'card';
  transfer_group: string | null;
}

interface TransferReversal {
  id: string;
  object: 'transfer_reversal';
  amount: number;
  balance_transaction: string;
  created: number;
  currency: string;
  destination_payment_refund: string;
  metadata: Metadata;
  source_refund: null;
  transfer: string;
}

const newPayout = (account: Account, amount: number, currency: string) => ({
  id: randomId('po'),
  object: 'payout' as const,
  amount,
  application_fee: null,
  application_fee_amount: null,
  arrival_date: nowSeconds(),
  automatic: true,
  balance_transaction: null as string | null,
  created: nowSeconds(),
  currency,
  description: 'STRIPE PAYOUT',
  destination: (account.external_accounts.data[0]?.id as string | undefined) ?? null,
  failure_balance_transaction: null as string | null,
  failure_code: null as string | null,
  failure_message: null as string | null,
  livemode: false,
  metadata: {} as Metadata,
  method: 'standard',
  original_payout: null,
  payout_method: null,
  reconciliation_status: 'not_applicable',
  reversed_by: null,
  source_type: 'card',
  statement_descriptor: null,
  status: 'in_transit' as 'in_transit' | 'paid' | 'failed',
  trace_id: { status: 'pending', value: null as string | null },
  type: 'bank_account',
});
type Payout = ReturnType<typeof newPayout>;
/** A payout and the connected account it belongs to. */
interface PayoutRecord {
  account: string;
  payout: Payout;
}

const newCharge = (intent: PaymentIntent, paymentMethod: PaymentMethod, decline: Decline | undefined, base: string) => {
  const id = randomId('ch');
  const { card } = paymentMethod;
  return {
    id,
    object: 'charge' as const,
    amount: intent.amount,
    amount_captured: decline ? 0 : intent.amount,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: null as string | null,
    billing_details: clone(paymentMethod.billing_details),
    calculated_statement_descriptor: null,
    captured: !decline,
    created: nowSeconds(),
    currency: intent.currency,
    customer: intent.customer,
    description: intent.description,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: decline?.code ?? null,
    failure_message: decline?.message ?? null,
    fraud_details: {},
    livemode: false,
    metadata: clone(intent.metadata),
    on_behalf_of: null,
    outcome: {
      advice_code: null,
      network_advice_code: null,
      network_decline_code: null,
      network_status: decline ? 'declined_by_network' : 'approved_by_network',
      reason: decline?.declineCode ?? null,
      risk_level: 'normal',
      risk_score: 20,
      seller_message: decline ? 'The bank did not return any further details with this decline.' : 'Payment complete.',
      type: decline ? 'issuer_declined' : 'authorized',
    },
    paid: !decline,
    payment_intent: intent.id,
    payment_method: paymentMethod.id,
    payment_method_details: {
      card: {
        amount_authorized: decline ? null : intent.amount,
        authorization_code: null,
        brand: card.brand,
        checks: clone(card.checks),
        country: card.country,
        exp_month: card.exp_month,
        exp_year: card.exp_year,
        extended_authorization: { status: 'disabled' },
        fingerprint: card.fingerprint,
        funding: card.funding,
        incremental_authorization: { status: 'unavailable' },
        installments: null,
        last4: card.last4,
        mandate: null,
        multicapture: { status: 'unavailable' },
        network: card.brand,
        network_token: { used: false },
        network_transaction_id: null,
        overcapture: { maximum_amount_capturable: intent.amount, status: 'unavailable' },
        regulated_status: 'unregulated',
        three_d_secure: null as Params | null,
        wallet: null,
      },
      type: 'card',
    },
    receipt_email: intent.receipt_email,
    receipt_number: null,
    receipt_url: decline ? null : `${base}/__receipts/${id}`,
    refunded: false,
    refunds: {
      object: 'list' as const,
      data: [] as Refund[],
      has_more: false,
      total_count: 0,
      url: `/v1/charges/${id}/refunds`,
    },
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: decline ? 'failed' : 'succeeded',
    transfer_data: null,
    transfer_group: intent.transfer_group,
  };
};
type Charge = ReturnType<typeof newCharge>;

/** A page of a list, newest first, as Stripe pages: `limit`, `starting_after`, `ending_before`, `created`. */
const listPage = <T extends { id: string; created: number }>(
  newestFirst: T[],
  params: Params,
  url: string,
  kind: string,
  keep: (item: T) => boolean = () => true,
): Answer => {
  const limit = params.limit === undefined ? LIST_LIMIT_DEFAULT : Number(params.limit);
  if (!Number.isInteger(limit)) return invalidInteger('limit', params.limit);
  if (limit < 1) return invalidRequest('This value must be greater than or equal to 1.', { param: 'limit' });
  if (limit > 100) return invalidRequest('This value must be less than or equal to 100.', { param: 'limit' });
  const created = params.created;
  const bounds: Record<string, number> = {};
  if (typeof created === 'string') bounds.eq = Number(created);
  else if (typeof created === 'object' && created !== null) {
    for (const [op, value] of Object.entries(created as Params)) bounds[op] = Number(value);
  }
  for (const [op, value] of Object.entries(bounds)) {
    if (!Number.isInteger(value)) return invalidInteger(op === 'eq' ? 'created' : `created[${op}]`, value);
  }
  const inRange = (t: number) =>
    (bounds.eq === undefined || t === bounds.eq) &&
    (bounds.gt === undefined || t > bounds.gt) &&
    (bounds.gte === undefined || t >= bounds.gte) &&
    (bounds.lt === undefined || t < bounds.lt) &&
    (bounds.lte === undefined || t <= bounds.lte);
  const positions = new Map(newestFirst.map((item, i) => [item.id, i]));
  const cursor = (param: 'starting_after' | 'ending_before') => {
    const id = params[param];
    if (id === undefined) return undefined;
    const at = positions.get(String(id));
    return at === undefined ? noSuch(kind, String(id), param) : at;
  };
  const after = cursor('starting_after');
  if (isAnswer(after)) return after;
  const before = cursor('ending_before');
  if (isAnswer(before)) return before;
  const matching = newestFirst
    .map((item, i) => ({ item, i }))
    .filter(({ item }) => keep(item) && inRange(item.created));
  let data: T[];
  let hasMore: boolean;
  if (before !== undefined) {
    const newer = matching.filter(({ i }) => i < before);
    data = newer.slice(-limit).map(({ item }) => item);
    hasMore = newer.length > limit;
  } else {
    const older = after === undefined ? matching : matching.filter(({ i }) => i > after);
    data = older.slice(0, limit).map(({ item }) => item);
    hasMore = older.length > limit;
  }
  return ok({ object: 'list', data: clone(data), has_more: hasMore, url });
};

export const startStripeFake = async ({
  port,
  webhookUrl,
  webhookSecret,
  connectWebhookUrl,
  connectWebhookSecret,
  stateDir,
  log = () => {},
}: StripeFakeOptions) => {
  const collections = [
    'intents',
    'refunds',
    'idempotent',
    'customers',
    'paymentMethods',
    'cards',
    'charges',
    'accounts',
    'accountLinks',
    'transfers',
    'reversals',
    'payouts',
    'ledger',
  ] as const;
  type Collection = (typeof collections)[number];
  const store = new StripeFakeStore(stateDir, collections, log);
  let intents = new Map<string, PaymentIntent>();
  let refunds = new Map<string, Refund>();
  /** Idempotency-Key (prefixed by the connected account it was sent for) -> the first answer. */
  let idempotent = new Map<string, IdempotentAnswer>();
  let customers = new Map<string, Customer>();
  let paymentMethods = new Map<string, PaymentMethod>();
  let cards = new Map<string, CardState>();
  let charges = new Map<string, Charge>();
  let accounts = new Map<string, Account>();
  let accountLinks = new Map<string, AccountLinkRecord>();
  let transfers = new Map<string, Transfer>();
  let reversals = new Map<string, TransferReversal>();
  let payouts = new Map<string, PayoutRecord>();
  let ledger = new Map<string, LedgerEntry>();

  /** What a new process starts with: the objects in the folder, less the idempotency keys Stripe has forgotten. */
  const readState = () => {
    const stored = store.load();
    // Objects an older fake saved lack the fields added since: they read as Stripe's defaults.
    intents = new Map(
      [...stored.intents].map(([id, intent]) => [id, { ...intentDefaults(), ...(intent as PaymentIntent) }]),
    );
    refunds = new Map([...stored.refunds].map(([id, refund]) => [id, { ...refundDefaults(), ...(refund as Refund) }]));
    idempotent = stored.idempotent as Map<string, IdempotentAnswer>;
    customers = stored.customers as Map<string, Customer>;
    paymentMethods = stored.paymentMethods as Map<string, PaymentMethod>;
    cards = stored.cards as Map<string, CardState>;
    charges = stored.charges as Map<string, Charge>;
    accounts = stored.accounts as Map<string, Account>;
    accountLinks = stored.accountLinks as Map<string, AccountLinkRecord>;
    transfers = stored.transfers as Map<string, Transfer>;
    reversals = stored.reversals as Map<string, TransferReversal>;
    payouts = stored.payouts as Map<string, PayoutRecord>;
    ledger = stored.ledger as Map<string, LedgerEntry>;
    const forgottenBefore = Date.now() - IDEMPOTENCY_KEYS_KEPT_MS;
    for (const [key, kept] of idempotent) if (kept.createdAt < forgottenBefore) idempotent.delete(key);
    store.snapshot(stored);
  };
  readState();

  /** Keeps an object in memory and stages it for the folder (written before the answer leaves). */
  const save = <T extends { id: string }>(collection: Collection, map: Map<string, T>, value: T) => {
    map.set(value.id, value);
    store.put(collection, value.id, value);
  };
  const saveIntent = (intent: PaymentIntent) => save('intents', intents, intent);
  const saveCard = (id: string, state: CardState) => {
    cards.set(id, state);
    store.put('cards', id, state);
  };
  const saveLink = (link: AccountLinkRecord) => save('accountLinks', accountLinks, link);
  const savePayout = (record: PayoutRecord) => {
    payouts.set(record.payout.id, record);
    store.put('payouts', record.payout.id, record);
  };
  const newestFirst = <T>(map: Map<string, T>) => [...map.values()].reverse();

  const pendingDeliveries = new Set<NodeJS.Timeout>();
  let closed = false;
  let faults: StripeFault[] = [];
  const seen: SeenRequest[] = [];
  let listeningPort = port;

  // ---- balances -------------------------------------------------------------------------------

  /** A line in an account's balance (the platform's when `account` is null). */
  const record = (account: string | null, input: Parameters<typeof newBalanceTransaction>[0]) => {
    const transaction = newBalanceTransaction(input);
    ledger.set(transaction.id, { account, transaction });
    store.put('ledger', transaction.id, { account, transaction });
    return transaction;
  };
  /** Available cents by currency: the sum of the account's balance transactions. */
  const availableOf = (account: string | null) => {
    const byCurrency = new Map<string, number>();
    for (const entry of ledger.values()) {
      if (entry.account !== account) continue;
      const { currency, net } = entry.transaction;
      byCurrency.set(currency, (byCurrency.get(currency) ?? 0) + net);
    }
    return byCurrency;
  };
  const balanceOf = (account: string | null) => {
    const available = availableOf(account);
    const fallback = account ? (accounts.get(account)?.default_currency ?? 'usd') : 'usd';
    const currencies = available.size ? [...available.keys()].sort() : [fallback];
    return {
      object: 'balance',
      available: currencies.map((currency) => ({
        amount: available.get(currency) ?? 0,
        currency,
        source_types: { card: available.get(currency) ?? 0 },
      })),
      connect_reserved: currencies.map((currency) => ({ amount: 0, currency })),
      livemode: false,
      pending: currencies.map((currency) => ({ amount: 0, currency, source_types: { card: 0 } })),
    };
  };

  // ---- faults ---------------------------------------------------------------------------------

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

  /** The object kind a path names, for Stripe's resource_missing answer to an injected 404. */
  const kindsByPath: [RegExp, string, string][] = [
    [/^\/v1\/payment_intents\/([^/]+)/, 'payment_intent', 'intent'],
    [/^\/v1\/refunds\/([^/]+)/, 'refund', 'id'],
    [/^\/v1\/customers\/([^/]+)/, 'customer', 'customer'],
    [/^\/v1\/payment_methods\/([^/]+)/, 'PaymentMethod', 'payment_method'],
    [/^\/v1\/charges\/([^/]+)/, 'charge', 'charge'],
    [/^\/v1\/transfers\/([^/]+)/, 'transfer', 'id'],
    [/^\/v1\/payouts\/([^/]+)/, 'payout', 'payout'],
  ];

  /** What a fault answers instead of the request's own answer. */
  const faultyAnswer = (fault: StripeFault, path: string): Answer => {
    if (fault.reply === 'disconnect') return { status: 0, body: null, hangUp: true };
    if (fault.reply === 'malformed') return { status: fault.status, body: null, raw: MALFORMED_BODY };
    if (fault.status !== 404) return injectedError(fault.status);
    for (const [pattern, kind, param] of kindsByPath) {
      const id = pattern.exec(path)?.[1];
      if (id) return missingResource(kind, decodeURIComponent(id), param);
    }
    return invalidRequest(`Unrecognized request URL (${path}).`, {}, 404);
  };

  /** The local-only control endpoint: faults to add, list or clear. */
  const controlFaults = (method: string, body: string): Answer => {
    if (method === 'GET') return ok({ faults, requests: seen });
    if (method === 'DELETE') {
      faults = [];
      seen.length = 0;
      return ok({ faults });
    }
    if (method !== 'POST') return invalidRequest(`${method} /__faults is not served`, {}, 405);
    let input: Partial<StripeFault>;
    try {
      input = JSON.parse(body || '{}');
    } catch {
      return invalidRequest('The fault must be JSON');
    }
    const webhookPaths = ['webhooks', 'connect-webhooks'];
    if (typeof input.path !== 'string' || !(input.path.startsWith('/v1/') || webhookPaths.includes(input.path))) {
      return invalidRequest(
        'A fault needs the path it applies to, such as /v1/payment_intents, webhooks or connect-webhooks',
      );
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
    return ok({ faults });
  };

  // ---- webhooks -------------------------------------------------------------------------------

  interface Endpoint {
    url: string;
    secret: string;
    /** The `path` a fault names to drop deliveries to this endpoint. */
    faultPath: string;
  }
  const platformEndpoint: Endpoint = { url: webhookUrl, secret: webhookSecret, faultPath: 'webhooks' };
  const connectEndpoint: Endpoint | undefined =
    connectWebhookUrl && connectWebhookSecret
      ? { url: connectWebhookUrl, secret: connectWebhookSecret, faultPath: 'connect-webhooks' }
      : undefined;

  const signedHeader = (payload: string, secret: string) => {
    const t = nowSeconds();
    return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${payload}`).digest('hex')}`;
  };

  /**
   * Sends one event as Stripe does: signed, retried with a growing pause until the endpoint answers
   * 2xx. An event about a connected account (`account`) goes to the Connect endpoint, with the
   * account at its top level; without a Connect endpoint it is not sent.
   */
  const deliver = (type: string, object: unknown, options: { account?: string; previous?: Params } = {}) => {
    const endpoint = options.account ? connectEndpoint : platformEndpoint;
    if (!endpoint) return;
    const event = {
      id: randomId('evt'),
      object: 'event',
      ...(options.account ? { account: options.account } : {}),
      api_version: API_VERSION,
      created: nowSeconds(),
      data: { object: clone(object), ...(options.previous ? { previous_attributes: clone(options.previous) } : {}) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: randomId('req', 14), idempotency_key: null },
      type,
    };
    const payload = JSON.stringify(event, null, 2);
    const attempt = async (n: number) => {
      if (closed) return;
      let outcome: string;
      const dropped = takeFault('POST', endpoint.faultPath, object as Params);
      try {
        if (dropped) throw new Error(`an injected fault (${dropped.status})`);
        const response = await fetch(endpoint.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
            'stripe-signature': signedHeader(payload, endpoint.secret),
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

  /** The top-level fields an update changed, with their old values (an *.updated event's previous_attributes). */
  const changedFields = (before: Params, after: Params) =>
    Object.fromEntries(
      Object.keys(after)
        .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
        .map((key) => [key, before[key]]),
    );

  // ---- customers and payment methods ------------------------------------------------------------

  const createCustomer = (params: Params): Answer => {
    const customer = newCustomer(params);
    save('customers', customers, customer);
    return ok(customer);
  };

  const updateCustomer = (id: string, params: Params): Answer => {
    const customer = customers.get(id);
    if (!customer) return missingResource('customer', id, 'customer');
    const settings = params.invoice_settings as { default_payment_method?: unknown } | undefined;
    const wanted = settings?.default_payment_method;
    if (typeof wanted === 'string' && wanted !== '' && paymentMethods.get(wanted)?.customer !== id) {
      return invalidRequest(
        `The customer does not have a payment method with the ID ${wanted}. The payment method must be attached to the customer.`,
        { param: 'invoice_settings[default_payment_method]' },
      );
    }
    for (const field of ['email', 'name', 'description', 'phone'] as const) {
      if (typeof params[field] === 'string') customer[field] = params[field] === '' ? null : (params[field] as string);
    }
    if (typeof wanted === 'string') customer.invoice_settings.default_payment_method = wanted || null;
    customer.metadata = mergedMetadata(customer.metadata, params.metadata);
    save('customers', customers, customer);
    return ok(customer);
  };

  /** A new PaymentMethod for a test card (a `pm_card_*` id, or a card number with its details). */
  const createCard = (testCard: string, input: Parameters<typeof newPaymentMethod>[1] = {}) => {
    const paymentMethod = newPaymentMethod(testCards[testCard]!, input);
    save('paymentMethods', paymentMethods, paymentMethod);
    saveCard(paymentMethod.id, { testCard, consumed: false, readyOffSession: false });
    return paymentMethod;
  };

  /** Card details as Stripe.js sends them (`card[number]`, `card[exp_month]`, ...). */
  const cardFromDetails = (card: Params, billingDetails: unknown, metadata: unknown, param: string) => {
    const number = String(card.number ?? '').replace(/[\s-]/g, '');
    const testCard = testCardNumbers[number];
    if (!testCard) {
      return stripeError(402, {
        type: 'card_error',
        code: 'incorrect_number',
        doc_url: docUrl('incorrect_number'),
        message: 'Your card number is incorrect.',
        param,
      });
    }
    return createCard(testCard, {
      expMonth: card.exp_month,
      expYear: card.exp_year,
      cvc: card.cvc,
      billingDetails,
      metadata,
    });
  };

  /** A PaymentMethod a parameter names: a test id makes a new one, as Stripe clones it. */
  const paymentMethodNamed = (id: string, param: string): PaymentMethod | Answer => {
    if (testCards[id]) return createCard(id);
    return paymentMethods.get(id) ?? noSuch('PaymentMethod', id, param);
  };

  const createPaymentMethod = (params: Params): Answer => {
    if (params.type === undefined) return missingParam('type');
    if (params.type !== 'card') {
      return invalidRequest(`The local Stripe fake makes card payment methods only, not ${String(params.type)}.`, {
        param: 'type',
      });
    }
    const card = params.card as Params | undefined;
    if (!card) return missingParam('card');
    const paymentMethod = cardFromDetails(card, params.billing_details, params.metadata, 'card[number]');
    return isAnswer(paymentMethod) ? paymentMethod : ok(paymentMethod);
  };

  const attachPaymentMethod = (id: string, params: Params): Answer => {
    if (typeof params.customer !== 'string') return missingParam('customer');
    const customer = customers.get(params.customer);
    if (!customer) return noSuch('customer', params.customer, 'customer');
    const paymentMethod = testCards[id] ? createCard(id) : paymentMethods.get(id);
    if (!paymentMethod) return missingResource('PaymentMethod', id, 'payment_method');
    const state = cards.get(paymentMethod.id)!;
    if (paymentMethod.customer === customer.id) return ok(paymentMethod);
    if (paymentMethod.customer) {
      return invalidRequest('The payment method you provided has already been attached to a customer.', {
        param: 'payment_method',
      });
    }
    if (state.consumed) {
      return invalidRequest(
        'This PaymentMethod was previously used without being attached to a Customer or was detached from a Customer, and may not be used again.',
        { param: 'payment_method' },
      );
    }
    const test = testCards[state.testCard]!;
    if (test.declinedOnAttach && test.decline) {
      return stripeError(402, {
        type: 'card_error',
        code: test.decline.code,
        decline_code: test.decline.declineCode,
        doc_url: docUrl(test.decline.code),
        message: test.decline.message,
        param: '',
      });
    }
    paymentMethod.customer = customer.id;
    save('paymentMethods', paymentMethods, paymentMethod);
    return ok(paymentMethod);
  };

  const detachPaymentMethod = (id: string): Answer => {
    const paymentMethod = paymentMethods.get(id);
    if (!paymentMethod) return missingResource('PaymentMethod', id, 'payment_method');
    const customer = paymentMethod.customer ? customers.get(paymentMethod.customer) : undefined;
    if (!customer) {
      return invalidRequest(
        'The payment method you provided is not attached to a customer so detachment is impossible.',
        { param: 'payment_method' },
      );
    }
    if (customer.invoice_settings.default_payment_method === id) {
      customer.invoice_settings.default_payment_method = null;
      save('customers', customers, customer);
    }
    paymentMethod.customer = null;
    save('paymentMethods', paymentMethods, paymentMethod);
    // A detached card cannot be used again, as with Stripe.
    saveCard(id, { ...cards.get(id)!, consumed: true, readyOffSession: false });
    return ok(paymentMethod);
  };

  const customerPaymentMethods = (customerId: string, params: Params, url: string): Answer => {
    if (!customers.has(customerId)) return missingResource('customer', customerId, 'customer');
    if (params.type !== undefined && params.type !== 'card') {
      return ok({ object: 'list', data: [], has_more: false, url });
    }
    return listPage(newestFirst(paymentMethods), params, url, 'PaymentMethod', (pm) => pm.customer === customerId);
  };

  // ---- payment intents and charges ------------------------------------------------------------

  const setupFutureUsageOf = (params: Params): string | null | undefined | Answer => {
    const value = params.setup_future_usage;
    if (value === undefined) return undefined;
    if (value === '') return null;
    if (value !== 'off_session' && value !== 'on_session') {
      return invalidRequest('Invalid setup_future_usage: must be one of on_session or off_session', {
        param: 'setup_future_usage',
      });
    }
    return value;
  };

  /** Stripe's checks that a saved card belongs to the intent's customer. */
  const ownershipError = (intent: PaymentIntent, paymentMethod: PaymentMethod): Answer | undefined => {
    if (paymentMethod.customer && intent.customer && paymentMethod.customer !== intent.customer) {
      return invalidRequest(
        `The PaymentMethod ${paymentMethod.id} does not belong to the Customer you supplied ${intent.customer}. Please use this PaymentMethod with the Customer that it belongs to instead.`,
        { param: 'payment_method' },
      );
    }
    if (paymentMethod.customer && !intent.customer) {
      return invalidRequest(
        `The payment method supplied (${paymentMethod.id}) belongs to the Customer ${paymentMethod.customer}. Please include the Customer in the \`customer\` parameter on the PaymentIntent.`,
        { param: 'payment_method' },
      );
    }
    if (!paymentMethod.customer && cards.get(paymentMethod.id)?.consumed) {
      return invalidRequest(
        'The provided PaymentMethod was previously used with a PaymentIntent without Customer attachment, shared with a connected account without Customer attachment, or was detached from a Customer. It may not be used again. To use a PaymentMethod multiple times, you must attach it to a Customer first.',
        { param: 'payment_method' },
      );
    }
    return undefined;
  };

  const createIntent = (params: Params, base: string): Answer => {
    const amount = Number(params.amount);
    if (params.amount === undefined) return missingParam('amount');
    if (!Number.isInteger(amount) || amount < 1) return invalidInteger('amount', params.amount);
    if (amount < 50) {
      return invalidRequest('Amount must be at least $0.50 usd', { code: 'amount_too_small', param: 'amount' });
    }
    if (typeof params.currency !== 'string' || !params.currency) return missingParam('currency');
    if (typeof params.customer === 'string' && !customers.has(params.customer)) {
      return noSuch('customer', params.customer, 'customer');
    }
    const setupFutureUsage = setupFutureUsageOf(params);
    if (isAnswer(setupFutureUsage)) return setupFutureUsage;
    const confirm = isTrue(params.confirm);
    if (params.off_session !== undefined && !confirm) {
      return invalidRequest('off_session can only be used when confirm=true.', { param: 'off_session' });
    }
    if (params.return_url !== undefined && !confirm) {
      return invalidRequest('return_url can only be used when confirm=true.', { param: 'return_url' });
    }
    let paymentMethod: PaymentMethod | undefined;
    if (typeof params.payment_method === 'string') {
      const named = paymentMethodNamed(params.payment_method, 'payment_method');
      if (isAnswer(named)) return named;
      paymentMethod = named;
    }
    const id = randomId('pi');
    const automatic = params.automatic_payment_methods as { enabled?: string } | undefined;
    const intent: PaymentIntent = {
      ...intentDefaults(),
      id,
      amount,
      automatic_payment_methods: automatic?.enabled === 'true' ? { enabled: true, allow_redirects: 'always' } : null,
      client_secret: `${id}_secret_${randomBytes(18).toString('base64url').replace(/[-_]/g, '')}`,
      created: nowSeconds(),
      currency: params.currency.toLowerCase(),
      customer: stringOr(params.customer, null),
      description: stringOr(params.description, null),
      metadata: mergedMetadata({}, params.metadata),
      payment_method: paymentMethod?.id ?? null,
      receipt_email: stringOr(params.receipt_email, null),
      setup_future_usage: setupFutureUsage ?? null,
      status: paymentMethod ? 'requires_confirmation' : 'requires_payment_method',
      transfer_group: stringOr(params.transfer_group, null),
    };
    if (paymentMethod) {
      const refused = ownershipError(intent, paymentMethod);
      if (refused) return refused;
    }
    saveIntent(intent);
    if (!confirm) return ok(intent);
    const { payment_method: _named, setup_future_usage: _usage, ...confirmParams } = params;
    return confirmIntent({ kind: 'secret' }, id, confirmParams, base);
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

  const updateIntent = (id: string, params: Params): Answer => {
    const intent = intents.get(id);
    if (!intent) return missingResource('payment_intent', id, 'intent');
    if (!['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(intent.status)) {
      return invalidRequest(
        `This PaymentIntent's parameters could not be updated because it has a status of ${intent.status}. You may only update the parameters of a PaymentIntent with one of the following statuses: requires_payment_method, requires_confirmation, requires_action.`,
        { code: 'payment_intent_unexpected_state', payment_intent: intent },
      );
    }
    if (params.amount !== undefined) {
      const amount = Number(params.amount);
      if (!Number.isInteger(amount) || amount < 50) return invalidInteger('amount', params.amount);
      intent.amount = amount;
    }
    if (typeof params.customer === 'string') {
      if (!customers.has(params.customer)) return noSuch('customer', params.customer, 'customer');
      intent.customer = params.customer;
    }
    const setupFutureUsage = setupFutureUsageOf(params);
    if (isAnswer(setupFutureUsage)) return setupFutureUsage;
    if (setupFutureUsage !== undefined) intent.setup_future_usage = setupFutureUsage;
    if (typeof params.payment_method === 'string') {
      const named = paymentMethodNamed(params.payment_method, 'payment_method');
      if (isAnswer(named)) return named;
      const refused = ownershipError(intent, named);
      if (refused) return refused;
      intent.payment_method = named.id;
      intent.status = 'requires_confirmation';
    }
    for (const field of ['description', 'receipt_email', 'transfer_group'] as const) {
      if (typeof params[field] === 'string') intent[field] = params[field] === '' ? null : (params[field] as string);
    }
    intent.metadata = mergedMetadata(intent.metadata, params.metadata);
    saveIntent(intent);
    return ok(intent);
  };

  /** The card a confirm pays with: card details as Stripe.js sends them, a named one, or the intent's own. */
  const paymentMethodForConfirm = (params: Params, intent: PaymentIntent): PaymentMethod | Answer | null => {
    const data = params.payment_method_data as
      | { card?: Params; billing_details?: unknown; metadata?: unknown }
      | undefined;
    if (data?.card?.number !== undefined) {
      return cardFromDetails(data.card, data.billing_details, data.metadata, 'number');
    }
    if (typeof params.payment_method === 'string') return paymentMethodNamed(params.payment_method, 'payment_method');
    if (intent.payment_method) return paymentMethodNamed(intent.payment_method, 'payment_method');
    return null;
  };

  /** A declined attempt: a failed charge, the intent back to requires_payment_method, Stripe's 402. */
  const declinePayment = (intent: PaymentIntent, paymentMethod: PaymentMethod, decline: Decline, base: string) => {
    const charge = newCharge(intent, paymentMethod, decline, base);
    save('charges', charges, charge);
    const error = {
      type: 'card_error',
      charge: charge.id,
      code: decline.code,
      decline_code: decline.declineCode,
      doc_url: docUrl(decline.code),
      message: decline.message,
      payment_method: clone(paymentMethod),
      payment_method_type: 'card',
    };
    if (!paymentMethod.customer) saveCard(paymentMethod.id, { ...cards.get(paymentMethod.id)!, consumed: true });
    Object.assign(intent, {
      status: 'requires_payment_method',
      payment_method: null,
      latest_charge: charge.id,
      last_payment_error: error,
      next_action: null,
    });
    saveIntent(intent);
    deliver('payment_intent.payment_failed', intent);
    return stripeError(402, { ...error, payment_intent: intent });
  };

  /** A paid intent: its charge, the platform's share in its balance, the card saved if asked. */
  const completePayment = (
    intent: PaymentIntent,
    paymentMethod: PaymentMethod,
    base: string,
    authenticated: boolean,
  ): Answer => {
    const charge = newCharge(intent, paymentMethod, undefined, base);
    if (authenticated) {
      charge.payment_method_details.card.three_d_secure = {
        authentication_flow: 'challenge',
        electronic_commerce_indicator: '05',
        exemption_indicator: null,
        result: 'authenticated',
        result_reason: null,
        transaction_id: randomBytes(16).toString('hex'),
        version: '2.2.0',
      };
    }
    const fee = Math.round(intent.amount * FEE_PERCENT) + FEE_FIXED_CENTS;
    charge.balance_transaction = record(null, {
      amount: intent.amount,
      currency: intent.currency,
      type: 'charge',
      reportingCategory: 'charge',
      source: charge.id,
      description: intent.description,
      fee,
    }).id;
    save('charges', charges, charge);
    const state = cards.get(paymentMethod.id)!;
    if (intent.setup_future_usage && intent.customer && !paymentMethod.customer) {
      paymentMethod.customer = intent.customer;
      save('paymentMethods', paymentMethods, paymentMethod);
    }
    if (paymentMethod.customer) {
      // A card saved by this payment is set up for later payments without the customer.
      if (intent.setup_future_usage) saveCard(paymentMethod.id, { ...state, readyOffSession: true });
    } else {
      saveCard(paymentMethod.id, { ...state, consumed: true });
    }
    Object.assign(intent, {
      status: 'succeeded',
      amount_received: intent.amount,
      payment_method: paymentMethod.id,
      latest_charge: charge.id,
      last_payment_error: null,
      next_action: null,
    });
    saveIntent(intent);
    deliver('payment_intent.succeeded', intent);
    return ok(intent);
  };

  const confirmIntent = (caller: Caller, id: string, params: Params, base: string): Answer => {
    const intent = intentFor(caller, id, params);
    if (isAnswer(intent)) return intent;
    if (intent.status === 'succeeded' || intent.status === 'canceled') {
      const already = intent.status === 'succeeded' ? 'it has already succeeded' : 'it has a status of canceled';
      return invalidRequest(`You cannot confirm this PaymentIntent because ${already}.`, {
        code: 'payment_intent_unexpected_state',
        payment_intent: intent,
      });
    }
    const setupFutureUsage = setupFutureUsageOf(params);
    if (isAnswer(setupFutureUsage)) return setupFutureUsage;
    if (setupFutureUsage !== undefined) intent.setup_future_usage = setupFutureUsage;
    if (typeof params.receipt_email === 'string') intent.receipt_email = params.receipt_email || null;
    const paymentMethod = paymentMethodForConfirm(params, intent);
    if (isAnswer(paymentMethod)) return paymentMethod;
    if (!paymentMethod) {
      return invalidRequest(
        "You cannot confirm this PaymentIntent because it's missing a payment method. To confirm the PaymentIntent, pass a payment_method.",
        { code: 'payment_intent_unexpected_state', payment_intent: intent },
      );
    }
    const refused = ownershipError(intent, paymentMethod);
    if (refused) return refused;
    const state = cards.get(paymentMethod.id)!;
    const test = testCards[state.testCard]!;
    if (test.decline) return declinePayment(intent, paymentMethod, test.decline, base);
    if (test.authentication) {
      const offSession = params.off_session !== undefined && params.off_session !== 'false';
      if (offSession) {
        if (!(state.readyOffSession && paymentMethod.customer)) {
          return declinePayment(intent, paymentMethod, authenticationRequired, base);
        }
      } else {
        const returnUrl = stringOr(params.return_url, null);
        Object.assign(intent, {
          status: 'requires_action',
          payment_method: paymentMethod.id,
          last_payment_error: null,
          next_action: {
            type: 'redirect_to_url',
            redirect_to_url: { url: `${base}/__authenticate/${intent.id}`, return_url: returnUrl },
          },
        });
        saveIntent(intent);
        deliver('payment_intent.requires_action', intent);
        return ok(intent);
      }
    }
    return completePayment(intent, paymentMethod, base, false);
  };

  /** The challenge page's outcome for an intent that requires action. */
  const settleAuthentication = (intent: PaymentIntent, passed: boolean, base: string) => {
    const paymentMethod = paymentMethods.get(intent.payment_method ?? '');
    if (!paymentMethod) return;
    if (passed) {
      completePayment(intent, paymentMethod, base, true);
      return;
    }
    if (!paymentMethod.customer) saveCard(paymentMethod.id, { ...cards.get(paymentMethod.id)!, consumed: true });
    Object.assign(intent, {
      status: 'requires_payment_method',
      payment_method: null,
      next_action: null,
      last_payment_error: {
        type: 'invalid_request_error',
        code: 'payment_intent_authentication_failure',
        doc_url: docUrl('payment_intent_authentication_failure'),
        message:
          'The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.',
        payment_method: clone(paymentMethod),
      },
    });
    saveIntent(intent);
    deliver('payment_intent.payment_failed', intent);
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
      next_action: null,
    });
    saveIntent(intent);
    deliver('payment_intent.canceled', intent);
    return ok(intent);
  };

  const refundedCentsOf = (intentId: string) =>
    [...refunds.values()].filter((r) => r.payment_intent === intentId).reduce((sum, r) => sum + r.amount, 0);

  const createRefund = (params: Params): Answer => {
    let intentId = params.payment_intent;
    if (typeof intentId !== 'string' && typeof params.charge === 'string') {
      const charge = charges.get(params.charge);
      if (!charge) return noSuch('charge', params.charge, 'charge');
      intentId = charge.payment_intent;
    }
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
    if (!Number.isInteger(amount) || amount < 1) return invalidInteger('amount', params.amount);
    if (amount > left) {
      return invalidRequest(
        `Refund amount (${dollars(amount)}) is greater than unrefunded amount on charge (${dollars(left)})`,
        { code: 'amount_too_large', param: 'amount' },
      );
    }
    const refund: Refund = {
      ...refundDefaults(),
      id: randomId('re'),
      amount,
      charge: intent.latest_charge,
      created: nowSeconds(),
      currency: intent.currency,
      customer: intent.customer,
      metadata: mergedMetadata({}, params.metadata),
      payment_intent: intent.id,
      payment_method: intent.payment_method,
      reason: stringOr(params.reason, null),
    };
    refund.balance_transaction = record(null, {
      amount: -amount,
      currency: intent.currency,
      type: 'refund',
      reportingCategory: 'refund',
      source: refund.id,
      description: 'REFUND FOR PAYMENT',
    }).id;
    save('refunds', refunds, refund);
    const charge = charges.get(intent.latest_charge ?? '');
    if (charge) {
      charge.amount_refunded += amount;
      charge.refunded = charge.amount_refunded >= charge.amount_captured;
      charge.refunds.data = [refund, ...charge.refunds.data].slice(0, LIST_LIMIT_DEFAULT);
      charge.refunds.total_count += 1;
      charge.refunds.has_more = charge.refunds.total_count > charge.refunds.data.length;
      save('charges', charges, charge);
      // As Stripe tells a platform of every refund, however it was made (the API, the Dashboard).
      deliver('charge.refunded', charge);
    }
    return ok(refund);
  };

  // ---- Connect: accounts, onboarding, transfers, payouts -------------------------------------

  /** Stripe's answer for an account the platform cannot see (unknown, or not connected to it). */
  const noAccess = (id: string) =>
    stripeError(403, {
      type: 'invalid_request_error',
      code: 'account_invalid',
      doc_url: docUrl('account_invalid'),
      message: `The provided key 'sk_test_***' does not have access to account '${id}' (or that account does not exist). Application access may have been revoked.`,
    });

  const createAccount = (params: Params): Answer => {
    const kind = accountTypeOf(params);
    if (isAnswer(kind)) return kind;
    if (params.country !== undefined && !/^[A-Za-z]{2}$/.test(String(params.country))) {
      return invalidRequest(
        `Country '${String(params.country)}' is unknown. Try using a 2-character alphanumeric country code instead, such as 'US', 'EG', or 'GB'. A full list of country codes is available at https://stripe.com/docs/api#country_specs`,
        { param: 'country' },
      );
    }
    const account = newAccount(params, kind.type, kind.controller);
    save('accounts', accounts, account);
    return ok(account);
  };

  /** Changes an account and tells the Connect endpoint, as Stripe does with account.updated. */
  const changeAccount = (account: Account, change: (account: Account) => void) => {
    const before = clone(account) as unknown as Params;
    change(account);
    const previous = changedFields(before, account as unknown as Params);
    if (Object.keys(previous).length === 0) return;
    save('accounts', accounts, account);
    deliver('account.updated', account, { account: account.id, previous });
  };

  const updateAccount = (id: string, params: Params): Answer => {
    const account = accounts.get(id);
    if (!account) return noAccess(id);
    const profile = (params.business_profile ?? {}) as Params;
    changeAccount(account, (a) => {
      if (typeof params.email === 'string') a.email = params.email || null;
      for (const field of ['name', 'url', 'mcc', 'product_description'] as const) {
        if (typeof profile[field] === 'string') a.business_profile[field] = (profile[field] as string) || null;
      }
      a.metadata = mergedMetadata(a.metadata, params.metadata);
      for (const name of requestedCapabilities(params.capabilities)) {
        a.capabilities[name] ??=
          a.details_submitted && a.requirements.currently_due.length === 0 ? 'active' : 'inactive';
      }
    });
    return ok(account);
  };

  const createAccountLink = (params: Params, base: string): Answer => {
    for (const param of ['account', 'type'] as const) if (typeof params[param] !== 'string') return missingParam(param);
    const account = accounts.get(params.account as string);
    if (!account) return noSuch('account', params.account as string, 'account');
    if (params.type !== 'account_onboarding' && params.type !== 'account_update') {
      return invalidRequest('Invalid type: must be one of account_onboarding or account_update', { param: 'type' });
    }
    for (const param of ['refresh_url', 'return_url'] as const) {
      const value = params[param];
      if (typeof value !== 'string') return missingParam(param);
      if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
        return invalidRequest('Not a valid URL', { param });
      }
    }
    const id = randomId('link', 12);
    const created = nowSeconds();
    const link: AccountLinkRecord = {
      id,
      account: account.id,
      type: params.type,
      refresh_url: params.refresh_url as string,
      return_url: params.return_url as string,
      created,
      expires_at: created + ACCOUNT_LINK_LIFETIME_S,
      url: `${base}/__onboarding/${id}`,
      state: 'new',
      session: null,
    };
    saveLink(link);
    return ok({ object: 'account_link', created, expires_at: link.expires_at, url: link.url });
  };

  /** How the onboarding page's three choices leave the account. */
  const finishOnboarding = (account: Account, choice: 'complete' | 'incomplete') =>
    changeAccount(account, (a) => {
      a.details_submitted = true;
      a.business_type ??= 'individual';
      a.tos_acceptance = {
        date: a.tos_acceptance.date ?? nowSeconds(),
        ip: '127.0.0.1',
        user_agent: 'Stripe fake onboarding',
      };
      if (choice === 'complete') {
        if (a.external_accounts.data.length === 0) {
          a.external_accounts.data = [testBankAccount(a)];
          a.external_accounts.total_count = 1;
        }
        a.requirements = requirementsDue([]);
        a.charges_enabled = true;
        a.payouts_enabled = true;
        for (const name of Object.keys(a.capabilities)) a.capabilities[name] = 'active';
      } else {
        a.requirements = requirementsDue(
          a.external_accounts.data.length ? ['individual.ssn_last_4'] : ['external_account'],
        );
        a.charges_enabled = false;
        a.payouts_enabled = false;
        for (const name of Object.keys(a.capabilities)) a.capabilities[name] = 'inactive';
      }
    });

  const createLoginLink = (id: string, base: string): Answer => {
    const account = accounts.get(id);
    if (!account) return noAccess(id);
    if (account.type !== 'express') {
      return invalidRequest('Cannot create a login link for an account that is not an Express account.', {
        param: 'account',
      });
    }
    if (!account.details_submitted) {
      return invalidRequest('Cannot create a login link for an account that has not completed onboarding.', {
        param: 'account',
      });
    }
    return ok({ object: 'login_link', created: nowSeconds(), url: `${base}/__express/${account.id}` });
  };

  const createTransfer = (params: Params): Answer => {
    const amount = amountParam(params);
    if (isAnswer(amount)) return amount;
    if (typeof params.currency !== 'string' || !params.currency) return missingParam('currency');
    if (typeof params.destination !== 'string') return missingParam('destination');
    const currency = params.currency.toLowerCase();
    const destination = accounts.get(params.destination);
    if (!destination) return noSuch('destination', params.destination, 'destination');
    if (destination.capabilities.transfers !== 'active') {
      return invalidRequest(
        'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
        { code: 'insufficient_capabilities_for_transfer', doc_url: docUrl('insufficient_capabilities_for_transfer') },
      );
    }
    let source: Charge | undefined;
    if (typeof params.source_transaction === 'string') {
      source = charges.get(params.source_transaction);
      if (!source || source.status !== 'succeeded') {
        return noSuch('charge', params.source_transaction, 'source_transaction');
      }
      if (source.currency !== currency) {
        return invalidRequest(
          `The currency of source_transaction's balance transaction (${source.currency}) must be the same as the transfer currency (${currency})`,
          { param: 'currency' },
        );
      }
      const transferred = [...transfers.values()]
        .filter((t) => t.source_transaction === source!.id)
        .reduce((sum, t) => sum + t.amount - t.amount_reversed, 0);
      const left = source.amount_captured - source.amount_refunded - transferred;
      if (amount > left) {
        return invalidRequest(
          `Transfer amount (${dollars(amount)}) is greater than what is left of the source transaction ${source.id} (${dollars(left)}).`,
          { param: 'amount' },
        );
      }
    } else if ((availableOf(null).get(currency) ?? 0) < amount) {
      // Funds already in the platform's balance pay a transfer; one with a source_transaction waits for its charge.
      return invalidRequest(
        'You have insufficient available funds in your Stripe account. Try adding funds directly to your available balance by creating Charges using the 4000000000000077 test card. See: https://stripe.com/docs/testing#available-balance',
        { code: 'balance_insufficient', doc_url: docUrl('balance_insufficient') },
      );
    }
    const id = randomId('tr');
    const paymentId = randomId('py');
    const outgoing = record(null, {
      amount: -amount,
      currency,
      type: 'transfer',
      reportingCategory: 'transfer',
      source: id,
      description: stringOr(params.description, null),
    });
    record(destination.id, { amount, currency, type: 'payment', reportingCategory: 'charge', source: paymentId });
    const transfer: Transfer = {
      id,
      object: 'transfer',
      amount,
      amount_reversed: 0,
      balance_transaction: outgoing.id,
      created: nowSeconds(),
      currency,
      description: stringOr(params.description, null),
      destination: destination.id,
      destination_payment: paymentId,
      livemode: false,
      metadata: mergedMetadata({}, params.metadata),
      reversals: { object: 'list', data: [], has_more: false, total_count: 0, url: `/v1/transfers/${id}/reversals` },
      reversed: false,
      source_transaction: source?.id ?? null,
      source_type: 'card',
      transfer_group: stringOr(params.transfer_group, null),
    };
    save('transfers', transfers, transfer);
    deliver('transfer.created', transfer);
    return ok(transfer);
  };

  const updateTransfer = (id: string, params: Params): Answer => {
    const transfer = transfers.get(id);
    if (!transfer) return missingResource('transfer', id, 'id');
    if (typeof params.description === 'string') transfer.description = params.description || null;
    transfer.metadata = mergedMetadata(transfer.metadata, params.metadata);
    save('transfers', transfers, transfer);
    return ok(transfer);
  };

  const createReversal = (transferId: string, params: Params): Answer => {
    const transfer = transfers.get(transferId);
    if (!transfer) return missingResource('transfer', transferId, 'id');
    const left = transfer.amount - transfer.amount_reversed;
    if (left <= 0) return invalidRequest(`Transfer ${transfer.id} has already been fully reversed.`);
    const amount = params.amount === undefined ? left : amountParam(params);
    if (isAnswer(amount)) return amount;
    if (amount > left) {
      return invalidRequest(
        `Reversal amount (${dollars(amount)}) is greater than unreversed amount on transfer (${dollars(left)})`,
        { param: 'amount' },
      );
    }
    // A separate-charges transfer can be reversed only while the destination still holds the money.
    if ((availableOf(transfer.destination).get(transfer.currency) ?? 0) < amount) {
      return invalidRequest(
        `The destination account ${transfer.destination} has insufficient available funds to cover this reversal of ${dollars(amount)}.`,
        { code: 'balance_insufficient', doc_url: docUrl('balance_insufficient') },
      );
    }
    const id = randomId('trr');
    const refundId = randomId('pyr');
    record(transfer.destination, {
      amount: -amount,
      currency: transfer.currency,
      type: 'payment_refund',
      reportingCategory: 'refund',
      source: refundId,
    });
    const incoming = record(null, {
      amount,
      currency: transfer.currency,
      type: 'transfer_refund',
      reportingCategory: 'transfer_reversal',
      source: id,
    });
    const reversal: TransferReversal = {
      id,
      object: 'transfer_reversal',
      amount,
      balance_transaction: incoming.id,
      created: nowSeconds(),
      currency: transfer.currency,
      destination_payment_refund: refundId,
      metadata: mergedMetadata({}, params.metadata),
      source_refund: null,
      transfer: transfer.id,
    };
    save('reversals', reversals, reversal);
    transfer.amount_reversed += amount;
    transfer.reversed = transfer.amount_reversed >= transfer.amount;
    transfer.reversals.data = [reversal, ...transfer.reversals.data].slice(0, LIST_LIMIT_DEFAULT);
    transfer.reversals.total_count += 1;
    transfer.reversals.has_more = transfer.reversals.total_count > transfer.reversals.data.length;
    save('transfers', transfers, transfer);
    deliver('transfer.reversed', transfer);
    return ok(reversal);
  };

  /**
   * What Stripe's payout schedule does (local-only `POST /__payouts`): each connected account with
   * payouts enabled (or the one named) is paid its available balance, per currency, to its bank
   * account. A failed payout returns the money to the balance.
   */
  const runPayouts = (body: string): Answer => {
    let input: { account?: unknown; fail?: unknown };
    try {
      input = JSON.parse(body || '{}');
    } catch {
      return invalidRequest('The payout run must be JSON: {"account"?: "acct_...", "fail"?: true}');
    }
    const named = typeof input.account === 'string' ? input.account : undefined;
    if (named && !accounts.has(named)) return noSuch('account', named, 'account');
    if (named && !accounts.get(named)!.payouts_enabled) {
      return invalidRequest(
        `Payouts are not enabled on ${named}: complete its onboarding first.`,
        { param: 'account' },
        409,
      );
    }
    const fail = input.fail === true;
    const made: Payout[] = [];
    for (const account of named ? [accounts.get(named)!] : [...accounts.values()]) {
      if (!account.payouts_enabled) continue;
      for (const [currency, available] of availableOf(account.id)) {
        if (available <= 0) continue;
        const payout = newPayout(account, available, currency);
        payout.balance_transaction = record(account.id, {
          amount: -available,
          currency,
          type: 'payout',
          reportingCategory: 'payout',
          source: payout.id,
          description: payout.description,
        }).id;
        savePayout({ account: account.id, payout });
        deliver('payout.created', payout, { account: account.id });
        if (fail) {
          Object.assign(payout, {
            status: 'failed',
            failure_code: 'account_closed',
            failure_message: 'The bank account has been closed.',
            failure_balance_transaction: record(account.id, {
              amount: available,
              currency,
              type: 'payout_failure',
              reportingCategory: 'payout_reversal',
              source: payout.id,
              description: 'Payout failure',
            }).id,
          });
        } else {
          Object.assign(payout, {
            status: 'paid',
            reconciliation_status: 'completed',
            trace_id: { status: 'supported', value: randomBytes(8).toString('hex').toUpperCase() },
          });
        }
        savePayout({ account: account.id, payout });
        deliver(fail ? 'payout.failed' : 'payout.paid', payout, { account: account.id });
        made.push(payout);
      }
    }
    return ok({ payouts: made });
  };

  // ---- expand[] -------------------------------------------------------------------------------

  /** Any object the fake holds, by its id, as `expand[]` replaces an id with. */
  const objectById = (id: string): unknown => {
    const prefix = id.slice(0, id.indexOf('_'));
    switch (prefix) {
      case 'pi':
        return intents.get(id);
      case 'pm':
        return paymentMethods.get(id);
      case 'cus':
        return customers.get(id);
      case 'ch':
        return charges.get(id);
      case 're':
        return refunds.get(id);
      case 'acct':
        return accounts.get(id);
      case 'tr':
        return transfers.get(id);
      case 'trr':
        return reversals.get(id);
      case 'po':
        return payouts.get(id)?.payout;
      case 'txn':
        return ledger.get(id)?.transaction;
      case 'ba':
        return [...accounts.values()].flatMap((a) => a.external_accounts.data).find((ba) => ba.id === id);
      default:
        return undefined;
    }
  };

  /** Replaces each id an `expand[]` path names with its object, as Stripe does (up to four levels). */
  const expanded = (body: unknown, paths: string[]): unknown | Answer => {
    const result = clone(body);
    const cannot = (path: string, hint = '') =>
      invalidRequest(`This property cannot be expanded (${path}).${hint}`, { param: 'expand' });
    const expandAt = (node: unknown, segments: string[], path: string): Answer | undefined => {
      if (node === null || node === undefined) return undefined;
      const object = node as Params;
      const [head, ...rest] = segments;
      if (object.object === 'list' && Array.isArray(object.data)) {
        if (head !== 'data') return cannot(path, ` You may want to try expanding 'data.${path}' instead.`);
        for (const item of object.data) {
          const refused = expandAt(item, rest, path);
          if (refused) return refused;
        }
        return undefined;
      }
      if (!head || !(head in object)) return cannot(path);
      const value = object[head];
      if (typeof value === 'string') {
        const found = objectById(value);
        if (found === undefined) return cannot(path);
        object[head] = clone(found);
      } else if (value !== null && (typeof value !== 'object' || !('object' in (value as Params)))) {
        return cannot(path);
      }
      return rest.length ? expandAt(object[head], rest, path) : undefined;
    };
    for (const path of paths) {
      const segments = path.split('.');
      if (segments.length > 4) return cannot(path, ' You can only expand up to 4 levels deep.');
      const refused = expandAt(result, segments, path);
      if (refused) return refused;
    }
    return result;
  };

  // ---- the API --------------------------------------------------------------------------------

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

  /** The platform's own account (GET /v1/account without a Stripe-Account header). */
  const platformAccount = (() => {
    const account = newAccount(
      { type: 'standard', email: 'platform@example.com', business_profile: { name: 'Local marketplace' } },
      'standard',
      controllers.standard,
    );
    return {
      ...account,
      id: 'acct_1LocalPlatform00',
      capabilities: { card_payments: 'active', transfers: 'active' },
      charges_enabled: true,
      details_submitted: true,
      payouts_enabled: true,
      requirements: requirementsDue([]),
    };
  })();

  interface ApiRequest {
    caller: Caller;
    params: Params;
    /** The connected account a `Stripe-Account` header names; null for the platform. */
    account: string | null;
    /** Where browsers reach the fake, for the pages its objects link to. */
    base: string;
  }
  interface Route {
    method: 'GET' | 'POST';
    path: RegExp;
    run: (request: ApiRequest, ids: string[]) => Answer;
    /** Stripe.js may call it with a publishable key. */
    publishable?: true;
    /** It may be called on a connected account (a Stripe-Account header). */
    connected?: true;
  }
  const found = <T>(value: T | undefined, missing: () => Answer): Answer => (value ? ok(value) : missing());

  const routes: Route[] = [
    { method: 'POST', path: /^\/v1\/customers$/, run: ({ params }) => createCustomer(params) },
    {
      method: 'GET',
      path: /^\/v1\/customers$/,
      run: ({ params }) =>
        listPage(
          newestFirst(customers),
          params,
          '/v1/customers',
          'customer',
          (c) => !params.email || c.email === params.email,
        ),
    },
    {
      method: 'GET',
      path: /^\/v1\/customers\/([^/]+)$/,
      run: (_, [id]) => found(customers.get(id!), () => missingResource('customer', id!, 'customer')),
    },
    { method: 'POST', path: /^\/v1\/customers\/([^/]+)$/, run: ({ params }, [id]) => updateCustomer(id!, params) },
    {
      method: 'GET',
      path: /^\/v1\/customers\/([^/]+)\/payment_methods$/,
      run: ({ params }, [id]) => customerPaymentMethods(id!, params, `/v1/customers/${id}/payment_methods`),
    },
    {
      method: 'GET',
      path: /^\/v1\/customers\/([^/]+)\/payment_methods\/([^/]+)$/,
      run: (_, [customer, id]) => {
        if (!customers.has(customer!)) return missingResource('customer', customer!, 'customer');
        const paymentMethod = paymentMethods.get(id!);
        return paymentMethod?.customer === customer
          ? ok(paymentMethod)
          : missingResource('PaymentMethod', id!, 'payment_method');
      },
    },
    {
      method: 'POST',
      path: /^\/v1\/payment_methods$/,
      run: ({ params }) => createPaymentMethod(params),
      publishable: true,
    },
    {
      method: 'GET',
      path: /^\/v1\/payment_methods$/,
      run: ({ params }) =>
        typeof params.customer === 'string'
          ? customerPaymentMethods(params.customer, params, '/v1/payment_methods')
          : ok({ object: 'list', data: [], has_more: false, url: '/v1/payment_methods' }),
    },
    {
      method: 'GET',
      path: /^\/v1\/payment_methods\/([^/]+)$/,
      run: (_, [id]) => {
        const paymentMethod = paymentMethodNamed(id!, 'payment_method');
        return isAnswer(paymentMethod) ? missingResource('PaymentMethod', id!, 'payment_method') : ok(paymentMethod);
      },
    },
    {
      method: 'POST',
      path: /^\/v1\/payment_methods\/([^/]+)\/attach$/,
      run: ({ params }, [id]) => attachPaymentMethod(id!, params),
    },
    { method: 'POST', path: /^\/v1\/payment_methods\/([^/]+)\/detach$/, run: (_, [id]) => detachPaymentMethod(id!) },
    { method: 'POST', path: /^\/v1\/payment_intents$/, run: ({ params, base }) => createIntent(params, base) },
    {
      method: 'GET',
      path: /^\/v1\/payment_intents\/([^/]+)$/,
      run: ({ caller, params }, [id]) => {
        const intent = intentFor(caller, id!, params);
        return isAnswer(intent) ? intent : ok(intent);
      },
      publishable: true,
    },
    { method: 'POST', path: /^\/v1\/payment_intents\/([^/]+)$/, run: ({ params }, [id]) => updateIntent(id!, params) },
    {
      method: 'POST',
      path: /^\/v1\/payment_intents\/([^/]+)\/confirm$/,
      run: ({ caller, params, base }, [id]) => confirmIntent(caller, id!, params, base),
      publishable: true,
    },
    {
      method: 'POST',
      path: /^\/v1\/payment_intents\/([^/]+)\/cancel$/,
      run: ({ params }, [id]) => cancelIntent(id!, params),
    },
    {
      method: 'GET',
      path: /^\/v1\/charges$/,
      run: ({ params }) =>
        listPage(
          newestFirst(charges),
          params,
          '/v1/charges',
          'charge',
          (c) =>
            (!params.payment_intent || c.payment_intent === params.payment_intent) &&
            (!params.customer || c.customer === params.customer),
        ),
    },
    {
      method: 'GET',
      path: /^\/v1\/charges\/([^/]+)$/,
      run: (_, [id]) => found(charges.get(id!), () => missingResource('charge', id!, 'charge')),
    },
    { method: 'POST', path: /^\/v1\/refunds$/, run: ({ params }) => createRefund(params) },
    {
      method: 'GET',
      path: /^\/v1\/refunds$/,
      run: ({ params }) =>
        listPage(
          newestFirst(refunds),
          params,
          '/v1/refunds',
          'refund',
          (r) =>
            (!params.payment_intent || r.payment_intent === params.payment_intent) &&
            (!params.charge || r.charge === params.charge),
        ),
    },
    {
      method: 'GET',
      path: /^\/v1\/refunds\/([^/]+)$/,
      run: (_, [id]) => found(refunds.get(id!), () => missingResource('refund', id!, 'id')),
    },
    { method: 'POST', path: /^\/v1\/accounts$/, run: ({ params }) => createAccount(params) },
    {
      method: 'GET',
      path: /^\/v1\/accounts$/,
      run: ({ params }) => listPage(newestFirst(accounts), params, '/v1/accounts', 'account'),
    },
    {
      method: 'GET',
      path: /^\/v1\/accounts\/([^/]+)$/,
      run: (_, [id]) => found(accounts.get(id!), () => noAccess(id!)),
    },
    { method: 'POST', path: /^\/v1\/accounts\/([^/]+)$/, run: ({ params }, [id]) => updateAccount(id!, params) },
    {
      method: 'POST',
      path: /^\/v1\/accounts\/([^/]+)\/login_links$/,
      run: ({ base }, [id]) => createLoginLink(id!, base),
    },
    {
      method: 'GET',
      path: /^\/v1\/account$/,
      run: ({ account }) => ok(account ? accounts.get(account) : platformAccount),
      connected: true,
    },
    { method: 'POST', path: /^\/v1\/account_links$/, run: ({ params, base }) => createAccountLink(params, base) },
    { method: 'POST', path: /^\/v1\/transfers$/, run: ({ params }) => createTransfer(params) },
    {
      method: 'GET',
      path: /^\/v1\/transfers$/,
      run: ({ params }) =>
        listPage(
          newestFirst(transfers),
          params,
          '/v1/transfers',
          'transfer',
          (t) =>
            (!params.destination || t.destination === params.destination) &&
            (!params.transfer_group || t.transfer_group === params.transfer_group),
        ),
    },
    {
      method: 'GET',
      path: /^\/v1\/transfers\/([^/]+)$/,
      run: (_, [id]) => found(transfers.get(id!), () => missingResource('transfer', id!, 'id')),
    },
    { method: 'POST', path: /^\/v1\/transfers\/([^/]+)$/, run: ({ params }, [id]) => updateTransfer(id!, params) },
    {
      method: 'POST',
      path: /^\/v1\/transfers\/([^/]+)\/reversals$/,
      run: ({ params }, [id]) => createReversal(id!, params),
    },
    {
      method: 'GET',
      path: /^\/v1\/transfers\/([^/]+)\/reversals$/,
      run: ({ params }, [id]) =>
        transfers.has(id!)
          ? listPage(
              newestFirst(reversals),
              params,
              `/v1/transfers/${id}/reversals`,
              'transfer_reversal',
              (r) => r.transfer === id,
            )
          : missingResource('transfer', id!, 'id'),
    },
    {
      method: 'GET',
      path: /^\/v1\/transfers\/([^/]+)\/reversals\/([^/]+)$/,
      run: (_, [transfer, id]) => {
        const reversal = reversals.get(id!);
        return reversal?.transfer === transfer ? ok(reversal) : missingResource('transfer_reversal', id!, 'id');
      },
    },
    { method: 'GET', path: /^\/v1\/balance$/, run: ({ account }) => ok(balanceOf(account)), connected: true },
    {
      method: 'GET',
      path: /^\/v1\/balance_transactions$/,
      run: ({ params, account }) =>
        listPage(
          newestFirst(ledger)
            .filter((entry) => entry.account === account)
            .map((entry) => entry.transaction),
          params,
          '/v1/balance_transactions',
          'balance_transaction',
          (t) =>
            (!params.type || t.type === params.type) &&
            (!params.source || t.source === params.source) &&
            (!params.currency || t.currency === params.currency),
        ),
      connected: true,
    },
    {
      method: 'GET',
      path: /^\/v1\/balance_transactions\/([^/]+)$/,
      run: ({ account }, [id]) => {
        const entry = ledger.get(id!);
        return entry && entry.account === account
          ? ok(entry.transaction)
          : missingResource('balance transaction', id!, 'id');
      },
      connected: true,
    },
    {
      method: 'GET',
      path: /^\/v1\/payouts$/,
      run: ({ params, account }) =>
        listPage(
          newestFirst(payouts)
            .filter((entry) => entry.account === account)
            .map((entry) => entry.payout),
          params,
          '/v1/payouts',
          'payout',
          (p) =>
            (!params.status || p.status === params.status) &&
            (!params.destination || p.destination === params.destination),
        ),
      connected: true,
    },
    {
      method: 'GET',
      path: /^\/v1\/payouts\/([^/]+)$/,
      run: ({ account }, [id]) => {
        const entry = payouts.get(id!);
        return entry && entry.account === account ? ok(entry.payout) : missingResource('payout', id!, 'payout');
      },
      connected: true,
    },
  ];

  const route = (method: string, path: string, request: ApiRequest): Answer => {
    for (const candidate of routes) {
      const match = candidate.path.exec(path);
      if (!match || candidate.method !== method) continue;
      if (request.caller.kind === 'publishable' && !candidate.publishable) return secretOnly;
      if (request.account && !candidate.connected) {
        return invalidRequest(
          `The local Stripe fake serves only the balance, balance transactions, payouts and the account itself on a connected account (Stripe-Account: ${request.account}), not ${method} ${path}.`,
        );
      }
      const answer = candidate.run(
        request,
        match.slice(1).map((id) => decodeURIComponent(id)),
      );
      const expand = request.params.expand;
      const paths = Array.isArray(expand) ? expand.map(String) : typeof expand === 'string' ? [expand] : [];
      if (answer.status !== 200 || paths.length === 0) return answer;
      const body = expanded(answer.body, paths);
      return isAnswer(body) ? body : ok(body);
    }
    return invalidRequest(
      `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
      {},
      404,
    );
  };

  // ---- pages a browser is sent to -------------------------------------------------------------

  interface Page {
    status: number;
    html?: string;
    location?: string;
  }
  const page = (status: number, title: string, body: string, head = ''): Page => ({
    status,
    html: htmlPage(title, body, head),
  });
  const money = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;
  const brandName = (brand: string) =>
    ({ visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express' })[brand] ?? brand;

  /** The 3155 card's challenge, as the issuer's 3D Secure page would show it. */
  const authenticationPage = (method: string, id: string, form: URLSearchParams, base: string): Page => {
    const intent = intents.get(id);
    if (!intent)
      return page(404, 'Payment not found', `<p>No payment ${escapeHtml(id)} is waiting for authentication.</p>`);
    const next = intent.next_action as { redirect_to_url?: { return_url: string | null } } | null;
    const returnUrl = next?.redirect_to_url?.return_url ?? null;
    if (intent.status !== 'requires_action') {
      return page(
        method === 'POST' ? 409 : 200,
        'Nothing to authenticate',
        `<p>This payment is no longer waiting for authentication (its status is ${escapeHtml(intent.status)}).</p>`,
      );
    }
    if (method === 'POST') {
      const outcome = form.get('outcome');
      if (outcome !== 'complete' && outcome !== 'fail') {
        return page(400, 'Choose an outcome', '<p>Choose "Complete authentication" or "Fail authentication".</p>');
      }
      settleAuthentication(intent, outcome === 'complete', base);
      if (!returnUrl) {
        return page(
          200,
          outcome === 'complete' ? 'Authentication complete' : 'Authentication failed',
          '<p>You can close this window.</p>',
        );
      }
      const target = new URL(returnUrl);
      target.searchParams.set('payment_intent', intent.id);
      target.searchParams.set('payment_intent_client_secret', intent.client_secret);
      target.searchParams.set('redirect_status', outcome === 'complete' ? 'succeeded' : 'failed');
      return { status: 303, location: target.href };
    }
    const card = paymentMethods.get(intent.payment_method ?? '')?.card;
    return page(
      200,
      'Authenticate your payment',
      `<p class="note">This page stands in for the card issuer's 3D Secure challenge in test mode.</p>
<dl>
<dt>Amount</dt><dd>${escapeHtml(money(intent.amount, intent.currency))}</dd>
${card ? `<dt>Card</dt><dd>${escapeHtml(brandName(card.brand))} ending in ${escapeHtml(card.last4)}</dd>` : ''}
</dl>
<form method="post" action="/__authenticate/${encodeURIComponent(intent.id)}">
<fieldset>
<legend>Test authentication</legend>
<button type="submit" name="outcome" value="complete">Complete authentication</button>
<button type="submit" name="outcome" value="fail">Fail authentication</button>
</fieldset>
</form>`,
    );
  };

  const expiredLink = (link: AccountLinkRecord): Page =>
    page(
      200,
      'This link has expired',
      `<p>Onboarding links work once, and only for a few minutes. You are being taken back to get a new one.</p>
<p><a href="${escapeHtml(link.refresh_url)}">Continue</a></p>`,
      `<meta http-equiv="refresh" content="2;url=${escapeHtml(link.refresh_url)}">`,
    );

  /** An Account Link's onboarding, with the three ways a person can leave it. */
  const onboardingPage = (method: string, id: string, form: URLSearchParams): Page => {
    const link = accountLinks.get(id);
    if (!link) return page(404, 'This link is not valid', '<p>No onboarding link has this address.</p>');
    const account = accounts.get(link.account)!;
    if (method === 'POST') {
      const session = form.get('session');
      if (link.state !== 'opened' || !session || session !== link.session) return expiredLink(link);
      const choice = form.get('choice');
      if (choice !== 'complete' && choice !== 'incomplete' && choice !== 'later') {
        return page(400, 'Choose how onboarding ends', '<p>Choose one of the three buttons.</p>');
      }
      saveLink({ ...link, state: 'used', session: null });
      if (choice === 'later') return { status: 303, location: link.refresh_url };
      finishOnboarding(account, choice);
      return { status: 303, location: link.return_url };
    }
    if (link.state !== 'new' || nowSeconds() > link.expires_at) return expiredLink(link);
    // Like Stripe's, a link opens once: its form may post, a second visit finds it expired.
    const session = randomBytes(16).toString('hex');
    saveLink({ ...link, state: 'opened', session });
    const who = account.email ? `${escapeHtml(account.email)} (${escapeHtml(account.id)})` : escapeHtml(account.id);
    return page(
      200,
      'Set up payouts',
      `<p class="note">This page stands in for Stripe's hosted onboarding in test mode, for the connected account ${who}.</p>
<form method="post" action="/__onboarding/${encodeURIComponent(link.id)}">
<input type="hidden" name="session" value="${session}">
<fieldset>
<legend>How does this onboarding end?</legend>
<p><button type="submit" name="choice" value="complete" aria-describedby="complete-note">Complete onboarding</button><br>
<span id="complete-note" class="note">Every detail and a bank account given: charges, payouts and transfers are enabled.</span></p>
<p><button type="submit" name="choice" value="incomplete" aria-describedby="incomplete-note">Leave incomplete</button><br>
<span id="incomplete-note" class="note">Details submitted, but a requirement is still due: payouts and transfers stay disabled.</span></p>
<p><button type="submit" name="choice" value="later" aria-describedby="later-note">Come back later</button><br>
<span id="later-note" class="note">Nothing changes; you go back to ask for a new link.</span></p>
</fieldset>
</form>`,
    );
  };

  /** A login link's Express dashboard: the account's balance and payouts. */
  const expressPage = (id: string): Page => {
    const account = accounts.get(id);
    if (!account) return page(404, 'Account not found', `<p>No connected account ${escapeHtml(id)}.</p>`);
    const balance = balanceOf(account.id);
    const rows = newestFirst(payouts)
      .filter((entry) => entry.account === account.id)
      .map(
        ({ payout }) =>
          `<tr><td>${new Date(payout.created * 1000).toISOString().slice(0, 10)}</td><td>${escapeHtml(money(payout.amount, payout.currency))}</td><td>${escapeHtml(payout.status)}</td></tr>`,
      )
      .join('\n');
    return page(
      200,
      'Your payouts',
      `<p class="note">This page stands in for the Stripe Express dashboard of ${escapeHtml(account.email ?? account.id)}.</p>
<h2>Balance</h2>
<ul>${balance.available.map((b) => `<li>${escapeHtml(money(b.amount, b.currency))} available</li>`).join('')}</ul>
<h2>Payouts</h2>
${rows ? `<table><caption>Payouts, newest first</caption><thead><tr><th scope="col">Date</th><th scope="col">Amount</th><th scope="col">Status</th></tr></thead><tbody>${rows}</tbody></table>` : '<p>No payouts yet.</p>'}`,
    );
  };

  const receiptPage = (id: string): Page => {
    const charge = charges.get(id);
    if (!charge || charge.status !== 'succeeded') {
      return page(404, 'Receipt not found', `<p>No receipt for ${escapeHtml(id)}.</p>`);
    }
    const card = charge.payment_method_details.card;
    return page(
      200,
      'Receipt',
      `<dl>
<dt>Amount paid</dt><dd>${escapeHtml(money(charge.amount, charge.currency))}</dd>
<dt>Date paid</dt><dd>${new Date(charge.created * 1000).toISOString().slice(0, 10)}</dd>
<dt>Payment method</dt><dd>${escapeHtml(brandName(card.brand))} ending in ${escapeHtml(card.last4)}</dd>
${charge.description ? `<dt>Description</dt><dd>${escapeHtml(charge.description)}</dd>` : ''}
${charge.amount_refunded ? `<dt>Refunded</dt><dd>${escapeHtml(money(charge.amount_refunded, charge.currency))}</dd>` : ''}
</dl>`,
    );
  };

  const pageFor = (method: string, path: string, form: URLSearchParams, base: string): Page | undefined => {
    const [, kind, rawId] = /^\/__(authenticate|onboarding|express|receipts)\/([^/]+)$/.exec(path) ?? [];
    if (!kind || !rawId) return undefined;
    const id = decodeURIComponent(rawId);
    const posts = kind === 'authenticate' || kind === 'onboarding';
    if (method !== 'GET' && !(posts && method === 'POST')) {
      return page(405, 'Not allowed', `<p>${escapeHtml(method)} is not served here.</p>`);
    }
    if (kind === 'authenticate') return authenticationPage(method, id, form, base);
    if (kind === 'onboarding') return onboardingPage(method, id, form);
    if (kind === 'express') return expressPage(id);
    return receiptPage(id);
  };

  // ---- the server -----------------------------------------------------------------------------

  const cors = {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
    'access-control-allow-headers': 'authorization, content-type, idempotency-key, stripe-version, stripe-account',
    'access-control-expose-headers': 'request-id, idempotency-key, idempotent-replayed',
    'access-control-max-age': '600',
  };

  /** On disk before the answer leaves: a caller told "done" finds it done after any restart. */
  const committed = (): boolean => {
    try {
      store.commit();
      return true;
    } catch (error) {
      log(`stripe fake: could not save its state: ${(error as Error).message}`);
      return false;
    }
  };

  const baseOf = (req: http.IncomingMessage) => {
    const host = req.headers.host;
    return host && /^[\w.-]+(:\d+)?$/.test(host) ? `http://${host}` : `http://127.0.0.1:${listeningPort}`;
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
      const text = Buffer.concat(chunks).toString('utf8');
      const sendJson = (answer: Answer) => {
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer.body));
      };
      if (url.pathname === '/__faults') {
        sendJson(controlFaults(method, text));
        return;
      }
      if (url.pathname === '/__restart') {
        if (method === 'POST') readState();
        res.writeHead(method === 'POST' ? 200 : 405, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ restarted: method === 'POST', paymentIntents: intents.size }));
        return;
      }
      if (url.pathname === '/__payouts') {
        const answer =
          method === 'POST' ? runPayouts(text) : invalidRequest(`${method} /__payouts is not served`, {}, 405);
        sendJson(committed() ? answer : injectedError(500));
        return;
      }
      const shown = pageFor(method, url.pathname, new URLSearchParams(text), baseOf(req));
      if (shown) {
        if (!committed()) {
          sendJson(injectedError(500));
          return;
        }
        res.writeHead(shown.status, {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
          ...(shown.location ? { location: shown.location } : {}),
        });
        res.end(shown.html ?? '');
        return;
      }
      const params = { ...parseStripeForm(url.search.slice(1)), ...parseStripeForm(text) };
      const connected = req.headers['stripe-account']?.toString();
      const headerKey = method === 'POST' ? req.headers['idempotency-key']?.toString() : undefined;
      // Stripe keeps idempotency keys per account: the same key on a connected account is another request.
      const idempotencyKey = headerKey && connected ? `${connected}:${headerKey}` : headerKey;
      const paramsDigest = createHash('sha256').update(JSON.stringify(params)).digest('hex');
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
          `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${replay.route}' vs '${routeName}'). Try using a key other than '${headerKey}' if you meant to execute a different request.`,
          { type: 'idempotency_error' },
        );
      } else if (replay?.params && replay.params !== paramsDigest) {
        answer = invalidRequest(
          `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${headerKey}' if you meant to execute a different request.`,
          { type: 'idempotency_error' },
        );
      } else if (replay) {
        answer = replay.answer;
      } else {
        answer =
          connected && !accounts.has(connected)
            ? noAccess(connected)
            : route(method, url.pathname, { caller, params, account: connected ?? null, base: baseOf(req) });
        // Stripe keeps the first result of a key, a declined card included, and replays it.
        if (idempotencyKey) {
          const kept = { route: routeName, answer: clone(answer), createdAt: Date.now(), params: paramsDigest };
          idempotent.set(idempotencyKey, kept);
          store.put('idempotent', idempotencyKey, kept);
        }
        if (!committed()) answer = injectedError(500);
      }
      // "after": the request ran (and its result is kept under its key), but its answer is lost.
      if (fault?.when === 'after') answer = faultyAnswer(fault, url.pathname);
      const replayed = !!replay && !fault && answer === replay.answer;
      seen.push({
        method,
        path: url.pathname,
        ...(headerKey ? { idempotencyKey: headerKey } : {}),
        status: answer.status,
        replayed,
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
        ...(headerKey ? { 'idempotency-key': headerKey } : {}),
        ...(replayed ? { 'idempotent-replayed': 'true' } : {}),
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
  const address = server.address();
  if (address && typeof address === 'object') listeningPort = address.port;
  const kept = stateDir ? `state kept in ${stateDir}` : 'state in memory: a restart forgets every payment';
  const connect = connectEndpoint ? `, Connect webhooks to ${connectEndpoint.url}` : '';
  log(`Stripe fake on http://127.0.0.1:${listeningPort} (${kept}), webhooks to ${webhookUrl}${connect}`);
  return server;
};
