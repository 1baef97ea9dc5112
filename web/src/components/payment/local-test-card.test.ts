import { describe, expect, it } from 'vitest';
import { checkTestCard, formatCardNumber, formatExpiry } from './local-test-card';
import { paymentIntentIdOf } from './payment-flow';

const november2026 = new Date(2026, 10, 21);
const card = (fields: Partial<{ cardNumber: string; expiry: string; cvc: string }>) => ({
  cardNumber: '4242 4242 4242 4242',
  expiry: '12 / 30',
  cvc: '123',
  ...fields,
});

describe('the local test-card check', () => {
  it('accepts the two test cards with a future expiry and a CVC', () => {
    expect(checkTestCard(card({}), november2026)).toBeNull();
    expect(checkTestCard(card({ cardNumber: '4000000000000002' }), november2026)).toBeNull();
  });

  it("answers in Stripe's words for a short, unknown or expired card", () => {
    expect(checkTestCard(card({ cardNumber: '4242 4242' }), november2026)?.message).toBe(
      'Your card number is incomplete.',
    );
    expect(checkTestCard(card({ cardNumber: '5555 5555 5555 4444' }), november2026)?.message).toBe(
      'Your card number is invalid.',
    );
    expect(checkTestCard(card({ expiry: '10 / 26' }), november2026)?.message).toBe(
      "Your card's expiration date is in the past.",
    );
    expect(checkTestCard(card({ expiry: '13 / 30' }), november2026)?.message).toBe(
      "Your card's expiration date is invalid.",
    );
    expect(checkTestCard(card({ cvc: '12' }), november2026)?.message).toBe("Your card's security code is incomplete.");
  });

  it('still accepts a card expiring this month', () => {
    expect(checkTestCard(card({ expiry: '11 / 26' }), november2026)).toBeNull();
  });

  it('formats what is typed the way cards are printed', () => {
    expect(formatCardNumber('42424242424242429999')).toBe('4242 4242 4242 4242');
    expect(formatExpiry('1234')).toBe('12 / 34');
    expect(formatExpiry('1')).toBe('1');
  });

  it("takes the PaymentIntent id from the client secret's part before _secret_", () => {
    expect(paymentIntentIdOf('pi_3Abc_secret_xyz')).toBe('pi_3Abc');
  });
});
