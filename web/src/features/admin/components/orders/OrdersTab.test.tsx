import type { AdminEditorView, AdminOrderView } from '@marketplace/events/admin';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { fakeApi, type RecordedRequest } from '../../../../test/fake-api';
import { fakeFirebase } from '../../../../test/fake-firebase-auth';
import { aMeView } from '../../../../test/me-view';
import { anOrderSummary } from '../../../../test/order-views';
import { renderApp } from '../../../../test/render-app';

const ORDERS_PATH = '/api/orders/admin/all';

const anAdminOrder = (fields: Partial<AdminOrderView> = {}): AdminOrderView => ({
  ...anOrderSummary(),
  photographerId: 'photographer-1',
  photographer: { id: 'photographer-1', display_name: 'Piper Lens', photographer_name: 'Piper Lens' },
  editorId: null,
  editor: null,
  assignment: 'unassigned',
  assignedAt: null,
  cancelledAt: null,
  refundedAmountCents: null,
  canAssign: true,
  canUnassign: false,
  canCancel: true,
  ...fields,
});

const anEditor = (fields: Partial<AdminEditorView> = {}): AdminEditorView => ({
  id: 'editor-1',
  email: 'erin@example.com',
  displayName: 'Erin Editor',
  status: 'verified',
  invitedAt: '2025-01-01T00:00:00.000Z',
  createdAt: '2025-01-01T00:00:00.000Z',
  isActive: true,
  rates: [],
  pendingPayoutCents: 0,
  paidOutCents: 0,
  payoutAccount: { status: 'not_set_up', requirements: [], disabledReason: null, updatedAt: null },
  ...fields,
});

const erin = { id: 'editor-erin', display_name: 'Erin Editor', editor_name: 'Erin Editor' };

const harbourView = anAdminOrder({
  id: 'order-harbour',
  orderNumber: 11,
  name: 'Harbour View Loft',
  photoCount: 12,
  totalAmountCents: 9600,
  jobTypeName: 'HDR',
});
const gardenFlat = anAdminOrder({ id: 'order-garden', orderNumber: 12, name: 'Garden Flat' });
const inProgress = anAdminOrder({
  id: 'order-busy',
  orderNumber: 13,
  name: 'Busy Bungalow',
  status: 'in_progress',
  editorId: erin.id,
  editor: erin,
  assignment: 'assigned',
  canAssign: false,
  canCancel: false,
});
const awaitingPayment = anAdminOrder({
  id: 'order-unpaid',
  orderNumber: 14,
  name: 'Unpaid Cottage',
  status: 'pending_payment',
  canAssign: false,
});
const completed = anAdminOrder({
  id: 'order-done',
  orderNumber: 15,
  name: 'Done Duplex',
  status: 'completed',
  editor: erin,
  editorId: erin.id,
  assignment: 'assigned',
  canAssign: false,
  canCancel: false,
});
const assignedPaid = anAdminOrder({
  id: 'order-assigned',
  orderNumber: 16,
  name: 'Assigned Attic',
  editor: erin,
  editorId: erin.id,
  assignment: 'assigned',
  canUnassign: true,
});

const listOf = (
  orders: AdminOrderView[],
  fields: { total?: number; totalPages?: number; nextCursor?: string | null; moreMatches?: boolean } = {},
) => ({
  status: 200,
  body: {
    orders,
    total: fields.total ?? orders.length,
    totalPages: fields.totalPages ?? 1,
    page: 1,
    nextCursor: fields.nextCursor ?? null,
    moreMatches: fields.moreMatches ?? false,
  },
});

const ordersQueries = () => fakeApi.requestsTo('GET', ORDERS_PATH).map((request) => Object.fromEntries(request.query));
const lastOrdersQuery = () => ordersQueries().at(-1);

async function openOrdersTab() {
  const view = renderApp('/admin');
  await screen.findByRole('heading', { level: 1, name: 'Admin Dashboard' }, { timeout: 5000 });
  return view;
}

const rowOf = async (name: string) =>
  within((await screen.findByRole('rowheader', { name: new RegExp(name) })).closest('tr') as HTMLElement);

/** Mantine's dropdown opens with a transition that never finishes under happy-dom; its options are found hidden. */
async function chooseEditor(view: ReturnType<typeof renderApp>, dialog: HTMLElement, name: string) {
  await view.user.click(within(dialog).getByRole('textbox', { name: /Editor/ }));
  await view.user.click(await screen.findByRole('option', { name, hidden: true }));
}

const phoneSizedWindow = () => {
  const { happyDOM } = window as unknown as {
    happyDOM: { setViewport(size: { width: number; height: number }): void };
  };
  happyDOM.setViewport({ width: 390, height: 844 });
  onTestFinished(() => happyDOM.setViewport({ width: 1024, height: 768 }));
};

describe('Admin orders tab', { timeout: 20_000 }, () => {
  beforeEach(() => {
    fakeFirebase.signInAs({ email: 'admin@example.com' });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView({ email: 'admin@example.com', roles: ['admin'] }) });
    fakeApi.on('GET', '/api/admin/users', { status: 200, body: { users: [] } });
    fakeApi.on('GET', ORDERS_PATH, listOf([harbourView, gardenFlat, inProgress, awaitingPayment, completed]));
    fakeApi.on('GET', '/api/admin/editors', {
      status: 200,
      body: {
        editors: [
          anEditor({ id: 'editor-zed', displayName: 'Zed Retoucher' }),
          anEditor({ id: 'editor-erin', displayName: 'Erin Editor' }),
          anEditor({ id: 'editor-invited', displayName: 'Ivy Invited', status: 'invited' }),
          anEditor({ id: 'editor-gone', displayName: 'Gus Gone', isActive: false }),
        ],
      },
    });
  });

  it('asks for the first 25 unassigned orders, newest first, and shows each one in the seven columns', async () => {
    await openOrdersTab();
    const row = await rowOf('Harbour View Loft');
    expect(lastOrdersQuery()).toEqual({ page: '1', limit: '25', assignmentFilter: 'unassigned', sortBy: 'newest' });
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toEqual([
      '',
      'Order',
      'Photographer',
      'Photos',
      'Status',
      'Editor',
      'Actions',
    ]);
    expect(row.getByRole('link', { name: 'Harbour View Loft' })).toHaveAttribute('href', '/orders/order-harbour');
    expect(row.getByText('Mar 5, 2025')).toBeInTheDocument();
    expect(row.getByText(/HDR/)).toBeInTheDocument();
    expect(row.getByText('Piper Lens')).toBeInTheDocument();
    expect(row.getByText('12')).toBeInTheDocument();
    expect(row.getByText('Paid')).toBeInTheDocument();
    expect(row.getByText('Unassigned')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Search' })).toHaveAttribute(
      'placeholder',
      'Search by photographer name or order name...',
    );
    expect(screen.getByRole('combobox', { name: 'Assignment' })).toHaveValue('unassigned');
    expect(screen.getByRole('combobox', { name: 'Sort by' })).toHaveValue('newest');
  });

  it('offers the three assignment filters and four sorts, and asks the server for each', async () => {
    const view = await openOrdersTab();
    await rowOf('Harbour View Loft');
    const filter = screen.getByRole('combobox', { name: 'Assignment' });
    const sort = screen.getByRole('combobox', { name: 'Sort by' });
    expect(
      within(filter)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Unassigned', 'Assigned', 'All Orders']);
    expect(
      within(sort)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Newest First', 'Oldest First', 'Most Photos', 'Photographer A-Z']);
    await view.user.selectOptions(filter, 'All Orders');
    await waitFor(() => expect(lastOrdersQuery()?.assignmentFilter).toBe('all'));
    await view.user.selectOptions(sort, 'Photographer A-Z');
    await waitFor(() => expect(lastOrdersQuery()?.sortBy).toBe('photographer'));
    await view.user.selectOptions(sort, 'Most Photos');
    await waitFor(() => expect(lastOrdersQuery()?.sortBy).toBe('most-photos'));
  });

  it('searches once the admin stops typing, not on every key', async () => {
    const view = await openOrdersTab();
    await rowOf('Harbour View Loft');
    const before = ordersQueries().length;
    await view.user.type(screen.getByRole('textbox', { name: 'Search' }), '  Piper Lens ');
    await waitFor(() => expect(lastOrdersQuery()?.searchTerm).toBe('Piper Lens'));
    // Thirteen keys typed; a busy machine may pause long enough mid-word for one early search, never one a key.
    const searches = ordersQueries().slice(before);
    expect(searches.length).toBeLessThanOrEqual(3);
    expect(searches.at(-1)).toEqual({
      page: '1',
      limit: '25',
      assignmentFilter: 'unassigned',
      sortBy: 'newest',
      searchTerm: 'Piper Lens',
    });
  });

  it('walks forward with each next cursor and back through the cursors it used, and starts again on a new filter', async () => {
    const pages: Record<string, AdminOrderView[]> = {
      first: [harbourView],
      'after-page-1': [gardenFlat],
      'after-page-2': [assignedPaid],
    };
    const cursors: Record<string, string | null> = {
      first: 'after-page-1',
      'after-page-1': 'after-page-2',
      'after-page-2': null,
    };
    fakeApi.on('GET', ORDERS_PATH, (request: RecordedRequest) => {
      const at = request.query.get('cursor') ?? 'first';
      return listOf(pages[at] ?? [], { total: 60, totalPages: 3, nextCursor: cursors[at] });
    });
    const view = await openOrdersTab();
    await rowOf('Harbour View Loft');
    const pagesNav = screen.getByRole('navigation', { name: 'Pages of orders' });
    expect(within(pagesNav).getByText('Showing 1 of 60 orders')).toBeInTheDocument();
    expect(within(pagesNav).getByText('Page 1 of 3')).toBeInTheDocument();
    expect(within(pagesNav).getByRole('button', { name: 'Previous' })).toBeDisabled();

    await view.user.click(within(pagesNav).getByRole('button', { name: 'Next' }));
    await rowOf('Garden Flat');
    expect(lastOrdersQuery()).toMatchObject({ page: '2', cursor: 'after-page-1' });
    await view.user.click(screen.getByRole('button', { name: 'Next' }));
    await rowOf('Assigned Attic');
    expect(lastOrdersQuery()).toMatchObject({ page: '3', cursor: 'after-page-2' });
    expect(screen.getByText('Page 3 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();

    await view.user.click(screen.getByRole('button', { name: 'Previous' }));
    await rowOf('Garden Flat');
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
    await view.user.click(screen.getByRole('button', { name: 'Previous' }));
    await rowOf('Harbour View Loft');
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();

    await view.user.click(screen.getByRole('button', { name: 'Next' }));
    await rowOf('Garden Flat');
    await view.user.selectOptions(screen.getByRole('combobox', { name: 'Sort by' }), 'Oldest First');
    await rowOf('Harbour View Loft');
    expect(lastOrdersQuery()).toEqual({ page: '1', limit: '25', assignmentFilter: 'unassigned', sortBy: 'oldest' });
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
  });

  it('says when a search is too broad to list every match, and not otherwise', async () => {
    fakeApi.on('GET', ORDERS_PATH, (request: RecordedRequest) =>
      listOf([harbourView], { moreMatches: request.query.get('searchTerm') === 'a' }),
    );
    const view = await openOrdersTab();
    await rowOf('Harbour View Loft');
    expect(screen.queryByText(/only some are listed/)).toBeNull();
    await view.user.type(screen.getByRole('textbox', { name: 'Search' }), 'a');
    expect(
      await screen.findByText(
        'Many orders match this search, so only some are listed: type more of the name or number to narrow it.',
      ),
    ).toBeInTheDocument();
  });

  it('shows no pages when every order fits on one', async () => {
    await openOrdersTab();
    await rowOf('Harbour View Loft');
    expect(screen.queryByRole('navigation', { name: 'Pages of orders' })).toBeNull();
    expect(screen.queryByText(/^Showing \d+ of/)).toBeNull();
  });

  it('lets only paid orders not yet started be ticked, and says why the others offer nothing', async () => {
    await openOrdersTab();
    expect(
      (await rowOf('Harbour View Loft')).getByRole('checkbox', { name: 'Select Harbour View Loft' }),
    ).toBeEnabled();
    const busy = await rowOf('Busy Bungalow');
    expect(busy.getByRole('checkbox', { name: 'Select Busy Bungalow' })).toBeDisabled();
    expect(busy.getAllByText('In Progress')).toHaveLength(2);
    expect(busy.queryByRole('button', { name: /Assign|Unassign/ })).toBeNull();
    expect(busy.queryByRole('button', { name: /More actions/ })).toBeNull();
    const unpaid = await rowOf('Unpaid Cottage');
    expect(unpaid.getByRole('checkbox')).toBeDisabled();
    expect(unpaid.getByText('Awaiting payment')).toBeInTheDocument();
    expect(unpaid.getByRole('button', { name: 'More actions for Unpaid Cottage' })).toBeInTheDocument();
    const done = await rowOf('Done Duplex');
    expect(done.getByRole('checkbox')).toBeDisabled();
    expect(done.getByText('Erin Editor')).toBeInTheDocument();
  });

  it('on the Assigned filter offers Unassign and no ticking', async () => {
    fakeApi.on('GET', ORDERS_PATH, (request: RecordedRequest) =>
      listOf(request.query.get('assignmentFilter') === 'assigned' ? [assignedPaid, inProgress] : [harbourView]),
    );
    const view = await openOrdersTab();
    await rowOf('Harbour View Loft');
    await view.user.selectOptions(screen.getByRole('combobox', { name: 'Assignment' }), 'Assigned');
    const assigned = await rowOf('Assigned Attic');
    expect(assigned.getByRole('checkbox')).toBeDisabled();
    expect(assigned.getByRole('button', { name: 'Unassign Assigned Attic' })).toBeInTheDocument();
    expect(assigned.queryByRole('button', { name: /^(Assign|Reassign) / })).toBeNull();
    expect(screen.getByRole('checkbox', { name: 'Select all orders on this page' })).toBeDisabled();
  });

  it('selects every selectable order on the page with select-all, and clears them again', async () => {
    const view = await openOrdersTab();
    await rowOf('Harbour View Loft');
    const selectAll = screen.getByRole('checkbox', { name: 'Select all orders on this page' });
    await view.user.click(selectAll);
    expect(screen.getByRole('checkbox', { name: 'Select Harbour View Loft' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Select Garden Flat' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Select Busy Bungalow' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Select Unpaid Cottage' })).not.toBeChecked();
    expect(
      within(screen.getByRole('region', { name: 'Selected orders' })).getByText('2 orders selected'),
    ).toBeInTheDocument();

    await view.user.click(selectAll);
    expect(screen.getByRole('checkbox', { name: 'Select Harbour View Loft' })).not.toBeChecked();
    expect(screen.queryByRole('region', { name: 'Selected orders' })).toBeNull();
  });

  it('bulk-assigns the ticked orders to a chosen editor, toasts the server message, clears the ticks and refreshes', async () => {
    let assigned = false;
    fakeApi.on('POST', '/api/orders/admin/bulk-assign', () => {
      assigned = true;
      return {
        status: 200,
        body: {
          message: 'Assigned 1 of 2 orders. Not assigned: #12 (already in progress)',
          assigned: ['order-harbour'],
          notAssigned: [{ orderId: 'order-garden', orderNumber: 12, reason: 'already in progress' }],
        },
      };
    });
    fakeApi.on('GET', ORDERS_PATH, () => listOf(assigned ? [gardenFlat] : [harbourView, gardenFlat]));
    const view = await openOrdersTab();
    await view.user.click((await rowOf('Harbour View Loft')).getByRole('checkbox'));
    await view.user.click((await rowOf('Garden Flat')).getByRole('checkbox'));
    await view.user.click(screen.getByRole('button', { name: 'Bulk Assign' }));
    const dialog = await screen.findByRole('dialog', { name: 'Bulk Assign Orders' });

    await view.user.click(within(dialog).getByRole('button', { name: 'Assign 2 orders' }));
    expect(await within(dialog).findByText('Please select an editor')).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', '/api/orders/admin/bulk-assign')).toHaveLength(0);

    await view.user.click(within(dialog).getByRole('textbox', { name: /Editor/ }));
    expect(await screen.findByRole('option', { name: 'Erin Editor', hidden: true })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'Zed Retoucher', hidden: true })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Ivy Invited', hidden: true })).toBeNull();
    expect(screen.queryByRole('option', { name: 'Gus Gone', hidden: true })).toBeNull();
    await view.user.click(screen.getByRole('option', { name: 'Erin Editor', hidden: true }));
    await view.user.click(within(dialog).getByRole('button', { name: 'Assign 2 orders' }));

    expect(
      await screen.findByText('Assigned 1 of 2 orders. Not assigned: #12 (already in progress)'),
    ).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', '/api/orders/admin/bulk-assign')[0]?.body).toEqual({
      orderIds: ['order-harbour', 'order-garden'],
      editorId: 'editor-erin',
    });
    await waitFor(() => expect(screen.queryByRole('rowheader', { name: /Harbour View Loft/ })).toBeNull());
    expect(screen.getByRole('checkbox', { name: 'Select Garden Flat' })).not.toBeChecked();
    expect(screen.queryByRole('region', { name: 'Selected orders' })).toBeNull();
  });

  it("says 'Failed to bulk assign orders' when the server gives no words, else the server's", async () => {
    fakeApi.on('POST', '/api/orders/admin/bulk-assign', { status: 500 });
    const view = await openOrdersTab();
    await view.user.click((await rowOf('Harbour View Loft')).getByRole('checkbox'));
    await view.user.click(screen.getByRole('button', { name: 'Bulk Assign' }));
    const dialog = await screen.findByRole('dialog', { name: 'Bulk Assign Orders' });
    await chooseEditor(view, dialog, 'Erin Editor');
    await view.user.click(within(dialog).getByRole('button', { name: 'Assign 1 order' }));
    expect(await screen.findByText('Failed to bulk assign orders')).toBeInTheDocument();

    fakeApi.on('POST', '/api/orders/admin/bulk-assign', {
      status: 400,
      body: { error: 'BAD_REQUEST', message: 'At most 100 orders at a time' },
    });
    await view.user.click(within(dialog).getByRole('button', { name: 'Assign 1 order' }));
    expect(await screen.findByText('At most 100 orders at a time')).toBeInTheDocument();
  });

  it('assigns one order from its row to a verified editor and says so', async () => {
    fakeApi.on('PATCH', '/api/orders/admin/order-harbour/assign', {
      status: 200,
      body: { ...harbourView, editor: erin, assignment: 'assigned' },
    });
    const view = await openOrdersTab();
    await view.user.click((await rowOf('Harbour View Loft')).getByRole('button', { name: 'Assign Harbour View Loft' }));
    const dialog = await screen.findByRole('dialog', { name: 'Assign Harbour View Loft' });
    await view.user.click(within(dialog).getByRole('button', { name: 'Assign' }));
    expect(await within(dialog).findByText('Please select an editor')).toBeInTheDocument();
    await chooseEditor(view, dialog, 'Zed Retoucher');
    await view.user.click(within(dialog).getByRole('button', { name: 'Assign' }));
    expect(await screen.findByText('Order assigned successfully')).toBeInTheDocument();
    expect(fakeApi.requestsTo('PATCH', '/api/orders/admin/order-harbour/assign')[0]?.body).toEqual({
      editorId: 'editor-zed',
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Assign Harbour View Loft' })).toBeNull());
    await waitFor(() => expect(ordersQueries().length).toBeGreaterThan(1));
  });

  it("says 'Failed to assign order' when the assignment fails without the server's words", async () => {
    fakeApi.on('PATCH', '/api/orders/admin/order-harbour/assign', { status: 502 });
    const view = await openOrdersTab();
    await view.user.click((await rowOf('Harbour View Loft')).getByRole('button', { name: 'Assign Harbour View Loft' }));
    const dialog = await screen.findByRole('dialog', { name: 'Assign Harbour View Loft' });
    await chooseEditor(view, dialog, 'Erin Editor');
    await view.user.click(within(dialog).getByRole('button', { name: 'Assign' }));
    expect(await screen.findByText('Failed to assign order')).toBeInTheDocument();
  });

  it('unassigns an order only after the admin confirms', async () => {
    fakeApi.on('GET', ORDERS_PATH, listOf([assignedPaid]));
    fakeApi.on('DELETE', '/api/orders/admin/order-assigned/unassign', { status: 200, body: assignedPaid });
    const view = await openOrdersTab();
    const row = await rowOf('Assigned Attic');
    await view.user.click(row.getByRole('button', { name: 'Unassign Assigned Attic' }));
    let dialog = await screen.findByRole('dialog', { name: 'Unassign order' });
    expect(
      within(dialog).getByText(/Are you sure you want to unassign Assigned Attic from Erin Editor\?/),
    ).toBeInTheDocument();
    await view.user.click(within(dialog).getByRole('button', { name: 'Keep assignment' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Unassign order' })).toBeNull());
    expect(fakeApi.requestsTo('DELETE', '/api/orders/admin/order-assigned/unassign')).toHaveLength(0);

    await view.user.click(row.getByRole('button', { name: 'Unassign Assigned Attic' }));
    dialog = await screen.findByRole('dialog', { name: 'Unassign order' });
    await view.user.click(within(dialog).getByRole('button', { name: 'Unassign' }));
    expect(await screen.findByText('Order unassigned successfully')).toBeInTheDocument();
    expect(fakeApi.requestsTo('DELETE', '/api/orders/admin/order-assigned/unassign')).toHaveLength(1);
  });

  it("says 'Failed to unassign order' when the server gives no words", async () => {
    fakeApi.on('GET', ORDERS_PATH, listOf([assignedPaid]));
    fakeApi.on('DELETE', '/api/orders/admin/order-assigned/unassign', { status: 500 });
    const view = await openOrdersTab();
    await view.user.click((await rowOf('Assigned Attic')).getByRole('button', { name: 'Unassign Assigned Attic' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unassign order' });
    await view.user.click(within(dialog).getByRole('button', { name: 'Unassign' }));
    expect(await screen.findByText('Failed to unassign order')).toBeInTheDocument();
  });

  it('cancels a paid order after a confirm that names the full refund, and toasts what was refunded', async () => {
    fakeApi.on('POST', '/api/orders/admin/order-harbour/cancel', {
      status: 200,
      body: { order: { ...harbourView, status: 'cancelled', canCancel: false }, refundedAmountCents: 9600 },
    });
    const view = await openOrdersTab();
    await view.user.click(
      (await rowOf('Harbour View Loft')).getByRole('button', { name: 'More actions for Harbour View Loft' }),
    );
    await view.user.click(await screen.findByRole('menuitem', { name: 'Cancel order', hidden: true }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel order' });
    expect(within(dialog).getByText(/refunded in full \(\$96\.00\)\. This cannot be undone\./)).toBeInTheDocument();
    await view.user.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
    expect(await screen.findByText('Order cancelled and $96.00 refunded')).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', '/api/orders/admin/order-harbour/cancel')).toHaveLength(1);
  });

  it('cancels an unpaid order with nothing to refund', async () => {
    fakeApi.on('POST', '/api/orders/admin/order-unpaid/cancel', {
      status: 200,
      body: { order: { ...awaitingPayment, status: 'cancelled' }, refundedAmountCents: 0 },
    });
    const view = await openOrdersTab();
    await view.user.click(
      (await rowOf('Unpaid Cottage')).getByRole('button', { name: 'More actions for Unpaid Cottage' }),
    );
    await view.user.click(await screen.findByRole('menuitem', { name: 'Cancel order', hidden: true }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel order' });
    expect(within(dialog).getByText(/nothing is refunded/)).toBeInTheDocument();
    await view.user.click(within(dialog).getByRole('button', { name: 'Keep order' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Cancel order' })).toBeNull());
    expect(fakeApi.requestsTo('POST', '/api/orders/admin/order-unpaid/cancel')).toHaveLength(0);
  });

  it('says no orders match when the list is empty', async () => {
    fakeApi.on('GET', ORDERS_PATH, listOf([]));
    await openOrdersTab();
    expect(await screen.findByRole('heading', { name: 'No orders found matching your filters.' })).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('says the orders could not be loaded, with the server reason', async () => {
    fakeApi.on('GET', ORDERS_PATH, {
      status: 400,
      body: { error: 'BAD_REQUEST', message: 'Search terms must be at most 100 characters' },
    });
    await openOrdersTab();
    expect(await screen.findByText('Orders could not be loaded')).toBeInTheDocument();
    expect(screen.getByText('Search terms must be at most 100 characters')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('shows cards with the same facts and actions on a phone', async () => {
    phoneSizedWindow();
    const view = await openOrdersTab();
    const list = await screen.findByRole('list', { name: 'Orders' });
    expect(screen.queryByRole('table')).toBeNull();
    const card = within(within(list).getByText('Harbour View Loft').closest('li') as HTMLElement);
    expect(card.getByText('Piper Lens')).toBeInTheDocument();
    expect(card.getByText('Unassigned')).toBeInTheDocument();
    expect(card.getByText(/12 photos/)).toBeInTheDocument();
    await view.user.click(screen.getByRole('checkbox', { name: 'Select all orders on this page' }));
    expect(card.getByRole('checkbox', { name: 'Select Harbour View Loft' })).toBeChecked();
    expect(screen.getByText('2 orders selected')).toBeInTheDocument();
  });
});
