import type { CardConfirmation, CardProviderError } from './payment-flow';
import { paymentIntentIdOf } from './payment-flow';

/** Stripe's test cards, mapped to the test payment methods Stripe.js would create for them. */
export const testCardPaymentMethods: Record<string, string> = {
  '4242424242424242': 'pm_card_visa',
  '4000000000000002': 'pm_card_chargeDeclined',
  // Asks for authentication on the bank's page.
  '4000002500003155': 'pm_card_authenticationRequired',
  // Saved fine, declined on every charge.
  '4000000000000341': 'pm_card_chargeCustomerFail',
};

export interface TestCardDetails {
  cardNumber: string;
  expiry: string;
  cvc: string;
}

const digitsOf = (value: string) => value.replace(/\D/g, '');

/** Stripe's own wording for incomplete or wrong card details. */
export function checkTestCard(
  { cardNumber, expiry, cvc }: TestCardDetails,
  now = new Date(),
): CardProviderError | null {
  const number = digitsOf(cardNumber);
  if (number.length < 16) return { message: 'Your card number is incomplete.' };
  if (!testCardPaymentMethods[number]) return { message: 'Your card number is invalid.' };
  const expiryDigits = digitsOf(expiry);
  if (expiryDigits.length !== 4) return { message: "Your card's expiration date is incomplete." };
  const month = Number(expiryDigits.slice(0, 2));
  const year = 2000 + Number(expiryDigits.slice(2));
  if (month < 1 || month > 12) return { message: "Your card's expiration date is invalid." };
  if (year < now.getFullYear() || (year === now.getFullYear() && month < now.getMonth() + 1)) {
    return { message: "Your card's expiration date is in the past." };
  }
  if (!/^\d{3,4}$/.test(cvc.trim())) return { message: "Your card's security code is incomplete." };
  return null;
}

/** Groups typed digits in fours, as card numbers are printed. */
export const formatCardNumber = (value: string) =>
  digitsOf(value)
    .slice(0, 16)
    .replace(/(\d{4})(?=\d)/g, '$1 ');

/** 'MMYY' typed as digits reads 'MM / YY'. */
export const formatExpiry = (value: string) => {
  const digits = digitsOf(value).slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
};

export const localStripeSettings = () => ({
  url: import.meta.env.VITE_LOCAL_STRIPE_URL,
  publishableKey: import.meta.env.VITE_LOCAL_STRIPE_PUBLISHABLE_KEY ?? '',
});

/**
 * Confirms a PaymentIntent against the local Stripe fake the way Stripe.js does: a form-encoded
 * POST with the payment method, the client secret, the publishable key and the return URL. A
 * declined card answers 402 with Stripe's card_error body; a card that asks for authentication
 * answers requires_action with the bank's page to send the browser to.
 */
export async function confirmWithLocalStripe(
  clientSecret: string,
  card: TestCardDetails,
  { url, publishableKey, returnUrl }: { url: string; publishableKey: string; returnUrl: string },
): Promise<CardConfirmation> {
  const body = new URLSearchParams({
    payment_method: testCardPaymentMethods[digitsOf(card.cardNumber)] ?? '',
    client_secret: clientSecret,
    key: publishableKey,
    return_url: returnUrl,
  });
  const response = await fetch(`${url}/v1/payment_intents/${paymentIntentIdOf(clientSecret)}/confirm`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body,
  });
  const answer = (await response.json().catch(() => ({}))) as {
    error?: { message?: string };
    id?: string;
    status?: string;
    next_action?: { redirect_to_url?: { url?: string } } | null;
  };
  if (!response.ok || answer.error) return { error: { message: answer.error?.message } };
  // As Stripe.js follows a redirect next action: the bank's page, then back to return_url.
  const redirectTo = answer.status === 'requires_action' ? answer.next_action?.redirect_to_url?.url : undefined;
  if (redirectTo) return { redirectTo };
  return { paymentIntent: { id: answer.id ?? paymentIntentIdOf(clientSecret), status: answer.status ?? 'unknown' } };
}
