import type { AddOnView } from '@marketplace/events/add-ons';
import type { JobTypeView } from '@marketplace/events/job-types';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { fakeApi } from '../../../../test/fake-api';
import { fakeFirebase } from '../../../../test/fake-firebase-auth';
import { aMeView } from '../../../../test/me-view';
import { renderApp } from '../../../../test/render-app';

const hdr: JobTypeView = {
  id: 'hdr',
  name: 'HDR',
  description: 'Bracketed exposures blended',
  pricePerPhotoCents: 800,
  defaultEditorPriceCents: 250,
  tierSurchargeCents: { express: 0, rush: 0 },
  isActive: true,
  createdAt: '2025-01-01T00:00:00.000Z',
};
const staging: AddOnView = {
  id: 'virtual-staging',
  name: 'Virtual staging',
  description: 'The empty room furnished',
  pricePerPhotoCents: 2400,
  editorRatePerPhotoCents: 1450,
  isActive: true,
  sortOrder: 10,
  createdAt: '2025-01-01T00:00:00.000Z',
};
const retired: JobTypeView = { ...hdr, id: 'retired', name: 'Retired Service', description: null, isActive: false };

async function openJobTypesTab() {
  const view = renderApp('/admin?tab=job-types');
  await screen.findByRole('table', { name: 'Job types' }, { timeout: 8000 });
  return view;
}

const rowOf = (name: string) =>
  within(screen.getByRole('table', { name: 'Job types' }))
    .getByText(name)
    .closest('tr') as HTMLElement;

const phoneSizedWindow = () => {
  const { happyDOM } = window as unknown as {
    happyDOM: { setViewport(size: { width: number; height: number }): void };
  };
  happyDOM.setViewport({ width: 390, height: 844 });
  onTestFinished(() => happyDOM.setViewport({ width: 1024, height: 768 }));
};

describe('Job Types tab', () => {
  beforeEach(() => {
    fakeFirebase.signInAs({ email: 'ada@example.com' });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView({ email: 'ada@example.com', roles: ['admin'] }) });
    fakeApi.on('GET', '/api/admin/users', { status: 200, body: { users: [] } });
    fakeApi.on('GET', '/api/admin/job-types', { status: 200, body: [hdr, retired] });
    fakeApi.on('GET', '/api/admin/job-types/add-ons', { status: 200, body: [staging] });
  });

  it('lists every job type, inactive ones too, with both prices', async () => {
    await openJobTypesTab();
    expect(within(rowOf('HDR')).getByText('$8.00')).toBeInTheDocument();
    expect(within(rowOf('HDR')).getByText('$2.50')).toBeInTheDocument();
    expect(within(rowOf('HDR')).getByText('Bracketed exposures blended')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'HDR offered to photographers' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Retired Service offered to photographers' })).not.toBeChecked();
  });

  it('opens Create New Job Type with $5.00 and $0.50, and needs a name to create', async () => {
    const { user } = await openJobTypesTab();
    await user.click(screen.getByRole('button', { name: 'Add Job Type' }));
    const form = screen.getByRole('form', { name: 'Create New Job Type' });
    expect(within(form).getByRole('textbox', { name: 'Photographer price per photo' })).toHaveValue('5.00');
    expect(within(form).getByRole('textbox', { name: 'Default editor rate per photo' })).toHaveValue('0.50');
    expect(within(form).getByRole('button', { name: 'Create Job Type' })).toBeDisabled();
    await user.type(within(form).getByRole('textbox', { name: /Name/ }), '   ');
    expect(within(form).getByRole('button', { name: 'Create Job Type' })).toBeDisabled();
  });

  it('creates a job type, says so, closes the form and refreshes the list', async () => {
    fakeApi.on('POST', '/api/admin/job-types', ({ body }) => ({
      status: 201,
      body: { ...hdr, ...(body as object), id: 'dusk', isActive: true },
    }));
    const { user } = await openJobTypesTab();
    await user.click(screen.getByRole('button', { name: 'Add Job Type' }));
    const form = screen.getByRole('form', { name: 'Create New Job Type' });
    await user.type(within(form).getByRole('textbox', { name: /Name/ }), 'Dusk Shots');
    const price = within(form).getByRole('textbox', { name: 'Photographer price per photo' });
    await user.clear(price);
    await user.type(price, '12');
    const rush = within(form).getByRole('textbox', { name: 'Rush (12 h) surcharge per photo' });
    await user.clear(rush);
    await user.type(rush, '3.5');
    const reads = fakeApi.requestsTo('GET', '/api/admin/job-types').length;
    await user.click(within(form).getByRole('button', { name: 'Create Job Type' }));

    expect(await screen.findByText('Job type created successfully!')).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', '/api/admin/job-types')[0]?.body).toEqual({
      name: 'Dusk Shots',
      pricePerPhotoCents: 1200,
      defaultEditorPriceCents: 50,
      tierSurchargeCents: { express: 0, rush: 350 },
    });
    expect(screen.queryByRole('form', { name: 'Create New Job Type' })).toBeNull();
    await waitFor(() => expect(fakeApi.requestsTo('GET', '/api/admin/job-types').length).toBeGreaterThan(reads));
  });

  it("shows the server's message, else 'Failed to create job type'", async () => {
    fakeApi.on('POST', '/api/admin/job-types', {
      status: 409,
      body: { error: 'CONFLICT', message: 'A job type with this name already exists' },
    });
    const { user } = await openJobTypesTab();
    await user.click(screen.getByRole('button', { name: 'Add Job Type' }));
    const form = screen.getByRole('form', { name: 'Create New Job Type' });
    await user.type(within(form).getByRole('textbox', { name: /Name/ }), 'HDR');
    await user.click(within(form).getByRole('button', { name: 'Create Job Type' }));
    expect(await screen.findByText('A job type with this name already exists')).toBeInTheDocument();

    fakeApi.on('POST', '/api/admin/job-types', { status: 500 });
    await user.click(within(form).getByRole('button', { name: 'Create Job Type' }));
    expect(await screen.findByText('Failed to create job type')).toBeInTheDocument();
  });

  it('changes a job type’s prices', async () => {
    fakeApi.on('PATCH', '/api/admin/job-types/hdr', ({ body }) => ({
      status: 200,
      body: { ...hdr, ...(body as object) },
    }));
    const { user } = await openJobTypesTab();
    await user.click(screen.getByRole('button', { name: 'Edit prices of HDR' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit HDR' });
    const price = within(dialog).getByRole('textbox', { name: 'Photographer price per photo' });
    expect(price).toHaveValue('8.00');
    await user.clear(price);
    await user.type(price, '9.5');
    await user.click(within(dialog).getByRole('button', { name: 'Save Prices' }));
    expect(await screen.findByText('Job type updated successfully!')).toBeInTheDocument();
    expect(fakeApi.requestsTo('PATCH', '/api/admin/job-types/hdr')[0]?.body).toEqual({
      pricePerPhotoCents: 950,
      defaultEditorPriceCents: 250,
      tierSurchargeCents: { express: 0, rush: 0 },
    });
  });

  it('switches a job type off and says it is no longer offered', async () => {
    fakeApi.on('PATCH', '/api/admin/job-types/hdr', () => {
      fakeApi.on('GET', '/api/admin/job-types', { status: 200, body: [{ ...hdr, isActive: false }, retired] });
      return { status: 200, body: { ...hdr, isActive: false } };
    });
    const { user } = await openJobTypesTab();
    await user.click(screen.getByRole('switch', { name: 'HDR offered to photographers' }));
    expect(await screen.findByText('HDR is now inactive')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'HDR offered to photographers' })).not.toBeChecked();
    expect(within(rowOf('HDR')).getByText('Inactive')).toBeInTheDocument();
    expect(fakeApi.requestsTo('PATCH', '/api/admin/job-types/hdr')[0]?.body).toEqual({ isActive: false });
  });

  it('says so when there are no job types, and when they cannot be loaded', async () => {
    fakeApi.on('GET', '/api/admin/job-types', { status: 200, body: [] });
    const first = renderApp('/admin?tab=job-types');
    expect(await screen.findByText('No job types yet', {}, { timeout: 8000 })).toBeInTheDocument();
    first.unmount();

    fakeApi.on('GET', '/api/admin/job-types', { status: 403, body: { error: 'FORBIDDEN', message: 'Admins only' } });
    renderApp('/admin?tab=job-types');
    expect(await screen.findByText('Admins only', {}, { timeout: 8000 })).toBeInTheDocument();
  });

  it('shows a card per job type on a phone, with its prices, switch and edit button in reach', async () => {
    phoneSizedWindow();
    renderApp('/admin?tab=job-types');
    const list = await screen.findByRole('list', { name: 'Job types' }, { timeout: 8000 });
    expect(screen.queryByRole('table')).toBeNull();
    const card = within(within(list).getByText('HDR').closest('li') as HTMLElement);
    expect(card.getByText('$8.00')).toBeInTheDocument();
    expect(card.getByRole('switch', { name: 'HDR offered to photographers' })).toBeChecked();
    expect(card.getByRole('button', { name: 'Edit prices of HDR' })).toBeInTheDocument();
  });

  it('lists the add-ons in their own part, and says under each field what is wrong before creating one', async () => {
    const { user } = await openJobTypesTab();
    const table = await screen.findByRole('table', { name: 'Add-ons' });
    const row = within(table).getByText('Virtual staging').closest('tr') as HTMLElement;
    expect(within(row).getByText('$24.00')).toBeInTheDocument();
    expect(within(row).getByText('$14.50')).toBeInTheDocument();
    expect(within(row).getByRole('switch', { name: 'Virtual staging offered to photographers' })).toBeChecked();

    fakeApi.on('POST', '/api/admin/job-types/add-ons', (request) => ({
      status: 201,
      body: { ...staging, id: 'day-to-dusk', ...(request.body as object) },
    }));
    await user.click(screen.getByRole('button', { name: 'Add Add-on' }));
    const dialog = await screen.findByRole('dialog', { name: 'New add-on' });
    const price = within(dialog).getByRole('textbox', { name: 'Photographer price per photo' });
    await user.clear(price);
    await user.type(price, '20000');
    await user.click(within(dialog).getByRole('button', { name: 'Create Add-on' }));
    expect(within(dialog).getByText('Name is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Amounts must be at most $10,000.00')).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', '/api/admin/job-types/add-ons')).toHaveLength(0);

    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Day-to-dusk');
    await user.clear(price);
    await user.type(price, '6');
    await user.click(within(dialog).getByRole('button', { name: 'Create Add-on' }));
    await waitFor(() => expect(fakeApi.requestsTo('POST', '/api/admin/job-types/add-ons')).toHaveLength(1));
    expect(fakeApi.requestsTo('POST', '/api/admin/job-types/add-ons')[0]?.body).toEqual({
      name: 'Day-to-dusk',
      description: undefined,
      pricePerPhotoCents: 600,
      editorRatePerPhotoCents: 300,
      sortOrder: 0,
    });
  });
});
