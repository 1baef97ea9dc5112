/**
 * Whether a card payment pays for an order. The browser's word and the webhook's arrival prove
 * nothing on their own: the payment intent itself must have succeeded, for this order, for the
 * order's whole total, in US dollars.
 */
export interface PaymentFacts {
  id: string;
  status: string;
  amount: number;
  currency: string;
  metadata?: Record<string, string> | null;
}

export interface OrderToPay {
  orderId: string;
  totalAmountCents: number;
  stripePaymentIntentId?: string;
}

export const ORDER_CURRENCY = 'usd';

export type PaymentProblem =
  | { kind: 'other-order'; message: string }
  | { kind: 'not-succeeded'; message: string }
  | { kind: 'wrong-amount'; message: string };

/** The reason this payment does not pay this order, or null when it does. */
export const paymentProblem = (payment: PaymentFacts, order: OrderToPay): PaymentProblem | null => {
  if (payment.id !== order.stripePaymentIntentId || payment.metadata?.orderId !== order.orderId) {
    return { kind: 'other-order', message: 'This payment does not belong to this order' };
  }
  if (payment.status !== 'succeeded') {
    return {
      kind: 'not-succeeded',
      message: `Payment was not completed: the card payment is ${payment.status.replaceAll('_', ' ')}`,
    };
  }
  if (payment.currency.toLowerCase() !== ORDER_CURRENCY || payment.amount !== order.totalAmountCents) {
    return { kind: 'wrong-amount', message: 'The payment does not match the order total' };
  }
  return null;
};
