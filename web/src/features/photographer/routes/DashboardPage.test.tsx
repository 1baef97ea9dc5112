import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { fakeFirebase } from '../../../test/fake-firebase-auth';
import { aMeView } from '../../../test/me-view';
import { anOrderSummary } from '../../../test/order-views';
import { renderApp } from '../../../test/render-app';

const stats = { totalOrders: 12, totalPhotos: 148, totalSpent: 74_050, activeOrders: 3 };

const pendingOrder = anOrderSummary({
  id: 'order-pending',
  orderNumber: 7,
  status: 'pending_payment',
  paidAt: null,
  dueAt: null,
});
const lateOrder = anOrderSummary({
  id: 'order-late',
  orderNumber: 6,
  name: 'Maple Street',
  status: 'in_progress',
  isLate: true,
});
const completedOrder = anOrderSummary({
  id: 'order-done',
  orderNumber: 5,
  name: 'Harbour View Loft',
  status: 'completed',
  completedAt: '2025-03-06T09:00:00.000Z',
});

const recentOrders = (orders = [pendingOrder, lateOrder, completedOrder]) => ({
  status: 200,
  body: { orders, total: orders.length, nextCursor: null },
});

/** Records the links the page hands to the browser's download manager instead of following them. */
const capturedDownloads = () => {
  const links: { href: string; download: string }[] = [];
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    links.push({ href: this.getAttribute('href') ?? '', download: this.download });
  });
  onTestFinished(() => click.mockRestore());
  return links;
};

async function openDashboard() {
  const view = renderApp('/dashboard');
  // The page's code loads on demand; the first load in a run can take a while.
  await screen.findByRole('heading', { name: 'Dashboard' }, { timeout: 5000 });
  return view;
}

const orderItem = async (name: string) => (await screen.findByText(name)).closest('li') as HTMLElement;

describe('Photographer dashboard', () => {
  beforeEach(() => {
    fakeFirebase.signInAs({ email: 'pat@example.com' });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView() });
    fakeApi.on('GET', '/api/stats/photographer', { status: 200, body: stats });
    fakeApi.on('GET', '/api/orders/my', recentOrders());
  });

  it('shows the totals as counts and the money spent in dollars', async () => {
    await openDashboard();
    expect(within(await screen.findByRole('group', { name: 'Total Orders' })).getByText('12')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Total Photos' })).getByText('148')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Total Spent' })).getByText('$740.50')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Active Orders' })).getByText('3')).toBeInTheDocument();
  });

  it('asks for the latest five orders only', async () => {
    await openDashboard();
    await screen.findByText('Harbour View Loft');
    expect(fakeApi.requestsTo('GET', '/api/orders/my')[0]?.query.get('limit')).toBe('5');
  });

  it('lists recent orders with their names, status labels, counts, totals and dates', async () => {
    await openDashboard();
    const pending = await orderItem('Order #7');
    expect(within(pending).getByText('Pending Payment')).toBeInTheDocument();
    expect(within(pending).getByText(/3 photos · \$15\.00/)).toBeInTheDocument();
    expect(within(pending).getByText('Mar 5, 2025')).toBeInTheDocument();
    const late = await orderItem('Maple Street');
    expect(within(late).getByText('In Progress')).toBeInTheDocument();
    expect(within(late).getByText(/^Due/)).toBeInTheDocument();
    expect(within(late).getByText('Late')).toBeInTheDocument();
    expect(within(await orderItem('Harbour View Loft')).getByText('Completed')).toBeInTheDocument();
  });

  it('links every order to its page and offers Download only for completed ones', async () => {
    await openDashboard();
    for (const [name, order] of [
      ['Order #7', pendingOrder],
      ['Maple Street', lateOrder],
      ['Harbour View Loft', completedOrder],
    ] as const) {
      const item = await orderItem(name);
      expect(within(item).getByRole('link', { name: 'View' })).toHaveAttribute('href', `/orders/${order.id}`);
      const download = within(item).queryByRole('button', { name: 'Download' });
      if (order.status === 'completed') expect(download).toBeInTheDocument();
      else expect(download).not.toBeInTheDocument();
    }
  });

  it('offers Complete Payment only for an order still waiting for payment', async () => {
    await openDashboard();
    expect(within(await orderItem('Order #7')).getByRole('link', { name: 'Complete Payment' })).toHaveAttribute(
      'href',
      '/orders/order-pending/payment',
    );
    expect(screen.getAllByRole('link', { name: 'Complete Payment' })).toHaveLength(1);
  });

  it('links to creating an order and to all orders', async () => {
    await openDashboard();
    expect(screen.getByRole('link', { name: 'Create New Order' })).toHaveAttribute('href', '/create-order');
    expect(await screen.findByRole('link', { name: 'View all orders' })).toHaveAttribute('href', '/orders');
  });

  it('invites a new photographer to create a first order', async () => {
    fakeApi.on('GET', '/api/stats/photographer', {
      status: 200,
      body: { totalOrders: 0, totalPhotos: 0, totalSpent: 0, activeOrders: 0 },
    });
    fakeApi.on('GET', '/api/orders/my', recentOrders([]));
    await openDashboard();
    expect(await screen.findByRole('heading', { name: 'No orders yet' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create your first order' })).toHaveAttribute('href', '/create-order');
    expect(within(screen.getByRole('group', { name: 'Total Spent' })).getByText('$0.00')).toBeInTheDocument();
  });

  it('says so when the orders cannot be loaded', async () => {
    fakeApi.on('GET', '/api/orders/my', { status: 500, body: { error: 'INTERNAL', message: 'Boom' } });
    await openDashboard();
    expect(
      await screen.findByText('Your recent orders could not be loaded. Please try again later.', {}, { timeout: 4000 }),
    ).toBeInTheDocument();
  });

  it('waits while the zip is built, showing progress, then hands its link to the browser', async () => {
    const links = capturedDownloads();
    let polls = 0;
    fakeApi.on('GET', '/api/orders/order-done/download-completed', () =>
      ++polls === 1
        ? { status: 202, body: { status: 'building', filesDone: 1, fileCount: 3 } }
        : {
            status: 200,
            body: {
              status: 'ready',
              url: 'https://photos.example.com/zips/order-done.zip?signature=abc',
              filename: 'Harbour_View_Loft_edited_photos.zip',
              sizeBytes: 1024,
              fileCount: 3,
            },
          },
    );
    const view = await openDashboard();
    await view.user.click(within(await orderItem('Harbour View Loft')).getByRole('button', { name: 'Download' }));
    expect(await screen.findByText('Preparing your zip… 1 of 3 files')).toBeInTheDocument();
    expect(links).toHaveLength(0);
    expect(
      await screen.findByText('Completed photos downloaded successfully!', {}, { timeout: 4000 }),
    ).toBeInTheDocument();
    expect(links).toEqual([
      {
        href: 'https://photos.example.com/zips/order-done.zip?signature=abc',
        download: 'Harbour_View_Loft_edited_photos.zip',
      },
    ]);
    expect(polls).toBe(2);
  }, 15_000);

  it("shows the server's reason when a download fails", async () => {
    const links = capturedDownloads();
    fakeApi.on('GET', '/api/orders/order-done/download-completed', {
      status: 409,
      body: { error: 'CONFLICT', message: 'Only completed orders can be downloaded' },
    });
    const view = await openDashboard();
    await view.user.click(within(await orderItem('Harbour View Loft')).getByRole('button', { name: 'Download' }));
    expect(await screen.findByText('Download failed: Only completed orders can be downloaded')).toBeInTheDocument();
    expect(links).toHaveLength(0);
  });

  it("says 'Download failed: Failed to download completed photos' when the server gives no reason", async () => {
    fakeApi.on('GET', '/api/orders/order-done/download-completed', { status: 503 });
    const view = await openDashboard();
    await view.user.click(within(await orderItem('Harbour View Loft')).getByRole('button', { name: 'Download' }));
    await waitFor(
      () => expect(screen.getByText('Download failed: Failed to download completed photos')).toBeInTheDocument(),
      { timeout: 4000 },
    );
  });
});
