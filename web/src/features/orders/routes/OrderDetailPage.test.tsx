import type { OrderDetailView } from '@marketplace/events/orders';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { fakeFirebase } from '../../../test/fake-firebase-auth';
import { aMeView } from '../../../test/me-view';
import { aCompletedOrderDetail, anOrderDetail } from '../../../test/order-views';
import { renderApp } from '../../../test/render-app';

const ORDER_ID = 'order-1';

function serveOrder(order: OrderDetailView) {
  fakeApi.on('GET', `/api/orders/${ORDER_ID}`, { status: 200, body: order });
}

async function openOrder(headingName: string) {
  const view = renderApp(`/orders/${ORDER_ID}`);
  // The page's code loads on demand; the first load in a run can take a while.
  await screen.findByRole('heading', { level: 1, name: headingName }, { timeout: 5000 });
  return view;
}

const section = (name: string) => screen.getByRole('region', { name });

describe('Order detail page', () => {
  beforeEach(() => {
    fakeFirebase.signInAs({ email: 'pat@example.com' });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView() });
  });

  it('heads the page with the order name, its status and a way back to the dashboard', async () => {
    serveOrder(anOrderDetail({ name: 'Harbour View Loft', status: 'in_progress' }));
    await openOrder('Harbour View Loft');
    expect(screen.getByText('In Progress')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/dashboard');
  });

  it('calls an unnamed order by its number', async () => {
    serveOrder(anOrderDetail({ name: null, orderNumber: 42 }));
    await openOrder('Order #42');
  });

  it('summarises photo count, cost, dates, service and editing requirements', async () => {
    serveOrder(
      aCompletedOrderDetail({ photoCount: 4, totalAmountCents: 2000, editingRequirements: 'Brighten the sky' }),
    );
    await openOrder('Order #1');
    const summary = within(section('Order Summary'));
    expect(summary.getByText('4')).toBeInTheDocument();
    expect(summary.getByText('$20.00')).toBeInTheDocument();
    expect(summary.getByText('Mar 5, 2025')).toBeInTheDocument();
    expect(summary.getByText('Mar 6, 2025')).toBeInTheDocument();
    expect(summary.getByText('Photo Enhancement')).toBeInTheDocument();
    expect(summary.getByText('Brighten the sky')).toBeInTheDocument();
  });

  it('shows when a paid order is due, and marks it Late once overdue', async () => {
    serveOrder(anOrderDetail({ status: 'in_progress', isLate: true }));
    await openOrder('Order #1');
    expect(within(section('Order Summary')).getByText(/Mar 7, 2025/)).toBeInTheDocument();
    expect(screen.getAllByText('Late').length).toBeGreaterThan(0);
  });

  it('counts originals and edited photos against the photos ordered', async () => {
    serveOrder(anOrderDetail({ photoCount: 3, photographerUploadCount: 3, editorUploadCount: 0 }));
    await openOrder('Order #1');
    const status = within(section('Photo Status'));
    expect(status.getByText('Originals 3 / 3')).toBeInTheDocument();
    expect(status.getByText('Edited 0 / 3')).toBeInTheDocument();
  });

  it('shows the editor, their notes and the dates each milestone was reached', async () => {
    serveOrder(aCompletedOrderDetail());
    await openOrder('Order #1');
    const editor = within(section('Assigned Editor'));
    expect(editor.getByText('Erin Editor')).toBeInTheDocument();
    expect(editor.getByText('Brightened the interiors and straightened the verticals.')).toBeInTheDocument();
    const timeline = within(section('Timeline'));
    for (const milestone of ['Order Created', 'Editor Assigned', 'Work Started', 'Order Completed']) {
      expect(timeline.getByText(milestone)).toBeInTheDocument();
    }
    expect(timeline.queryByText('Not yet')).not.toBeInTheDocument();
  });

  it("says a milestone is not reached yet while it isn't", async () => {
    serveOrder(anOrderDetail({ status: 'paid' }));
    await openOrder('Order #1');
    expect(within(section('Timeline')).getAllByText('Not yet')).toHaveLength(3);
  });

  it("says the order was not found when it is missing or someone else's", async () => {
    fakeApi.on('GET', `/api/orders/${ORDER_ID}`, {
      status: 404,
      body: { error: 'NOT_FOUND', message: 'Order not found' },
    });
    await openOrder('Order Not Found');
    expect(
      screen.getByText("The order you're looking for doesn't exist or you don't have access to it."),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/dashboard');
  });

  it("offers the spec's 'Download Edited Photos' first, the MLS-ready zip beside it, and no payment", async () => {
    serveOrder(aCompletedOrderDetail());
    await openOrder('Order #1');
    const actions = within(section('Actions'));
    const downloads = within(actions.getByRole('group', { name: 'Delivery downloads' }));
    const buttons = downloads.getAllByRole('button').map((button) => button.textContent);
    expect(buttons).toEqual(['Download Edited Photos', 'MLS-ready (zip)']);
    expect(actions.queryByRole('link', { name: 'Complete Payment' })).not.toBeInTheDocument();
    expect(actions.getByRole('link', { name: 'Create New Order' })).toHaveAttribute('href', '/create-order');
  });

  it('keeps the last delivery downloadable, both ways, while a revision is with the editor', async () => {
    serveOrder(aCompletedOrderDetail({ status: 'revision_requested' }));
    await openOrder('Order #1');
    const group = within(section('Actions')).getByRole('group', { name: 'Last delivery' });
    expect(group).toHaveAccessibleDescription('Your last delivery stays yours while the revision is with the editor.');
    const downloads = within(group);
    expect(downloads.getByRole('button', { name: 'Download Edited Photos' })).toBeInTheDocument();
    expect(downloads.getByRole('button', { name: 'MLS-ready (zip)' })).toBeInTheDocument();
    // The listing is arranged once the revision is delivered.
    expect(screen.queryByRole('region', { name: 'Listing Order' })).not.toBeInTheDocument();
  });

  it('offers Complete Payment for an order waiting for payment, and no download', async () => {
    serveOrder(anOrderDetail({ status: 'pending_payment', paidAt: null, dueAt: null }));
    await openOrder('Order #1');
    expect(screen.getByText('Pending Payment')).toBeInTheDocument();
    const actions = within(section('Actions'));
    expect(actions.getByRole('link', { name: 'Complete Payment' })).toHaveAttribute(
      'href',
      `/orders/${ORDER_ID}/payment`,
    );
    expect(actions.queryByRole('button', { name: 'Download Edited Photos' })).not.toBeInTheDocument();
    expect(actions.queryByRole('button', { name: 'MLS-ready (zip)' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Listing Order' })).not.toBeInTheDocument();
  });

  it.each([
    ['Download Edited Photos', 'download-completed', 'Photos downloaded successfully!'],
    ['MLS-ready (zip)', 'download-mls', 'MLS-ready photos downloaded successfully!'],
  ])('downloads %s through the browser once the zip is ready', async (label, route, success) => {
    const links: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      links.push(this.getAttribute('href') ?? '');
    });
    onTestFinished(() => click.mockRestore());
    fakeApi.on('GET', `/api/orders/${ORDER_ID}/${route}`, {
      status: 200,
      body: {
        status: 'ready',
        url: `https://photos.example.com/${route}.zip`,
        filename: 'z.zip',
        sizeBytes: 9,
        fileCount: 3,
      },
    });
    serveOrder(aCompletedOrderDetail());
    const view = await openOrder('Order #1');
    await view.user.click(screen.getByRole('button', { name: label }));
    expect(await screen.findByText(success)).toBeInTheDocument();
    expect(links).toEqual([`https://photos.example.com/${route}.zip`]);
  });

  it("says 'Failed to download photos' when the edited photos cannot be downloaded and the server gives no reason", async () => {
    fakeApi.on('GET', `/api/orders/${ORDER_ID}/download-completed`, { status: 503 });
    serveOrder(aCompletedOrderDetail());
    const view = await openOrder('Order #1');
    await view.user.click(screen.getByRole('button', { name: 'Download Edited Photos' }));
    await waitFor(() => expect(screen.getByText('Failed to download photos')).toBeInTheDocument(), { timeout: 4000 });
  });

  it('offers no rating while the editor is still working', async () => {
    serveOrder(anOrderDetail({ status: 'in_progress', editor: { displayName: 'Erin Editor', email: null } }));
    await openOrder('Order #1');
    expect(within(section('Assigned Editor')).getByText('Erin Editor')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Rate Editor' })).not.toBeInTheDocument();
  });

  it('shows an earlier rating out of 10 instead of Rate Editor', async () => {
    serveOrder(aCompletedOrderDetail({ photographerRating: 8 }));
    await openOrder('Order #1');
    expect(within(section('Assigned Editor')).getByText('8/10')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Rate Editor' })).not.toBeInTheDocument();
  });

  it('offers Rate Editor for a completed order not rated yet', async () => {
    serveOrder(aCompletedOrderDetail({ photographerRating: null }));
    await openOrder('Order #1');
    expect(screen.getByRole('button', { name: 'Rate Editor' })).toBeInTheDocument();
  });

  it('rates the editor: Submit waits for a star, then the rating shows as 9/10', async () => {
    const completed = aCompletedOrderDetail();
    serveOrder(completed);
    fakeApi.on('POST', `/api/orders/${ORDER_ID}/rate`, (request) => ({
      status: 200,
      body: { ...completed, photographerRating: (request.body as { rating: number }).rating },
    }));
    const view = await openOrder('Order #1');
    await view.user.click(screen.getByRole('button', { name: 'Rate Editor' }));
    const modal = within(await screen.findByRole('dialog', { name: 'Rate Your Editor' }));
    expect(modal.getAllByRole('button', { name: /^\d+ stars?$/ })).toHaveLength(10);
    expect(modal.getByRole('button', { name: 'Submit' })).toBeDisabled();

    await view.user.click(modal.getByRole('button', { name: '9 stars' }));
    expect(modal.getByRole('button', { name: '9 stars' })).toHaveAttribute('aria-pressed', 'true');
    expect(modal.getByRole('button', { name: 'Submit' })).toBeEnabled();
    await view.user.click(modal.getByRole('button', { name: 'Submit' }));

    expect(await screen.findByText('Rating submitted successfully!')).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', `/api/orders/${ORDER_ID}/rate`)[0]?.body).toEqual({ rating: 9 });
    await waitFor(() => expect(within(section('Assigned Editor')).getByText('9/10')).toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Rate Editor' })).not.toBeInTheDocument();
  }, 15_000);

  it('chooses a star with the keyboard', async () => {
    serveOrder(aCompletedOrderDetail());
    const view = await openOrder('Order #1');
    await view.user.click(screen.getByRole('button', { name: 'Rate Editor' }));
    const modal = within(await screen.findByRole('dialog', { name: 'Rate Your Editor' }));
    modal.getByRole('button', { name: '1 star' }).focus();
    await view.user.tab();
    await view.user.keyboard('{Enter}');
    expect(modal.getByRole('button', { name: '2 stars' })).toHaveAttribute('aria-pressed', 'true');
    expect(modal.getByRole('button', { name: 'Submit' })).toBeEnabled();
  });

  it("shows the server's message when the rating is refused, and keeps the button", async () => {
    serveOrder(aCompletedOrderDetail());
    fakeApi.on('POST', `/api/orders/${ORDER_ID}/rate`, {
      status: 409,
      body: { error: 'CONFLICT', message: 'This order has already been rated' },
    });
    const view = await openOrder('Order #1');
    await view.user.click(screen.getByRole('button', { name: 'Rate Editor' }));
    const modal = within(await screen.findByRole('dialog', { name: 'Rate Your Editor' }));
    await view.user.click(modal.getByRole('button', { name: '7 stars' }));
    await view.user.click(modal.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('This order has already been rated')).toBeInTheDocument();
  }, 15_000);

  it('says the rating failed when the server gives no reason', async () => {
    serveOrder(aCompletedOrderDetail());
    fakeApi.on('POST', `/api/orders/${ORDER_ID}/rate`, { status: 503 });
    const view = await openOrder('Order #1');
    await view.user.click(screen.getByRole('button', { name: 'Rate Editor' }));
    const modal = within(await screen.findByRole('dialog', { name: 'Rate Your Editor' }));
    await view.user.click(modal.getByRole('button', { name: '10 stars' }));
    await view.user.click(modal.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Failed to submit rating')).toBeInTheDocument();
  }, 15_000);
});
