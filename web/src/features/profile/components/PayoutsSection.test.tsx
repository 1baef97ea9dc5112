import type { BankPayoutView, EarningView } from '@marketplace/events/payouts';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { fakeFirebase } from '../../../test/fake-firebase-auth';
import { aMeView } from '../../../test/me-view';
import { renderApp } from '../../../test/render-app';

const earning = (n: number, fields: Partial<EarningView> = {}): EarningView => ({
  orderId: `order-${n}`,
  orderNumber: 1000 + n,
  orderName: null,
  amountCents: 300,
  state: 'held',
  releaseAt: '2099-01-08T10:00:00.000Z',
  holdReason: null,
  lastError: null,
  nextAttemptAt: null,
  transferId: null,
  transferredAt: null,
  payoutId: null,
  paidOutAt: null,
  paidByHandCents: 0,
  reversedAt: null,
  bookedAt: '2026-11-20T10:00:00.000Z',
  ...fields,
});

const payout = (fields: Partial<BankPayoutView> = {}): BankPayoutView => ({
  id: 'po_1',
  amountCents: 650,
  status: 'paid',
  arrivalDate: '2026-11-29T00:00:00.000Z',
  failureMessage: null,
  orders: [
    { orderId: 'order-3', orderNumber: 1003, orderName: null, amountCents: 350 },
    { orderId: 'order-4', orderNumber: 1004, orderName: null, amountCents: 300 },
  ],
  createdAt: '2026-11-28T00:00:00.000Z',
  ...fields,
});

const openProfile = async () => {
  const view = renderApp('/profile');
  const section = await screen.findByRole('region', { name: 'Payouts' }, { timeout: 5000 });
  return { ...view, section };
};

describe("Profile's payouts list", { timeout: 30_000 }, () => {
  beforeEach(() => {
    fakeFirebase.signInAs({ email: 'eddie@example.com' });
    fakeApi.on('GET', '/api/auth/me', {
      status: 200,
      body: aMeView({ roles: ['editor'], email: 'eddie@example.com' }),
    });
    fakeApi.on('GET', '/api/payout-account', {
      status: 200,
      body: { status: 'enabled', requirements: [], disabledReason: null, updatedAt: null },
    });
  });

  it('shows each payout to the bank with the orders it paid, and each earning on its way', async () => {
    fakeApi.on('GET', '/api/payouts', {
      status: 200,
      body: {
        payouts: [
          payout(),
          payout({ id: 'po_2', status: 'failed', failureMessage: 'The bank account has been closed.', orders: [] }),
        ],
        nextCursor: null,
      },
    });
    fakeApi.on('GET', '/api/earnings', {
      status: 200,
      body: {
        earnings: [
          earning(5),
          earning(6, {
            state: 'due',
            releaseAt: '2026-11-20T10:00:00.000Z',
            lastError: 'Stripe could not be reached; the transfer will be tried again.',
            nextAttemptAt: '2026-11-28T12:00:00.000Z',
          }),
          earning(3, { state: 'paid_out', payoutId: 'po_1', paidOutAt: '2026-11-28T00:00:00.000Z', amountCents: 350 }),
          earning(2, { state: 'reversed', reversedAt: '2026-11-27T00:00:00.000Z', orderName: 'Harbor View' }),
          earning(1, { state: 'held', holdReason: 'revision' }),
        ],
        nextCursor: null,
      },
    });
    const { section } = await openProfile();
    const payouts = await within(section).findByRole('table', { name: 'Payouts to your bank' });
    const payoutRows = within(payouts).getAllByRole('row');
    expect(payoutRows[1]).toHaveTextContent('$6.50');
    expect(payoutRows[1]).toHaveTextContent('Paid');
    expect(payoutRows[1]).toHaveTextContent('Order #1003, Order #1004');
    expect(payoutRows[2]).toHaveTextContent('Failed');
    expect(payoutRows[2]).toHaveTextContent('The bank account has been closed.');

    const earnings = within(section).getByRole('table', { name: 'Earnings' });
    const rows = within(earnings).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('Order #1005');
    expect(rows[1]).toHaveTextContent('HeldUntil Jan 8, 2099 (revision window)');
    expect(rows[2]).toHaveTextContent('Due');
    expect(rows[2]).toHaveTextContent('Stripe could not be reached');
    expect(rows[3]).toHaveTextContent('Paid out');
    expect(rows[4]).toHaveTextContent('Harbor View');
    expect(rows[4]).toHaveTextContent('Reversed');
    expect(rows[5]).toHaveTextContent('A revision is open');
  });

  it('reads older earnings by the cursor with "Show more"', async () => {
    fakeApi.on('GET', '/api/payouts', { status: 200, body: { payouts: [], nextCursor: null } });
    fakeApi.on('GET', '/api/earnings', (request) =>
      request.query.get('cursor') === 'next'
        ? { status: 200, body: { earnings: [earning(1)], nextCursor: null } }
        : { status: 200, body: { earnings: [earning(3), earning(2)], nextCursor: 'next' } },
    );
    const { section, user } = await openProfile();
    expect(await within(section).findByText(/No payouts yet/)).toBeInTheDocument();
    const earnings = await within(section).findByRole('table', { name: 'Earnings' });
    expect(within(earnings).getAllByRole('row')).toHaveLength(3);
    expect(fakeApi.requestsTo('GET', '/api/earnings')[0]?.query.get('limit')).toBe('10');
    await user.click(within(section).getByRole('button', { name: 'Show more earnings' }));
    await waitFor(() => expect(within(earnings).getAllByRole('row')).toHaveLength(4));
    expect(within(section).queryByRole('button', { name: 'Show more earnings' })).not.toBeInTheDocument();
  });

  it('says there are no earnings yet', async () => {
    fakeApi.on('GET', '/api/payouts', { status: 200, body: { payouts: [], nextCursor: null } });
    fakeApi.on('GET', '/api/earnings', { status: 200, body: { earnings: [], nextCursor: null } });
    const { section } = await openProfile();
    expect(await within(section).findByText(/No earnings yet/)).toBeInTheDocument();
  });
});
