import type { BillingEntryView } from '@marketplace/events/billing';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { fakeFirebase } from '../../../test/fake-firebase-auth';
import { aMeView } from '../../../test/me-view';
import { aCompletedOrderDetail, anOrderDetail } from '../../../test/order-views';
import { renderApp } from '../../../test/render-app';

const payment: BillingEntryView = {
  id: '01JAAAAAAAAAAAAAAAAAAAAA01',
  kind: 'payment',
  orderId: 'order-1',
  orderNumber: 1,
  orderName: null,
  jobTypeName: 'HDR',
  photoCount: 2,
  amountCents: 1600,
  occurredAt: '2026-11-20T10:00:00.000Z',
  cardBrand: 'visa',
  cardLast4: '4242',
  receiptReady: true,
};

const openOrder = async () => {
  const view = renderApp('/orders/order-1');
  await screen.findByRole('heading', { level: 1, name: 'Order #1' }, { timeout: 5000 });
  return view;
};

describe("The order page's receipts", { timeout: 30_000 }, () => {
  beforeEach(() => {
    fakeFirebase.signInAs({ email: 'pat@example.com' });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView() });
    fakeApi.on('GET', '/api/orders/order-1', {
      status: 200,
      body: aCompletedOrderDetail({ name: null, orderNumber: 1 }),
    });
  });

  afterEach(() => vi.restoreAllMocks());

  it("offers 'Download receipt' in the Actions and hands the PDF link to the browser", async () => {
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    fakeApi.on('GET', '/api/orders/order-1/receipts', { status: 200, body: { receipts: [payment] } });
    fakeApi.on('GET', `/api/orders/order-1/receipts/${payment.id}`, {
      status: 200,
      body: { status: 'ready', url: 'http://127.0.0.1:4569/r.pdf', filename: 'receipt-order-1.pdf' },
    });
    const view = await openOrder();
    await view.user.click(await screen.findByRole('button', { name: 'Download receipt' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect((click.mock.contexts[0] as HTMLAnchorElement).href).toBe('http://127.0.0.1:4569/r.pdf');
  });

  it('names the refund receipt apart from the payment receipt', async () => {
    fakeApi.on('GET', '/api/orders/order-1/receipts', {
      status: 200,
      body: { receipts: [payment, { ...payment, id: '01JAAAAAAAAAAAAAAAAAAAAA02', kind: 'refund' }] },
    });
    await openOrder();
    expect(await screen.findByRole('button', { name: 'Download receipt ($16.00)' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download refund receipt ($16.00)' })).toBeInTheDocument();
  });

  it('asks for no receipts of an order awaiting payment', async () => {
    fakeApi.on('GET', '/api/orders/order-1', {
      status: 200,
      body: anOrderDetail({ name: null, orderNumber: 1, status: 'pending_payment' }),
    });
    await openOrder();
    expect(await screen.findByRole('link', { name: 'Complete Payment' })).toBeInTheDocument();
    expect(fakeApi.requestsTo('GET', '/api/orders/order-1/receipts')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: /Download receipt/ })).not.toBeInTheDocument();
  });
});
