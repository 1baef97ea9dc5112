import type { OrderDetailView } from '@marketplace/events/orders';
import { apiPost } from '../../lib/api-client';

/** What a card form reports back, in the shape Stripe.js answers `elements.submit()` and `confirmPayment()`. */
export interface CardProviderError {
  message?: string;
}
export interface CardConfirmation {
  error?: CardProviderError;
  paymentIntent?: { id: string; status: string };
}

/**
 * The one thing the payment step needs from a card form (Stripe's Payment Element or the local
 * test-card form): whether it is ready, a check of what was typed, and the confirmation itself.
 */
export interface CardSubmitter {
  isReady: () => boolean;
  validate: () => Promise<{ error?: CardProviderError }>;
  confirm: (clientSecret: string) => Promise<CardConfirmation>;
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
}: {
  orderId: string;
  clientSecret: string;
  submitter: CardSubmitter | null;
}): Promise<OrderDetailView> {
  if (!submitter?.isReady()) throw new PaymentStopped(paymentMessages.notReady);
  let confirmation: CardConfirmation;
  try {
    const validation = await submitter.validate();
    if (validation.error) throw new PaymentStopped(validation.error.message || paymentMessages.incompleteDetails);
    confirmation = await submitter.confirm(clientSecret);
  } catch (error) {
    if (error instanceof PaymentStopped) throw error;
    throw new PaymentStopped(paymentMessages.unexpected(error instanceof Error ? error.message : String(error)));
  }
  if (confirmation.error) throw new PaymentStopped(confirmation.error.message || paymentMessages.failed);
  if (confirmation.paymentIntent?.status !== 'succeeded') throw new PaymentStopped(paymentMessages.notCompleted);
  try {
    return await apiPost<OrderDetailView>(`/api/orders/${orderId}/payment-success`, {
      paymentIntentId: paymentIntentIdOf(clientSecret),
    });
  } catch {
    throw new PaymentStopped(paymentMessages.orderUpdateFailed);
  }
}
