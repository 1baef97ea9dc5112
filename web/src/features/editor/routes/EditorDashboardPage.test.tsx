import type { AvailableOrderView, EditorAssignmentView } from '@marketplace/events/editor-orders';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { fakeFirebase } from '../../../test/fake-firebase-auth';
import { aMeView } from '../../../test/me-view';
import { anOrderSummary } from '../../../test/order-views';
import { renderApp } from '../../../test/render-app';

const stats = { activeOrders: 2, completedOrders: 14, totalEarnings: 123_450, pendingPayouts: 4_275 };

const anAvailableOrder = (fields: Partial<AvailableOrderView> = {}): AvailableOrderView => ({
  ...anOrderSummary(),
  potentialEarningsCents: 150,
  assignedToMe: false,
  editingStyleSummary: null,
  ...fields,
});

const anAssignment = (fields: Partial<EditorAssignmentView> = {}): EditorAssignmentView => ({
  ...anOrderSummary({ status: 'in_progress', claimedAt: '2025-03-05T12:00:00.000Z' }),
  potentialEarningsCents: 150,
  photographerUploadCount: 3,
  editorUploadCount: 1,
  revision: null,
  ...fields,
});

const harbourView = anAvailableOrder({
  id: 'order-harbour',
  orderNumber: 11,
  name: 'Harbour View Loft',
  photoCount: 12,
  potentialEarningsCents: 600,
  editingRequirements: 'Brighten the interiors and replace the grey sky.',
});
const unratedOrder = anAvailableOrder({ id: 'order-unrated', orderNumber: 12, potentialEarningsCents: null });
const assignedOrder = anAvailableOrder({ id: 'order-assigned', orderNumber: 13, assignedToMe: true });

const availablePage = (orders: AvailableOrderView[], total = orders.length, nextCursor: string | null = null) => ({
  status: 200,
  body: { orders, total, nextCursor },
});

async function openDashboard() {
  const view = renderApp('/editor');
  // The page's code loads on demand; the first load in a run can take a while.
  await screen.findByRole('heading', { name: 'Editor Dashboard' }, { timeout: 5000 });
  return view;
}

const availableItem = async (name: string) =>
  (await within(await screen.findByRole('list', { name: 'Available orders' })).findByText(name)).closest(
    'li',
  ) as HTMLElement;

const lastAvailableQuery = () => fakeApi.requestsTo('GET', '/api/orders/available').at(-1)?.query;

describe('Editor dashboard', () => {
  beforeEach(() => {
    fakeFirebase.signInAs({ email: 'erin@example.com' });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView({ email: 'erin@example.com', roles: ['editor'] }) });
    fakeApi.on('GET', '/api/stats/editor', { status: 200, body: stats });
    fakeApi.on('GET', '/api/orders/available', availablePage([harbourView, unratedOrder, assignedOrder]));
    fakeApi.on('GET', '/api/orders/my-assignments', { status: 200, body: { orders: [] } });
  });

  it('shows the order counts and the money earned and owed in dollars', async () => {
    await openDashboard();
    expect(within(await screen.findByRole('group', { name: 'Active Orders' })).getByText('2')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Completed Orders' })).getByText('14')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Total Earnings' })).getByText('$1,234.50')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Pending Payouts' })).getByText('$42.75')).toBeInTheDocument();
  });

  it('lists each available order with its job type, photo count, earnings, requirements and dates', async () => {
    await openDashboard();
    const item = await availableItem('Harbour View Loft');
    expect(within(item).getByText('Photo Enhancement · 12 photos')).toBeInTheDocument();
    expect(within(item).getByText('$6.00')).toBeInTheDocument();
    expect(within(item).getByText(/Brighten the interiors and replace the grey sky\./)).toBeInTheDocument();
    expect(within(item).getByText('Mar 5, 2025')).toBeInTheDocument();
    expect(within(item).getByText(/^Due/)).toBeInTheDocument();
    expect(within(item).getByRole('link', { name: 'Preview' })).toHaveAttribute('href', '/orders/order-harbour');
    expect(within(item).getByRole('button', { name: 'Claim' })).toBeEnabled();
  });

  it("says 'Rate not set' when the editor has no rate for the order's job type", async () => {
    await openDashboard();
    expect(within(await availableItem('Order #12')).getByText('Rate not set')).toBeInTheDocument();
    expect(within(await availableItem('Harbour View Loft')).queryByText('Rate not set')).toBeNull();
  });

  it("shows each order's editing style in one line, and none for an order without one", async () => {
    const styled = anAvailableOrder({
      id: 'order-styled',
      orderNumber: 14,
      editingStyleSummary: 'Sunset sky · Bright and airy · warm white balance · TVs black',
    });
    fakeApi.on('GET', '/api/orders/available', availablePage([styled, unratedOrder]));
    await openDashboard();
    expect(within(await availableItem('Order #14')).getByText(/Sunset sky · Bright and airy/)).toBeInTheDocument();
    expect(within(await availableItem('Order #12')).queryByText('Style:')).toBeNull();
  });

  it('marks only the orders an admin assigned to this editor', async () => {
    await openDashboard();
    expect(within(await availableItem('Order #13')).getByText('Assigned to you')).toBeInTheDocument();
    expect(within(await availableItem('Order #12')).queryByText('Assigned to you')).toBeNull();
  });

  it('asks for the first page of ten, all orders, newest first', async () => {
    await openDashboard();
    await availableItem('Harbour View Loft');
    const query = lastAvailableQuery();
    expect(Object.fromEntries(query ?? [])).toEqual({ page: '1', limit: '10', filter: 'all', sort: 'newest' });
  });

  it('lets the server filter and sort, and goes back to page one when either changes', async () => {
    fakeApi.on('GET', '/api/orders/available', availablePage([harbourView, unratedOrder], 25, 'after-the-page'));
    const view = await openDashboard();
    await availableItem('Harbour View Loft');
    await view.user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(lastAvailableQuery()?.get('page')).toBe('2'));
    expect(lastAvailableQuery()?.get('cursor')).toBe('after-the-page');

    await view.user.selectOptions(screen.getByRole('combobox', { name: 'Show' }), 'With Requirements');
    await waitFor(() => expect(lastAvailableQuery()?.get('filter')).toBe('with-requirements'));
    expect(lastAvailableQuery()?.get('page')).toBe('1');

    await view.user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(lastAvailableQuery()?.get('page')).toBe('2'));
    await view.user.selectOptions(screen.getByRole('combobox', { name: 'Sort by' }), 'Highest Price');
    await waitFor(() => expect(lastAvailableQuery()?.get('sort')).toBe('highest-price'));
    expect(Object.fromEntries(lastAvailableQuery() ?? [])).toEqual({
      page: '1',
      limit: '10',
      filter: 'with-requirements',
      sort: 'highest-price',
    });
  });

  it('filters by one turnaround by time left, and shows every turnaround again under another sort', async () => {
    const view = await openDashboard();
    await availableItem('Harbour View Loft');
    await view.user.selectOptions(screen.getByRole('combobox', { name: 'Turnaround' }), 'Rush (12 h)');
    await waitFor(() => expect(lastAvailableQuery()?.get('tier')).toBe('rush'));
    expect(Object.fromEntries(lastAvailableQuery() ?? [])).toEqual({
      page: '1',
      limit: '10',
      filter: 'all',
      sort: 'due',
      tier: 'rush',
    });
    expect(screen.getByRole('combobox', { name: 'Sort by' })).toHaveValue('due');

    // Oldest first was never asked for here, so its page is a request of its own.
    await view.user.selectOptions(screen.getByRole('combobox', { name: 'Sort by' }), 'Oldest First');
    await waitFor(() => expect(lastAvailableQuery()?.get('sort')).toBe('oldest'));
    expect(lastAvailableQuery()?.get('tier')).toBeNull();
    expect(screen.getByRole('combobox', { name: /Turnaround/ })).toHaveValue('');
  });

  it('shows the page of pages and steps through them with the cursor of the page before', async () => {
    // Each page answers the cursor of the next one; the last has none.
    fakeApi.on('GET', '/api/orders/available', ({ query }) => {
      const page = Number(query.get('page'));
      return availablePage([harbourView], 21, page < 3 ? `after-page-${page}` : null);
    });
    const view = await openDashboard();
    await availableItem('Harbour View Loft');
    const pages = screen.getByRole('navigation', { name: 'Pages of available orders' });
    expect(within(pages).getByText('Page 1 of 3')).toBeInTheDocument();
    expect(within(pages).getByRole('button', { name: 'Previous' })).toBeDisabled();
    await view.user.click(within(pages).getByRole('button', { name: 'Next' }));
    expect(await within(pages).findByText('Page 2 of 3')).toBeInTheDocument();
    expect(lastAvailableQuery()?.get('cursor')).toBe('after-page-1');
    await view.user.click(within(pages).getByRole('button', { name: 'Next' }));
    expect(await within(pages).findByText('Page 3 of 3')).toBeInTheDocument();
    await waitFor(() => expect(within(pages).getByRole('button', { name: 'Next' })).toBeDisabled());
    expect(lastAvailableQuery()?.get('page')).toBe('3');
    expect(lastAvailableQuery()?.get('cursor')).toBe('after-page-2');

    await view.user.click(within(pages).getByRole('button', { name: 'Previous' }));
    expect(await within(pages).findByText('Page 2 of 3')).toBeInTheDocument();
    expect(view.router.state.location.search).toContain('cursor=after-page-1');
    await view.user.click(within(pages).getByRole('button', { name: 'Previous' }));
    expect(await within(pages).findByText('Page 1 of 3')).toBeInTheDocument();
    expect(view.router.state.location.search).not.toContain('cursor');
  });

  it('says why a page cannot be opened by its number and leads back to the first page', async () => {
    fakeApi.on('GET', '/api/orders/available', ({ query }) =>
      query.get('page') === '30'
        ? {
            status: 400,
            body: {
              error: 'PAGE_TOO_DEEP',
              message:
                'Page 30 cannot be opened by its number: only pages within the first 200 available orders can. Use Next from an earlier page.',
            },
          }
        : availablePage([harbourView], 400, 'after-page-1'),
    );
    const view = renderApp('/editor?page=30&filter=all&sort=newest');
    expect(
      await screen.findByText(/Page 30 cannot be opened by its number/, {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    await view.user.click(screen.getByRole('button', { name: 'Go to the first page' }));
    await availableItem('Harbour View Loft');
    expect(Object.fromEntries(lastAvailableQuery() ?? [])).toEqual({
      page: '1',
      limit: '10',
      filter: 'all',
      sort: 'newest',
    });
  });

  it('hides the pages when exactly ten orders are available', async () => {
    fakeApi.on('GET', '/api/orders/available', availablePage([harbourView], 10));
    await openDashboard();
    await availableItem('Harbour View Loft');
    expect(screen.queryByRole('navigation', { name: 'Pages of available orders' })).toBeNull();
    expect(screen.queryByText(/^Page \d+ of/)).toBeNull();
  });

  it('claims an order, says so and refreshes the available orders, assignments and totals', async () => {
    let claimed = false;
    fakeApi.on('POST', '/api/orders/order-harbour/claim', () => {
      claimed = true;
      return { status: 200, body: { ...harbourView, status: 'in_progress' } };
    });
    fakeApi.on('GET', '/api/orders/available', () =>
      availablePage(claimed ? [unratedOrder] : [harbourView, unratedOrder]),
    );
    fakeApi.on('GET', '/api/orders/my-assignments', () => ({
      status: 200,
      body: { orders: claimed ? [anAssignment({ id: 'order-harbour', name: 'Harbour View Loft' })] : [] },
    }));
    fakeApi.on('GET', '/api/stats/editor', () => ({
      status: 200,
      body: { ...stats, activeOrders: claimed ? 3 : 2 },
    }));
    const view = await openDashboard();
    await view.user.click(within(await availableItem('Harbour View Loft')).getByRole('button', { name: 'Claim' }));

    expect(await screen.findByText('Order claimed successfully!')).toBeInTheDocument();
    const assignments = await screen.findByRole('list', { name: 'My assignments' });
    expect(within(assignments).getByText('Harbour View Loft')).toBeInTheDocument();
    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'Available orders' })).queryByText('Harbour View Loft'),
      ).toBeNull(),
    );
    expect(within(screen.getByRole('group', { name: 'Active Orders' })).getByText('3')).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', '/api/orders/order-harbour/claim')).toHaveLength(1);
  });

  it('disables the Claim button while the claim is on its way', async () => {
    let answer: () => void = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    fakeApi.on('POST', '/api/orders/order-harbour/claim', { status: 200, body: harbourView });
    // Holds the claim's answer back until the test lets it through; the setup's cleanup unstubs this.
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.method === 'POST') await answered;
      return fakeApi.fetch(input, init);
    });
    const view = await openDashboard();
    const item = await availableItem('Harbour View Loft');
    await view.user.click(within(item).getByRole('button', { name: 'Claim' }));
    await waitFor(() => expect(within(item).getByRole('button', { name: 'Claim' })).toBeDisabled());
    answer();
    expect(await screen.findByText('Order claimed successfully!')).toBeInTheDocument();
  });

  it("shows the server's reason when someone else claimed the order first", async () => {
    fakeApi.on('POST', '/api/orders/order-harbour/claim', {
      status: 409,
      body: { error: 'CONFLICT', message: 'This order has already been claimed' },
    });
    const view = await openDashboard();
    const item = await availableItem('Harbour View Loft');
    await view.user.click(within(item).getByRole('button', { name: 'Claim' }));
    expect(await screen.findByText('This order has already been claimed')).toBeInTheDocument();
    expect(screen.queryByText('Order claimed successfully!')).toBeNull();
    await waitFor(() => expect(within(item).getByRole('button', { name: 'Claim' })).toBeEnabled());
  });

  it('says the order could not be claimed when the server gives no reason', async () => {
    fakeApi.on('POST', '/api/orders/order-harbour/claim', { status: 503 });
    const view = await openDashboard();
    await view.user.click(within(await availableItem('Harbour View Loft')).getByRole('button', { name: 'Claim' }));
    expect(await screen.findByText('Failed to claim order')).toBeInTheDocument();
  });

  it("lists only the orders in progress, each with 'Work on Order' leading to its work page", async () => {
    fakeApi.on('GET', '/api/orders/my-assignments', {
      status: 200,
      body: {
        orders: [
          anAssignment({ id: 'order-working', orderNumber: 21, name: 'Maple Street', editorUploadCount: 2 }),
          anAssignment({ id: 'order-finished', orderNumber: 22, name: 'Cedar Court', status: 'completed' }),
        ],
      },
    });
    await openDashboard();
    const assignments = await screen.findByRole('list', { name: 'My assignments' });
    const working = within(assignments).getByText('Maple Street').closest('li') as HTMLElement;
    expect(within(working).getByText('2 of 3 edited photos uploaded')).toBeInTheDocument();
    expect(within(working).getByRole('link', { name: 'Work on Order' })).toHaveAttribute(
      'href',
      '/editor/orders/order-working',
    );
    expect(within(assignments).queryByText('Cedar Court')).toBeNull();
    expect(within(assignments).getAllByRole('link', { name: 'Work on Order' })).toHaveLength(1);
  });

  it('says when there is nothing to claim and nothing in progress', async () => {
    fakeApi.on('GET', '/api/orders/available', availablePage([]));
    fakeApi.on('GET', '/api/orders/my-assignments', {
      status: 200,
      body: { orders: [anAssignment({ status: 'completed' })] },
    });
    await openDashboard();
    expect(await screen.findByRole('heading', { name: 'No orders available right now' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'No active assignments' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Claim' })).toBeNull();
  });

  it('says so when the available orders, assignments or totals cannot be loaded', async () => {
    const failure = { status: 500, body: { error: 'INTERNAL', message: 'Boom' } };
    fakeApi.on('GET', '/api/orders/available', failure);
    fakeApi.on('GET', '/api/orders/my-assignments', failure);
    fakeApi.on('GET', '/api/stats/editor', failure);
    await openDashboard();
    expect(
      await screen.findByText('Available orders could not be loaded. Please try again later.', {}, { timeout: 4000 }),
    ).toBeInTheDocument();
    expect(
      await screen.findByText('Your assignments could not be loaded. Please try again later.', {}, { timeout: 4000 }),
    ).toBeInTheDocument();
    expect(
      await screen.findByText('Your totals could not be loaded. Please try again later.', {}, { timeout: 4000 }),
    ).toBeInTheDocument();
  });
});
