import * as z from './zod';

/**
 * Saved cards and one-click payment, as the browser and the API both see them. A card is saved
 * to the photographer's Stripe Customer by a payment made with 'Save this card for next time';
 * the server alone decides the customer, the amount and whether a saved card is the caller's.
 */

/** `{paymentMethodId}` in a route: Stripe's `pm_...` ids only, so junk never reaches Stripe. */
export const paymentMethodId = /* @__PURE__ */ z.schema(() =>
  z.string().check(z.regex(/^pm_[0-9A-Za-z]{1,100}$/, 'Not a saved card id')),
);

export const paymentMethodParams = /* @__PURE__ */ z.schema(() => z.object({ paymentMethodId }));

/** POST /api/orders/{id}/payment/save-card: whether the card about to be confirmed is saved. */
export const saveCardInput = /* @__PURE__ */ z.schema(() =>
  z.object({
    saveCard: z.boolean({ error: 'saveCard must be true or false' }),
  }),
);
export type SaveCardInput = z.infer<typeof saveCardInput>;

/** Where Stripe sends the browser back after a card's authentication: the order's own payment page. */
export const orderPaymentPath = (orderId: string) => `/orders/${orderId}/payment`;

const RETURN_URL_MAX = 2000;

/**
 * POST /api/orders/{id}/payment/saved-card: pay with a saved card in one click. `returnUrl` is
 * where the browser comes back after an authentication step; the route accepts only the order's
 * own payment page (checked there, since the path names the order).
 */
export const savedCardPaymentInput = /* @__PURE__ */ z.schema(() =>
  z.object({
    paymentMethodId,
    returnUrl: z
      .url({ protocol: /^https?$/, error: 'returnUrl must be an http or https address' })
      .check(z.maxLength(RETURN_URL_MAX)),
  }),
);
export type SavedCardPaymentInput = z.infer<typeof savedCardPaymentInput>;

/** One saved card as the payment stage and /profile show it: brand and last four come from Stripe. */
export interface SavedCardView {
  id: string;
  /** Stripe's brand: 'visa', 'mastercard', 'amex', ... */
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  isDefault: boolean;
}

/** GET /api/payment-methods: the caller's saved cards, the default first. */
export interface PaymentMethodsView {
  cards: SavedCardView[];
}

/** What a one-click payment came to: paid, or an authentication step the browser is sent to. */
export type SavedCardPaymentResult =
  | { status: 'paid'; orderId: string }
  | { status: 'requires_action'; redirectUrl: string };

const brandNames: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
};

/** 'visa' -> 'Visa'; a brand we do not know is shown as Stripe names it, capitalised. */
export const cardBrandName = (brand: string | null | undefined) => {
  if (!brand) return 'Card';
  return brandNames[brand] ?? brand.charAt(0).toUpperCase() + brand.slice(1);
};

/** 'Visa •••• 4242' */
export const cardLabel = (card: { brand?: string | null; last4?: string | null }) =>
  card.last4 ? `${cardBrandName(card.brand)} •••• ${card.last4}` : cardBrandName(card.brand);

/** The words the payment stage and /profile show; the server answers the same ones. */
export const savedCardMessages = {
  declined: 'Your card was declined. Please use another card.',
  authenticationFailed:
    'Your card could not be authenticated, so nothing was charged. Please try again or use another card.',
  notFound: 'This saved card was not found. Please choose another card.',
  wrongReturnUrl: "returnUrl must be this order's payment page",
  paymentCompleted: 'Payment completed successfully!',
  removed: 'Card removed',
  madeDefault: 'Default card updated',
} as const;
