import type { OrderDetailView } from '@marketplace/events/orders';
import { orderPaymentPath, type SavedCardPaymentResult, savedCardMessages } from '@marketplace/events/payments';
import { ApiError, apiPost } from '../../lib/api-client';

/** What a card form reports back, in the shape Stripe.js answers `elements.submit()` and `confirmPayment()`. */
export interface CardProviderError {
  message?: string;
}
export interface CardConfirmation {
  error?: CardProviderError;
  paymentIntent?: { id: string; status: string };
  /** The card asks for authentication on its bank's page: where Stripe sends the browser. */
  redirectTo?: string;
}

/**
 * The one thing the payment step needs from a card form (Stripe's Payment Element or the local
 * test-card form): whether it is ready, a check of what was typed, and the confirmation itself.
 */
export interface CardSubmitter {
  isReady: () => boolean;
  validate: () => Promise<{ error?: CardProviderError }>;
  /** `returnUrl`: where the browser comes back after an authentication step on the bank's page. */
  confirm: (clientSecret: string, options: { returnUrl: string }) => Promise<CardConfirmation>;
}

export const paymentMessages = {
  notReady: 'Payment form is not ready yet. Please wait a moment and try again.',
  incompleteDetails: 'Please complete your payment details.',
  failed: 'Payment failed',
  notCompleted: 'Payment was not completed',
  orderUpdateFailed: 'Payment completed but order update failed. Please contact support.',
  unexpected: (message: string) => `Payment failed: ${message}`,
} as const;

/** A payment that stopped, carrying the exact words to show. */
export class PaymentStopped extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PaymentStopped';
  }
}

/**
 * The browser leaves for the bank's authentication page, as Stripe.js does for a redirect: the
 * order's payment page takes over when it comes back. A module object, so tests can watch it.
 */
export const browserNavigation = {
  leaveFor: (url: string) => window.location.assign(url),
};

/** Where the bank sends the browser back after authentication: the order's payment page, on this site. */
export const paymentReturnUrl = (orderId: string) => `${window.location.origin}${orderPaymentPath(orderId)}`;

/** Resolves never: the page is going away. */
const leavingForAuthentication = (url: string, onLeaving?: () => void) => {
  onLeaving?.();
  browserNavigation.leaveFor(url);
  return new Promise<never>(() => {});
};

/** The PaymentIntent id is the client secret's part before `_secret_`. */
export const paymentIntentIdOf = (clientSecret: string) => clientSecret.split('_secret_')[0] ?? clientSecret;

/**
 * Spec section 4 'Payment': the form must be ready, the details are validated, then confirmed;
 * only a succeeded intent tells the server. Throws PaymentStopped with the spec's message.
 */
export async function payForOrder({
  orderId,
  clientSecret,
  submitter,
  saveCard,
  onLeaving,
}: {
  orderId: string;
  clientSecret: string;
  submitter: CardSubmitter | null;
  /**
   * 'Save this card for next time': true or false tells the server before the card is confirmed
   * (it puts the customer on the payment, or takes the saving off again); undefined says nothing.
   */
  saveCard?: boolean;
  /** Called just before the browser leaves for the bank's authentication page. */
  onLeaving?: () => void;
}): Promise<OrderDetailView> {
  if (!submitter?.isReady()) throw new PaymentStopped(paymentMessages.notReady);
  let confirmation: CardConfirmation;
  try {
    const validation = await submitter.validate();
    if (validation.error) throw new PaymentStopped(validation.error.message || paymentMessages.incompleteDetails);
    if (saveCard !== undefined) await apiPost(`/api/orders/${orderId}/payment/save-card`, { saveCard });
    confirmation = await submitter.confirm(clientSecret, { returnUrl: paymentReturnUrl(orderId) });
  } catch (error) {
    if (error instanceof PaymentStopped) throw error;
    if (error instanceof ApiError && error.serverMessage) throw new PaymentStopped(error.serverMessage);
    throw new PaymentStopped(paymentMessages.unexpected(error instanceof Error ? error.message : String(error)));
  }
  if (confirmation.error) throw new PaymentStopped(confirmation.error.message || paymentMessages.failed);
  if (confirmation.redirectTo) return leavingForAuthentication(confirmation.redirectTo, onLeaving);
  if (confirmation.paymentIntent?.status !== 'succeeded') throw new PaymentStopped(paymentMessages.notCompleted);
  try {
    return await apiPost<OrderDetailView>(`/api/orders/${orderId}/payment-success`, {
      paymentIntentId: paymentIntentIdOf(clientSecret),
    });
  } catch {
    throw new PaymentStopped(paymentMessages.orderUpdateFailed);
  }
}

/** A saved card the server would not charge: the words to show, and whether another card is the way on. */
export class SavedCardRefused extends PaymentStopped {
  constructor(
    message: string,
    readonly useAnotherCard: boolean,
  ) {
    super(message);
    this.name = 'SavedCardRefused';
  }
}

/**
 * 'Pay $X with Visa •••• 4242': the server confirms the order's payment with the saved card. Paid,
 * or the browser goes to the bank's authentication page (and comes back to the order's payment
 * page). A declined or unknown card throws SavedCardRefused, to offer another card.
 */
export async function payWithSavedCard({
  orderId,
  paymentMethodId,
  onLeaving,
}: {
  orderId: string;
  paymentMethodId: string;
  onLeaving?: () => void;
}): Promise<void> {
  let result: SavedCardPaymentResult;
  try {
    result = await apiPost<SavedCardPaymentResult>(`/api/orders/${orderId}/payment/saved-card`, {
      paymentMethodId,
      returnUrl: paymentReturnUrl(orderId),
    });
  } catch (error) {
    if (error instanceof ApiError && (error.status === 422 || error.status === 404)) {
      throw new SavedCardRefused(
        error.serverMessage ?? (error.status === 404 ? savedCardMessages.notFound : savedCardMessages.declined),
        true,
      );
    }
    if (error instanceof ApiError && error.serverMessage) throw new PaymentStopped(error.serverMessage);
    throw new PaymentStopped(paymentMessages.unexpected(error instanceof Error ? error.message : String(error)));
  }
  if (result.status === 'requires_action') await leavingForAuthentication(result.redirectUrl, onLeaving);
}
