import type { BillingEntryView } from '@marketplace/events/billing';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { fakeFirebase } from '../../../test/fake-firebase-auth';
import { aMeView } from '../../../test/me-view';
import { renderApp } from '../../../test/render-app';

const entry = (n: number, fields: Partial<BillingEntryView> = {}): BillingEntryView => ({
  id: `01JAAAAAAAAAAAAAAAAAAAAA${String(n).padStart(2, '0')}`,
  kind: 'payment',
  orderId: `order-${n}`,
  orderNumber: 1000 + n,
  orderName: null,
  jobTypeName: 'HDR',
  photoCount: 2,
  amountCents: 1600,
  occurredAt: '2026-11-20T10:00:00.000Z',
  cardBrand: 'visa',
  cardLast4: '4242',
  receiptReady: true,
  ...fields,
});

const openProfile = async () => {
  const view = renderApp('/profile');
  const section = await screen.findByRole('region', { name: 'Billing history' }, { timeout: 5000 });
  return { ...view, section };
};

describe("Profile's billing history", { timeout: 30_000 }, () => {
  beforeEach(() => {
    fakeFirebase.signInAs({ email: 'pat@example.com' });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView() });
    fakeApi.on('GET', '/api/payment-methods', { status: 200, body: { cards: [] } });
  });

  afterEach(() => vi.restoreAllMocks());

  it('lists payments and refunds newest first, and shows more by the cursor', async () => {
    fakeApi.on('GET', '/api/billing/history', (request) =>
      request.query.get('cursor') === 'page-2'
        ? { status: 200, body: { entries: [entry(1)], nextCursor: null } }
        : {
            status: 200,
            body: {
              entries: [entry(3, { kind: 'refund', orderName: 'Harbor View', amountCents: 800 }), entry(2)],
              nextCursor: 'page-2',
            },
          },
    );
    const { section, user } = await openProfile();
    const rows = await within(section).findAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toHaveTextContent('Refund');
    expect(rows[1]).toHaveTextContent('Harbor View');
    expect(rows[1]).toHaveTextContent('−$8.00');
    expect(rows[2]).toHaveTextContent('Order #1002');
    expect(rows[2]).toHaveTextContent('Visa •••• 4242');
    expect(rows[2]).toHaveTextContent('$16.00');
    expect(fakeApi.requestsTo('GET', '/api/billing/history')[0]?.query.get('limit')).toBe('10');

    await user.click(within(section).getByRole('button', { name: 'Show more' }));

    await waitFor(() => expect(within(section).getAllByRole('row')).toHaveLength(4));
    expect(within(section).getAllByRole('row')[3]).toHaveTextContent('Order #1001');
    expect(within(section).queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
  });

  it("downloads an entry's receipt through its link", async () => {
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    fakeApi.on('GET', '/api/billing/history', { status: 200, body: { entries: [entry(2)], nextCursor: null } });
    fakeApi.on('GET', `/api/orders/order-2/receipts/${entry(2).id}`, {
      status: 200,
      body: { status: 'ready', url: 'http://127.0.0.1:4569/receipt.pdf', filename: 'receipt-order-1002.pdf' },
    });
    const { section, user } = await openProfile();
    await user.click(await within(section).findByRole('button', { name: 'Download receipt for Order #1002' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('receipt-order-1002.pdf');
  });

  it('says a receipt is still being prepared', async () => {
    fakeApi.on('GET', '/api/billing/history', { status: 200, body: { entries: [entry(2)], nextCursor: null } });
    fakeApi.on('GET', `/api/orders/order-2/receipts/${entry(2).id}`, { status: 200, body: { status: 'preparing' } });
    const { section, user } = await openProfile();
    await user.click(await within(section).findByRole('button', { name: 'Download receipt for Order #1002' }));
    expect(
      await screen.findByText('Your receipt is being prepared. Please try again in a moment.'),
    ).toBeInTheDocument();
  });

  it("downloads the chosen month's CSV in the browser's time zone", async () => {
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    URL.createObjectURL = vi.fn(() => 'blob:statement');
    URL.revokeObjectURL = vi.fn();
    fakeApi.on('GET', '/api/billing/history', { status: 200, body: { entries: [], nextCursor: null } });
    fakeApi.on('GET', '/api/billing/statement', {
      status: 200,
      body: { filename: 'billing-2026-10.csv', csv: 'Date,Type\r\n' },
    });
    const { section, user } = await openProfile();
    const month = within(section).getByLabelText('Month');
    await user.clear(month);
    await user.type(month, '2026-10');
    await user.click(within(section).getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    const [request] = fakeApi.requestsTo('GET', '/api/billing/statement');
    expect(request?.query.get('month')).toBe('2026-10');
    expect(request?.query.get('tz')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('billing-2026-10.csv');
  });

  it('says there are no payments yet', async () => {
    fakeApi.on('GET', '/api/billing/history', { status: 200, body: { entries: [], nextCursor: null } });
    const { section } = await openProfile();
    expect(await within(section).findByText(/No payments yet/)).toBeInTheDocument();
  });

  it('says the history could not be loaded, and tries again', async () => {
    fakeApi.on('GET', '/api/billing/history', { status: 500, body: { error: 'INTERNAL', message: 'Something broke' } });
    const { section, user } = await openProfile();
    expect(await within(section).findByText('Something broke')).toBeInTheDocument();
    fakeApi.on('GET', '/api/billing/history', { status: 200, body: { entries: [entry(2)], nextCursor: null } });
    await user.click(within(section).getByRole('button', { name: 'Try again' }));
    expect(await within(section).findByText('Order #1002')).toBeInTheDocument();
  });
});
