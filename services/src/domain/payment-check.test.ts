import { describe, expect, it } from 'vitest';
import { paymentProblem } from './payment-check';

const order = { orderId: 'order-1', totalAmountCents: 1600, stripePaymentIntentId: 'pi_1' };
const paid = { id: 'pi_1', status: 'succeeded', amount: 1600, currency: 'usd', metadata: { orderId: 'order-1' } };

describe('checking a card payment against its order', () => {
  it('accepts a succeeded payment of the order total in dollars for this order', () => {
    expect(paymentProblem(paid, order)).toBeNull();
  });

  it('refuses a payment that has not succeeded, naming its state', () => {
    expect(paymentProblem({ ...paid, status: 'requires_payment_method' }, order)).toEqual({
      kind: 'not-succeeded',
      message: 'Payment was not completed: the card payment is requires payment method',
    });
  });

  it('refuses a payment made for another order or another intent', () => {
    expect(paymentProblem({ ...paid, metadata: { orderId: 'order-2' } }, order)?.kind).toBe('other-order');
    expect(paymentProblem({ ...paid, metadata: null }, order)?.kind).toBe('other-order');
    expect(paymentProblem({ ...paid, id: 'pi_2' }, order)?.kind).toBe('other-order');
  });

  it('refuses a payment of a different amount or currency', () => {
    expect(paymentProblem({ ...paid, amount: 1 }, order)?.kind).toBe('wrong-amount');
    expect(paymentProblem({ ...paid, currency: 'eur' }, order)?.kind).toBe('wrong-amount');
  });
});
