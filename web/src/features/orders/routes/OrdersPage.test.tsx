import type { OrderSummaryView } from '@marketplace/events/orders';
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { fakeApi, type RecordedRequest } from '../../../test/fake-api';
import { fakeFirebase } from '../../../test/fake-firebase-auth';
import { aMeView } from '../../../test/me-view';
import { anOrderSummary } from '../../../test/order-views';
import { renderApp } from '../../../test/render-app';

/** Orders numbered from `first` down, as a page of the newest-first list. */
const ordersNumbered = (first: number, count: number): OrderSummaryView[] =>
  Array.from({ length: count }, (_, index) =>
    anOrderSummary({ id: `order-${first - index}`, orderNumber: first - index }),
  );

/** 45 orders in pages of 20: the cursor names the page that follows. */
const pages: Record<string, { orders: OrderSummaryView[]; nextCursor: string | null }> = {
  first: { orders: ordersNumbered(45, 20), nextCursor: 'after-26' },
  'after-26': { orders: ordersNumbered(25, 20), nextCursor: 'after-6' },
  'after-6': { orders: ordersNumbered(5, 5), nextCursor: null },
};

/**
 * The same three pages with only their first two orders each: the page count comes from the
 * total, and fewer rows keep the walk through the pages quick.
 */
const shortPages = Object.fromEntries(
  Object.entries(pages).map(([cursor, page]) => [cursor, { ...page, orders: page.orders.slice(0, 2) }]),
);

const servePages = (served: typeof pages) => (request: RecordedRequest) => {
  const page = served[request.query.get('cursor') ?? 'first'];
  return page ? { status: 200, body: { ...page, total: 45 } } : { status: 400 };
};

async function openOrders() {
  const view = renderApp('/orders');
  // The page's code loads on demand; the first load in a run can take a while.
  await screen.findByRole('heading', { level: 1, name: 'All Orders' }, { timeout: 5000 });
  return view;
}

const phoneSizedWindow = () => {
  const { happyDOM } = window as unknown as {
    happyDOM: { setViewport(size: { width: number; height: number }): void };
  };
  happyDOM.setViewport({ width: 390, height: 844 });
  onTestFinished(() => happyDOM.setViewport({ width: 1024, height: 768 }));
};

describe('All orders page', () => {
  beforeEach(() => {
    fakeFirebase.signInAs({ email: 'pat@example.com' });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView() });
    fakeApi.on('GET', '/api/orders/my', servePages(pages));
  });

  it('shows the first 20 orders in a table with page 1 of 3', async () => {
    await openOrders();
    const table = await screen.findByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(21);
    expect(within(table).getByRole('rowheader', { name: /Order #45/ })).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(fakeApi.requestsTo('GET', '/api/orders/my')[0]?.query.get('limit')).toBe('20');
  }, 30_000);

  it('walks forward with the cursor and back through the pages already seen', async () => {
    fakeApi.on('GET', '/api/orders/my', servePages(shortPages));
    const view = await openOrders();
    await screen.findByText('Order #45');

    await view.user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Order #25')).toBeInTheDocument();
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
    expect(fakeApi.requestsTo('GET', '/api/orders/my').at(-1)?.query.get('cursor')).toBe('after-26');

    await view.user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Order #5')).toBeInTheDocument();
    expect(screen.getByText('Page 3 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();

    await view.user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await screen.findByText('Order #25')).toBeInTheDocument();
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();

    await view.user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await screen.findByText('Order #45')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
  }, 30_000);

  it('shows status labels, due time, the Late marker and the actions each status allows', async () => {
    fakeApi.on('GET', '/api/orders/my', {
      status: 200,
      body: {
        orders: [
          anOrderSummary({ id: 'o-3', orderNumber: 3, status: 'pending_payment', paidAt: null, dueAt: null }),
          anOrderSummary({ id: 'o-2', orderNumber: 2, status: 'in_progress', isLate: true }),
          anOrderSummary({ id: 'o-1', orderNumber: 1, name: 'Done Deal', status: 'completed' }),
        ],
        total: 3,
        nextCursor: null,
      },
    });
    await openOrders();
    const row = async (name: string) =>
      within((await screen.findByRole('rowheader', { name: new RegExp(name) })).closest('tr') as HTMLElement);

    const pending = await row('Order #3');
    expect(pending.getByText('Pending Payment')).toBeInTheDocument();
    expect(pending.getByRole('link', { name: 'Complete Payment' })).toHaveAttribute('href', '/orders/o-3/payment');
    expect(pending.queryByRole('button', { name: 'Download' })).not.toBeInTheDocument();

    const late = await row('Order #2');
    expect(late.getByText('In Progress')).toBeInTheDocument();
    expect(late.getByText('Late')).toBeInTheDocument();
    expect(late.getByText(/^Due/)).toBeInTheDocument();
    expect(late.queryByRole('link', { name: 'Complete Payment' })).not.toBeInTheDocument();

    const done = await row('Done Deal');
    expect(done.getByText('Completed')).toBeInTheDocument();
    expect(done.getByRole('link', { name: 'View' })).toHaveAttribute('href', '/orders/o-1');
    expect(done.getByRole('button', { name: 'Download' })).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 1')).toBeInTheDocument();
  });

  it('shows cards instead of a table on a phone', async () => {
    phoneSizedWindow();
    await openOrders();
    const list = await screen.findByRole('list', { name: 'Orders' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(20);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  }, 30_000);

  it('invites a photographer without orders to create one', async () => {
    fakeApi.on('GET', '/api/orders/my', { status: 200, body: { orders: [], total: 0, nextCursor: null } });
    await openOrders();
    expect(await screen.findByRole('heading', { name: 'No orders yet' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create your first order' })).toHaveAttribute('href', '/create-order');
  });

  it('says so when the orders cannot be loaded', async () => {
    fakeApi.on('GET', '/api/orders/my', { status: 403, body: { error: 'FORBIDDEN', message: 'No' } });
    await openOrders();
    expect(await screen.findByText('Your orders could not be loaded. Please try again later.')).toBeInTheDocument();
  });
});
