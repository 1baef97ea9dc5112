import type { AdminEditorStatsView, AdminEditorView, EditorPayoutsResponse } from '@marketplace/events/admin';
import type { JobTypeView } from '@marketplace/events/job-types';
import type { EarningView } from '@marketplace/events/payouts';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi, type RecordedRequest } from '../../../../test/fake-api';
import { fakeFirebase } from '../../../../test/fake-firebase-auth';
import { aMeView } from '../../../../test/me-view';
import { renderApp } from '../../../../test/render-app';

const jobTypes: JobTypeView[] = [
  {
    id: 'hdr',
    name: 'HDR',
    description: 'Bracketed exposures blended',
    pricePerPhotoCents: 800,
    defaultEditorPriceCents: 250,
    tierSurchargeCents: { express: 0, rush: 0 },
    isActive: true,
    createdAt: '2025-01-01T00:00:00.000Z',
  },
  {
    id: 'twilight',
    name: 'Virtual Twilight',
    description: null,
    pricePerPhotoCents: 1500,
    defaultEditorPriceCents: 400,
    tierSurchargeCents: { express: 0, rush: 0 },
    isActive: true,
    createdAt: '2025-01-01T00:00:00.000Z',
  },
];

const anEditor = (fields: Partial<AdminEditorView> = {}): AdminEditorView => ({
  id: 'editor-1',
  email: 'erin@example.com',
  displayName: 'Erin Editor',
  status: 'verified',
  invitedAt: '2025-03-05T12:00:00.000Z',
  createdAt: '2025-03-06T12:00:00.000Z',
  isActive: true,
  rates: [
    {
      id: 'rate-1',
      jobTypeId: 'hdr',
      jobTypeName: 'HDR',
      jobTypeDescription: 'Bracketed exposures blended',
      ratePerPhotoCents: 275,
    },
  ],
  pendingPayoutCents: 4_250,
  paidOutCents: 10_000,
  payoutAccount: { status: 'not_set_up', requirements: [], disabledReason: null, updatedAt: null },
  ...fields,
});

const erin = anEditor();
const ivan = anEditor({
  id: 'editor-2',
  email: 'ivan@example.com',
  displayName: null,
  status: 'invited',
  rates: [],
  pendingPayoutCents: 0,
  paidOutCents: 0,
});
const sue = anEditor({ id: 'editor-3', email: 'sue@example.com', displayName: 'Sue Spended', status: 'suspended' });

const ratedStats: AdminEditorStatsView = {
  averageRating: 8.5,
  ratingCount: 12,
  averageTurnaroundHours: 26.25,
  completedOrders: 14,
  activeOrders: 2,
};
const emptyStats: AdminEditorStatsView = {
  averageRating: null,
  ratingCount: 0,
  averageTurnaroundHours: null,
  completedOrders: 0,
  activeOrders: 0,
};

const erinPayouts: EditorPayoutsResponse = {
  payouts: [
    {
      id: 'payout-1',
      amountCents: 10_000,
      paidAt: '2025-04-01T09:00:00.000Z',
      note: 'April transfer',
      recordedBy: 'admin-1',
    },
  ],
  pendingPayoutCents: 4_250,
  paidOutCents: 10_000,
  nextCursor: null,
};

async function openEditorsTab() {
  const view = renderApp('/admin?tab=editors');
  // The tab's code loads on demand; the first load in a run can take a while.
  await screen.findByRole('list', { name: 'Editors' }, { timeout: 15_000 });
  return view;
}

/** The editors route's answer when every editor fits on one page. */
const onePage = (editors: AdminEditorView[]) => ({
  editors,
  total: editors.length,
  totalPages: editors.length ? 1 : 0,
  page: 1,
  nextCursor: null,
});

const editorCard = (name: string) =>
  within(screen.getByRole('list', { name: 'Editors' })).getByRole('listitem', { name: name });

describe('Editor Management tab', () => {
  beforeEach(() => {
    fakeFirebase.signInAs({ email: 'ada@example.com' });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView({ email: 'ada@example.com', roles: ['admin'] }) });
    fakeApi.on('GET', '/api/admin/users', {
      status: 200,
      body: { users: [], total: 0, totalPages: 0, page: 1, nextCursor: null },
    });
    fakeApi.on('GET', '/api/admin/job-types', { status: 200, body: jobTypes });
    fakeApi.on('GET', '/api/admin/editors', { status: 200, body: onePage([erin, ivan, sue]) });
    fakeApi.on('GET', '/api/admin/editors/editor-1/stats', { status: 200, body: ratedStats });
    fakeApi.on('GET', '/api/admin/editors/editor-2/stats', { status: 200, body: emptyStats });
    fakeApi.on('GET', '/api/admin/editors/editor-3/stats', { status: 200, body: emptyStats });
    fakeApi.on('GET', '/api/admin/editors/editor-1/payouts', { status: 200, body: erinPayouts });
  });

  it('shows each editor by name or else email, with email, status, invited date and rates', async () => {
    await openEditorsTab();
    const card = editorCard('Erin Editor');
    expect(within(card).getByText('erin@example.com')).toBeInTheDocument();
    expect(within(card).getByText('verified')).toBeInTheDocument();
    expect(within(card).getByText('Invited Mar 5, 2025')).toBeInTheDocument();
    const rates = within(card).getByRole('table', { name: 'Rates of Erin Editor' });
    expect(within(rates).getByText('HDR')).toBeInTheDocument();
    expect(within(rates).getByText('$2.75')).toBeInTheDocument();
    expect(within(card).getByText('$42.50')).toBeInTheDocument();

    const invited = editorCard('ivan@example.com');
    expect(within(invited).getByText('invited')).toBeInTheDocument();
    expect(within(invited).getByText('No rates set')).toBeInTheDocument();
  });

  it('colours verified green, invited yellow and any other status red', async () => {
    await openEditorsTab();
    const colourOf = (name: string, status: string) =>
      within(editorCard(name)).getByText(status).closest('.mantine-Badge-root')?.getAttribute('style') ?? '';
    expect(colourOf('Erin Editor', 'verified')).toContain('green');
    expect(colourOf('ivan@example.com', 'invited')).toContain('yellow');
    expect(colourOf('Sue Spended', 'suspended')).toContain('red');
  });

  it("shows the rating out of ten with its count and the turnaround in hours, or 'No ratings' and 'No data'", async () => {
    await openEditorsTab();
    const rated = within(editorCard('Erin Editor')).getByRole('group', { name: 'Performance' });
    expect(await within(rated).findByText('8.5/10 (12 ratings)')).toBeInTheDocument();
    expect(within(rated).getByText('26.3 h')).toBeInTheDocument();
    const unrated = within(editorCard('ivan@example.com')).getByRole('group', { name: 'Performance' });
    expect(await within(unrated).findByText('No ratings')).toBeInTheDocument();
    expect(within(unrated).getByText('No data')).toBeInTheDocument();
  });

  it('pages the editors with Next and Previous, asking the server for the page after the cursor', async () => {
    const many = Array.from({ length: 23 }, (_, i) => ({
      ...ivan,
      id: `many-${i}`,
      email: `editor${String(i).padStart(2, '0')}@example.com`,
    }));
    fakeApi.on('GET', '/api/admin/editors', (request) => {
      const start = Number(request.query.get('cursor') ?? 0);
      const limit = Number(request.query.get('limit'));
      return {
        status: 200,
        body: {
          editors: many.slice(start, start + limit),
          total: many.length,
          totalPages: Math.ceil(many.length / limit),
          page: Number(request.query.get('page')),
          nextCursor: start + limit < many.length ? String(start + limit) : null,
        },
      };
    });
    const { user } = await openEditorsTab();
    const cards = () => within(screen.getByRole('list', { name: 'Editors' })).getAllByRole('listitem');
    expect(cards()).toHaveLength(20);
    const pages = screen.getByRole('navigation', { name: 'Pages of editors' });
    expect(within(pages).getByText('Showing 20 of 23 editors')).toBeInTheDocument();
    await user.click(within(pages).getByRole('button', { name: 'Next' }));
    expect(await within(pages).findByText('Page 2 of 2')).toBeInTheDocument();
    expect(cards()).toHaveLength(3);
    for (const email of ['editor20@example.com', 'editor21@example.com', 'editor22@example.com']) {
      expect(editorCard(email)).toBeInTheDocument();
    }
    expect(fakeApi.requestsTo('GET', '/api/admin/editors').at(-1)?.query.get('cursor')).toBe('20');
    await user.click(within(pages).getByRole('button', { name: 'Previous' }));
    expect(await within(pages).findByText('Page 1 of 2')).toBeInTheDocument();
  });

  it('says so when there are no editors', async () => {
    fakeApi.on('GET', '/api/admin/editors', { status: 200, body: onePage([]) });
    renderApp('/admin?tab=editors');
    expect(
      await screen.findByText('No editors found. Invite some editors to get started!', {}, { timeout: 8000 }),
    ).toBeInTheDocument();
  });

  it('says so when the editors cannot be loaded', async () => {
    fakeApi.on('GET', '/api/admin/editors', { status: 403, body: { error: 'FORBIDDEN', message: 'Admins only' } });
    renderApp('/admin?tab=editors');
    expect(await screen.findByText('Admins only', {}, { timeout: 8000 })).toBeInTheDocument();
  });

  it('replaces all of the editor’s rates from the Edit Editor Rates dialog and refreshes the list', async () => {
    fakeApi.on('PUT', '/api/admin/editors/editor-1/rates', { status: 200, body: {} });
    const { user } = await openEditorsTab();
    await user.click(within(editorCard('Erin Editor')).getByRole('button', { name: 'Edit All Rates' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Editor Rates' });
    const rows = () => within(within(dialog).getByRole('list', { name: 'Job type rates' })).getAllByRole('listitem');
    expect(within(rows().at(0) as HTMLElement).getByRole('textbox', { name: 'Rate per photo' })).toHaveValue('2.75');
    await user.click(within(dialog).getByRole('button', { name: 'Add Job Type Rate' }));
    expect(within(rows().at(1) as HTMLElement).getByRole('textbox', { name: 'Rate per photo' })).toHaveValue('4.00');
    await user.click(within(dialog).getByRole('button', { name: 'Remove HDR' }));
    const editorListReads = fakeApi.requestsTo('GET', '/api/admin/editors').length;
    await user.click(within(dialog).getByRole('button', { name: 'Save Rates' }));

    expect(await screen.findByText('Editor rates updated successfully!')).toBeInTheDocument();
    expect(fakeApi.requestsTo('PUT', '/api/admin/editors/editor-1/rates')[0]?.body).toEqual({
      jobTypeRates: [{ jobTypeId: 'twilight', ratePerPhotoCents: 400 }],
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit Editor Rates' })).toBeNull());
    await waitFor(() =>
      expect(fakeApi.requestsTo('GET', '/api/admin/editors').length).toBeGreaterThan(editorListReads),
    );
  });

  it("shows the server's message, else 'Failed to update editor rates', and keeps the dialog open", async () => {
    fakeApi.on('PUT', '/api/admin/editors/editor-1/rates', { status: 500 });
    const { user } = await openEditorsTab();
    await user.click(within(editorCard('Erin Editor')).getByRole('button', { name: 'Edit All Rates' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Editor Rates' });
    await user.click(within(dialog).getByRole('button', { name: 'Save Rates' }));
    expect(await screen.findByText('Failed to update editor rates')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Edit Editor Rates' })).toBeInTheDocument();
  });

  it('records a payout of at most what is pending, once per dialog, and shows the history', async () => {
    fakeApi.on('POST', '/api/admin/editors/editor-1/payouts', {
      status: 201,
      body: {
        id: 'payout-2',
        amountCents: 2_000,
        paidAt: '2025-05-01T09:00:00.000Z',
        note: 'May',
        recordedBy: 'admin-1',
      },
    });
    const { user } = await openEditorsTab();
    await user.click(within(editorCard('Erin Editor')).getByRole('button', { name: 'Record Payout' }));
    const dialog = await screen.findByRole('dialog', { name: 'Record Payout' });
    const history = await within(dialog).findByRole('table', { name: 'Payout history' });
    expect(within(history).getByText('April transfer')).toBeInTheDocument();
    expect(within(history).getByText('$100.00')).toBeInTheDocument();

    const amount = within(dialog).getByRole('textbox', { name: /Amount/ });
    expect(amount).toHaveValue('42.50');
    await user.clear(amount);
    await user.type(amount, '50');
    expect(within(dialog).getByText('At most $42.50 is pending')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Record Payout' })).toBeDisabled();

    await user.clear(amount);
    await user.type(amount, '20');
    await user.type(within(dialog).getByRole('textbox', { name: /Note/ }), 'May');
    await user.click(within(dialog).getByRole('button', { name: 'Record Payout' }));
    expect(await screen.findByText('Payout of $20.00 recorded')).toBeInTheDocument();
    const [payout] = fakeApi.requestsTo('POST', '/api/admin/editors/editor-1/payouts');
    expect(payout?.body).toEqual({
      amountCents: 2_000,
      note: 'May',
      payoutId: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
    });
  });

  it('shows older payouts a page at a time when asked, following the cursor', async () => {
    const payout = (id: string, note: string) => ({
      id,
      amountCents: 1_000,
      paidAt: '2025-03-01T09:00:00.000Z',
      note,
      recordedBy: null,
    });
    fakeApi.on('GET', '/api/admin/editors/editor-1/payouts', (request: RecordedRequest) => ({
      status: 200,
      body: {
        ...erinPayouts,
        ...(request.query.get('cursor') === 'before-april'
          ? { payouts: [payout('payout-0', 'March transfer')], nextCursor: null }
          : { nextCursor: 'before-april' }),
      },
    }));
    const { user } = await openEditorsTab();
    await user.click(within(editorCard('Erin Editor')).getByRole('button', { name: 'Record Payout' }));
    const dialog = await screen.findByRole('dialog', { name: 'Record Payout' });
    const history = await within(dialog).findByRole('table', { name: 'Payout history' });
    expect(within(history).queryByText('March transfer')).toBeNull();

    await user.click(within(dialog).getByRole('button', { name: 'Show older payouts' }));

    expect(await within(history).findByText('March transfer')).toBeInTheDocument();
    expect(within(history).getByText('April transfer')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Show older payouts' })).toBeNull();
  });

  it("shows the server's refusal when more is paid out than is pending", async () => {
    fakeApi.on('POST', '/api/admin/editors/editor-1/payouts', {
      status: 409,
      body: { error: 'CONFLICT', message: 'Only $12.00 is pending for this editor' },
    });
    const { user } = await openEditorsTab();
    await user.click(within(editorCard('Erin Editor')).getByRole('button', { name: 'Record Payout' }));
    const dialog = await screen.findByRole('dialog', { name: 'Record Payout' });
    await within(dialog).findByRole('table', { name: 'Payout history' });
    await user.click(within(dialog).getByRole('button', { name: 'Record Payout' }));
    expect(await screen.findByText('Only $12.00 is pending for this editor')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Record Payout' })).toBeEnabled();
  });

  it('sends the same payout id when a failed payout is tried again', async () => {
    fakeApi.on('POST', '/api/admin/editors/editor-1/payouts', { status: 503 });
    const { user } = await openEditorsTab();
    await user.click(within(editorCard('Erin Editor')).getByRole('button', { name: 'Record Payout' }));
    const dialog = await screen.findByRole('dialog', { name: 'Record Payout' });
    await user.click(within(dialog).getByRole('button', { name: 'Record Payout' }));
    expect(await screen.findByText('Failed to record payout')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Record Payout' }));
    await waitFor(() => expect(fakeApi.requestsTo('POST', '/api/admin/editors/editor-1/payouts')).toHaveLength(2));
    const [first, second] = fakeApi.requestsTo('POST', '/api/admin/editors/editor-1/payouts');
    expect((second?.body as { payoutId: string }).payoutId).toBe((first?.body as { payoutId: string }).payoutId);
  });
});

describe("Editor Management's payouts through Stripe", () => {
  const paidByStripe = anEditor({
    id: 'editor-4',
    email: 'paula@example.com',
    displayName: 'Paula Payouts',
    payoutAccount: { status: 'enabled', requirements: [], disabledReason: null, updatedAt: '2026-11-20T10:00:00.000Z' },
  });
  const needsDetails = anEditor({
    id: 'editor-5',
    email: 'nell@example.com',
    displayName: 'Nell Needs',
    payoutAccount: {
      status: 'needs_info',
      requirements: ['bank account'],
      disabledReason: null,
      updatedAt: '2026-11-20T10:00:00.000Z',
    },
  });
  const earning = (n: number, fields: Partial<EarningView> = {}): EarningView => ({
    orderId: `order-${n}`,
    orderNumber: 1000 + n,
    orderName: null,
    amountCents: 450,
    state: 'transferred',
    releaseAt: '2026-11-10T10:00:00.000Z',
    holdReason: null,
    lastError: null,
    nextAttemptAt: null,
    transferId: `tr_${n}`,
    transferredAt: '2026-11-11T10:00:00.000Z',
    payoutId: null,
    paidOutAt: null,
    paidByHandCents: 0,
    reversedAt: null,
    bookedAt: '2026-11-03T10:00:00.000Z',
    ...fields,
  });

  beforeEach(() => {
    fakeFirebase.signInAs({ email: 'ada@example.com' });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView({ email: 'ada@example.com', roles: ['admin'] }) });
    fakeApi.on('GET', '/api/admin/job-types', { status: 200, body: jobTypes });
    fakeApi.on('GET', '/api/admin/editors', { status: 200, body: onePage([paidByStripe, needsDetails]) });
    for (const id of ['editor-4', 'editor-5']) {
      fakeApi.on('GET', `/api/admin/editors/${id}/stats`, { status: 200, body: emptyStats });
    }
  });

  it("shows each editor's payout account, and pays by hand only those Stripe does not pay", async () => {
    await openEditorsTab();
    const paula = editorCard('Paula Payouts');
    expect(within(paula).getByText('Payouts enabled')).toBeInTheDocument();
    expect(within(paula).getByText('Paid through Stripe as each revision window closes.')).toBeInTheDocument();
    expect(within(paula).getByRole('button', { name: 'Record Payout' })).toBeDisabled();
    const nell = editorCard('Nell Needs');
    expect(within(nell).getByText('Stripe needs details')).toBeInTheDocument();
    expect(within(nell).getByText('Stripe still needs: bank account.')).toBeInTheDocument();
    expect(within(nell).getByRole('button', { name: 'Record Payout' })).toBeEnabled();
  });

  it("lists an editor's transfers with Stripe's reason for a refused one, a page at a time", async () => {
    fakeApi.on('GET', '/api/admin/editors/editor-4/earnings', (request) =>
      request.query.get('cursor') === 'older'
        ? { status: 200, body: { earnings: [earning(1, { state: 'paid_out', payoutId: 'po_1' })], nextCursor: null } }
        : {
            status: 200,
            body: {
              earnings: [
                earning(3, {
                  state: 'due',
                  transferId: null,
                  transferredAt: null,
                  lastError: "The platform's Stripe balance is too low for this transfer.",
                  nextAttemptAt: '2026-11-28T12:00:00.000Z',
                }),
                earning(2),
              ],
              nextCursor: 'older',
            },
          },
    );
    const { user } = await openEditorsTab();
    await user.click(within(editorCard('Paula Payouts')).getByRole('button', { name: 'Transfers' }));
    const dialog = await screen.findByRole('dialog', { name: 'Transfers of Paula Payouts' });
    const table = await within(dialog).findByRole('table', { name: 'Earnings of Paula Payouts' });
    const rows = within(table).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('Order #1003');
    expect(rows[1]).toHaveTextContent("The platform's Stripe balance is too low for this transfer.");
    expect(rows[2]).toHaveTextContent('Sent to Stripe');
    expect(within(dialog).getByText('Transfers refused')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Show more' }));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    expect(within(table).getAllByRole('row')[3]).toHaveTextContent('Paid out');
  });
});
