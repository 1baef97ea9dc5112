import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type RefObject, useEffect } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/AppProviders';
import { PaymentStep } from './PaymentStep';
import type { CardSubmitter } from './payment-flow';

// A card form that breaks in an unexpected way: its readiness check throws an ordinary error.
vi.mock('./LocalTestCardForm', () => ({
  LocalTestCardForm: ({ submitterRef }: { submitterRef: RefObject<CardSubmitter | null> }) => {
    useEffect(() => {
      submitterRef.current = {
        isReady: () => {
          throw new Error('The card form stopped responding');
        },
        validate: async () => ({}),
        confirm: async () => ({}),
      };
    }, [submitterRef]);
    return null;
  },
}));

describe('Payment step', () => {
  it("says 'Payment failed: {message}' with the error's own message when something unexpected goes wrong", async () => {
    const onPaid = vi.fn();
    render(
      <AppProviders>
        <PaymentStep
          order={{ id: 'order-1', orderNumber: 1042, photoCount: 4, totalAmountCents: 3200 }}
          clientSecret="pi_123_secret_abc"
          onCancel={() => {}}
          onPaid={onPaid}
        />
      </AppProviders>,
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Pay $32.00' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Payment failed: The card form stopped responding$/);
    expect(onPaid).not.toHaveBeenCalled();
  });
});
