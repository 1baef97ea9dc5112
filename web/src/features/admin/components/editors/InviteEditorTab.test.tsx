import type { JobTypeView } from '@marketplace/events/job-types';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { apiRequests, fakeApi } from '../../../../test/fake-api';
import { fakeFirebase } from '../../../../test/fake-firebase-auth';
import { aMeView } from '../../../../test/me-view';
import { renderApp } from '../../../../test/render-app';

const aJobType = (fields: Partial<JobTypeView>): JobTypeView => ({
  id: 'job-type',
  name: 'Job type',
  description: null,
  pricePerPhotoCents: 800,
  defaultEditorPriceCents: 250,
  tierSurchargeCents: { express: 0, rush: 0 },
  isActive: true,
  createdAt: '2025-01-01T00:00:00.000Z',
  ...fields,
});

const jobTypes = [
  aJobType({ id: 'hdr', name: 'HDR', defaultEditorPriceCents: 250 }),
  aJobType({ id: 'twilight', name: 'Virtual Twilight', defaultEditorPriceCents: 400 }),
  aJobType({ id: 'retired', name: 'Retired Service', isActive: false }),
];

async function openInviteTab() {
  const view = renderApp('/admin?tab=invite');
  await screen.findByRole('form', { name: 'Invite editor' }, { timeout: 8000 });
  return view;
}

const rateRows = () => within(screen.getByRole('list', { name: 'Job type rates' })).getAllByRole('listitem');
const rateRow = (index: number) => {
  const row = rateRows()[index];
  if (!row) throw new Error(`no rate row ${index + 1}`);
  return row;
};
const addRate = () => screen.getByRole('button', { name: 'Add Job Type Rate' });
const sendButton = () => screen.getByRole('button', { name: 'Send Invitation' });

describe('Invite Editors tab', () => {
  beforeEach(() => {
    fakeFirebase.signInAs({ email: 'ada@example.com' });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView({ email: 'ada@example.com', roles: ['admin'] }) });
    fakeApi.on('GET', '/api/admin/job-types', { status: 200, body: jobTypes });
    fakeApi.on('GET', '/api/admin/users', { status: 200, body: { users: [] } });
  });

  it('introduces the form and asks for a job type before it can be sent', async () => {
    await openInviteTab();
    expect(screen.getByRole('heading', { name: 'Invite New Editor' })).toBeInTheDocument();
    expect(screen.getByText('Send an invitation to a new photo editor')).toBeInTheDocument();
    expect(screen.getByText('Please select at least one job type')).toBeInTheDocument();
    expect(sendButton()).toBeDisabled();
  });

  it('adds the first unused active job type at its default editor price, and no more once all are used', async () => {
    const { user } = await openInviteTab();
    await user.click(addRate());
    expect(rateRows()).toHaveLength(1);
    expect(within(rateRow(0)).getByRole('combobox', { name: 'Job type' })).toHaveValue('hdr');
    expect(within(rateRow(0)).getByRole('textbox', { name: 'Rate per photo' })).toHaveValue('2.50');
    expect(screen.queryByText('Please select at least one job type')).toBeNull();
    expect(sendButton()).toBeEnabled();

    await user.click(addRate());
    expect(within(rateRow(1)).getByRole('combobox', { name: 'Job type' })).toHaveValue('twilight');
    expect(within(rateRow(1)).getByRole('textbox', { name: 'Rate per photo' })).toHaveValue('4.00');
    expect(addRate()).toBeDisabled();
  });

  it('offers each job type in one row only, and resets the rate to the chosen type’s default', async () => {
    const { user } = await openInviteTab();
    await user.click(addRate());
    const row = rateRow(0);
    const rate = within(row).getByRole('textbox', { name: 'Rate per photo' });
    await user.clear(rate);
    await user.type(rate, '9');
    await user.selectOptions(within(row).getByRole('combobox', { name: 'Job type' }), 'twilight');
    expect(within(rateRow(0)).getByRole('textbox', { name: 'Rate per photo' })).toHaveValue('4.00');

    await user.click(addRate());
    const secondOptions = within(within(rateRow(1)).getByRole('combobox', { name: 'Job type' }))
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(secondOptions).toEqual(['HDR']);
  });

  it('removes a rate row, and asks for a job type again when none is left', async () => {
    const { user } = await openInviteTab();
    await user.click(addRate());
    await user.click(screen.getByRole('button', { name: 'Remove HDR' }));
    expect(screen.queryByRole('list', { name: 'Job type rates' })).toBeNull();
    expect(screen.getByText('Please select at least one job type')).toBeInTheDocument();
    expect(sendButton()).toBeDisabled();
  });

  it('sends the email, name and rates in cents and says the invitation was sent', async () => {
    fakeApi.on('GET', '/api/admin/check-email/new.editor%40example.com', {
      status: 200,
      body: { email: 'new.editor@example.com', available: true, reason: null },
    });
    fakeApi.on('POST', '/api/admin/invite-editor', {
      status: 201,
      body: { user: { email: 'new.editor@example.com' } },
    });
    const { user } = await openInviteTab();
    await user.type(screen.getByRole('textbox', { name: /Email/ }), 'New.Editor@example.com');
    await user.type(screen.getByRole('textbox', { name: /Display name/ }), 'Nia Editor');
    await user.click(addRate());
    const rate = within(rateRow(0)).getByRole('textbox', { name: 'Rate per photo' });
    await user.clear(rate);
    await user.type(rate, '3.333');
    await user.click(sendButton());

    expect(await screen.findByText('Invitation sent to new.editor@example.com!')).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', '/api/admin/invite-editor')[0]?.body).toEqual({
      email: 'new.editor@example.com',
      displayName: 'Nia Editor',
      jobTypeRates: [{ jobTypeId: 'hdr', ratePerPhotoCents: 333 }],
    });
    expect(screen.getByRole('textbox', { name: /Email/ })).toHaveValue('');
  });

  it("shows the server's message when the invitation fails", async () => {
    fakeApi.on('POST', '/api/admin/invite-editor', {
      status: 409,
      body: { error: 'CONFLICT', message: 'An invitation is already pending for this email' },
    });
    const { user } = await openInviteTab();
    await user.type(screen.getByRole('textbox', { name: /Email/ }), 'taken@example.com');
    await user.type(screen.getByRole('textbox', { name: /Display name/ }), 'Tay');
    await user.click(addRate());
    await user.click(sendButton());
    expect(await screen.findByText('An invitation is already pending for this email')).toBeInTheDocument();
  });

  it("falls back to 'Failed to send invitation' when the server says nothing", async () => {
    fakeApi.on('POST', '/api/admin/invite-editor', { status: 500 });
    const { user } = await openInviteTab();
    await user.type(screen.getByRole('textbox', { name: /Email/ }), 'someone@example.com');
    await user.type(screen.getByRole('textbox', { name: /Display name/ }), 'Sam');
    await user.click(addRate());
    await user.click(sendButton());
    expect(await screen.findByText('Failed to send invitation')).toBeInTheDocument();
  });

  it('requires a well-formed email and a name before sending', async () => {
    const { user } = await openInviteTab();
    await user.type(screen.getByRole('textbox', { name: /Email/ }), 'not-an-email');
    await user.click(addRate());
    await user.click(sendButton());
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Please enter a display name')).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', '/api/admin/invite-editor')).toHaveLength(0);
  });

  it.each([
    ['registered', 'This email is already registered'],
    ['invited', 'An invitation is already pending for this email'],
  ] as const)('says why an email %s elsewhere cannot be invited, once typing stops', async (reason, text) => {
    fakeApi.on('GET', '/api/admin/check-email/known%40example.com', {
      status: 200,
      body: { email: 'known@example.com', available: false, reason },
    });
    const { user } = await openInviteTab();
    await user.type(screen.getByRole('textbox', { name: /Email/ }), 'known@example.com');
    expect(await screen.findByText(text)).toBeInTheDocument();
    await user.click(addRate());
    expect(sendButton()).toBeDisabled();
  });

  it('checks availability only for a well-formed email, after typing stops', async () => {
    const { user } = await openInviteTab();
    const emailChecks = () => apiRequests.filter((request) => request.path.startsWith('/api/admin/check-email/'));
    await user.type(screen.getByRole('textbox', { name: /Email/ }), 'half@exa');
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(emailChecks()).toHaveLength(0);
    await user.type(screen.getByRole('textbox', { name: /Email/ }), 'mple.com');
    await waitFor(() =>
      expect(emailChecks().map((request) => request.path)).toEqual(['/api/admin/check-email/half%40example.com']),
    );
  });
});
