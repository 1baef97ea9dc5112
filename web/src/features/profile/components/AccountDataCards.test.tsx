import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { fakeFirebase, firebaseAuthModule } from '../../../test/fake-firebase-auth';
import { aMeView } from '../../../test/me-view';
import { renderApp } from '../../../test/render-app';

const EMAIL = 'pat@example.com';
const PASSWORD = 'old-passw0rd';
const EXPORT_URL = '/api/account/data-export';

const anExport = (fields: Record<string, unknown> = {}) => ({
  export: {
    id: '01JEXPORT',
    status: 'preparing',
    requestedAt: '2026-01-03T10:00:00.000Z',
    readyAt: null,
    expiresAt: null,
    sizeBytes: null,
    url: null,
    filename: null,
    ...fields,
  },
});

const openCard = async (name: 'Download my data' | 'Delete my account') => {
  const view = renderApp('/profile');
  const card = await screen.findByRole('region', { name }, { timeout: 15_000 });
  return { ...view, card };
};

describe("Profile's 'Download my data' and 'Delete my account'", { timeout: 60_000 }, () => {
  beforeEach(() => {
    const account = fakeFirebase.addAccount(EMAIL, PASSWORD);
    fakeFirebase.signInAs({ ...account });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView({ id: account.uid, email: EMAIL }) });
    fakeApi.on('GET', '/api/account/security-activity', { status: 200, body: { activity: [], nextCursor: null } });
    fakeApi.on('GET', EXPORT_URL, { status: 200, body: { export: null } });
  });

  it('asks for the password, then shows the data being prepared and the link once it is ready', async () => {
    let current: unknown = { export: null };
    fakeApi.on('GET', EXPORT_URL, () => ({ status: 200, body: current }));
    fakeApi.on('POST', EXPORT_URL, () => {
      current = anExport();
      return { status: 202, body: current };
    });
    const { card, user } = await openCard('Download my data');
    await user.click(await within(card).findByRole('button', { name: 'Download my data' }));
    const form = within(await screen.findByRole('dialog', { name: 'Download my data' }));
    await user.click(form.getByRole('button', { name: 'Prepare my data' }));
    expect(await form.findByText('Enter your password.')).toBeInTheDocument();
    await user.type(form.getByLabelText(/^Password/), 'not-it');
    await user.click(form.getByRole('button', { name: 'Prepare my data' }));
    expect(await form.findByText('That password is not right. Please try again.')).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', EXPORT_URL)).toHaveLength(0);

    await user.clear(form.getByLabelText(/^Password/));
    await user.type(form.getByLabelText(/^Password/), PASSWORD);
    await user.click(form.getByRole('button', { name: 'Prepare my data' }));
    expect(await within(card).findByText('Preparing your data…')).toBeInTheDocument();
    expect(firebaseAuthModule.reauthenticateWithCredential).toHaveBeenCalled();
    expect(fakeApi.requestsTo('POST', EXPORT_URL)[0]?.body).toEqual({});
    // The request is a row of the security activity the section lists: it is read again.
    await waitFor(() => expect(fakeApi.requestsTo('GET', '/api/account/security-activity').length).toBeGreaterThan(1));

    current = anExport({
      status: 'ready',
      readyAt: '2026-01-03T10:01:00.000Z',
      expiresAt: '2026-01-10T10:01:00.000Z',
      sizeBytes: 2_500_000,
      url: 'https://s3.example/exports/u/x.zip?X-Amz-Expires=900',
      filename: 'marketplace-data-2026-01-03.zip',
    });
    const link = await within(card).findByRole('link', { name: 'Download your data' }, { timeout: 8000 });
    expect(link).toHaveAttribute('href', 'https://s3.example/exports/u/x.zip?X-Amz-Expires=900');
    expect(within(card).getByText(/Your data is ready \(2\.4 MB\)/)).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Prepare a new copy' })).toBeInTheDocument();
  });

  it('says when a request is already being prepared (one at a time)', async () => {
    fakeApi.on('POST', EXPORT_URL, {
      status: 409,
      body: { error: 'DATA_EXPORT_RUNNING', message: 'Your data is already being prepared.' },
    });
    const { card, user } = await openCard('Download my data');
    await user.click(await within(card).findByRole('button', { name: 'Download my data' }));
    const form = within(await screen.findByRole('dialog', { name: 'Download my data' }));
    await user.type(form.getByLabelText(/^Password/), PASSWORD);
    await user.click(form.getByRole('button', { name: 'Prepare my data' }));
    expect(await form.findByText('Your data is already being prepared.')).toBeInTheDocument();
  });

  it('shows an expired copy, a failed one, and a load failure with a way to try again', async () => {
    fakeApi.on('GET', EXPORT_URL, { status: 200, body: anExport({ status: 'expired' }) });
    const expired = await openCard('Download my data');
    expect(await within(expired.card).findByText(/has expired and was deleted/)).toBeInTheDocument();
    expired.unmount();

    fakeApi.on('GET', EXPORT_URL, { status: 200, body: anExport({ status: 'failed' }) });
    const failed = await openCard('Download my data');
    expect(await within(failed.card).findByText(/could not be prepared/)).toBeInTheDocument();
    expect(within(failed.card).getByRole('button', { name: 'Try downloading again' })).toBeInTheDocument();
    failed.unmount();

    fakeApi.on('GET', EXPORT_URL, { status: 500, body: { error: 'INTERNAL', message: 'Something went wrong.' } });
    const broken = await openCard('Download my data');
    expect(
      await within(broken.card).findByText('Could not load your data download', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    fakeApi.on('GET', EXPORT_URL, { status: 200, body: { export: null } });
    await broken.user.click(within(broken.card).getByRole('button', { name: 'Load again' }));
    expect(await within(broken.card).findByRole('button', { name: 'Download my data' })).toBeInTheDocument();
  });

  it('says what is kept and why, asks for the password and DELETE, then signs out onto a page that says it is done', async () => {
    fakeApi.on('POST', '/api/account/delete', {
      status: 200,
      body: { deletedAt: '2026-01-03T10:00:00.000Z', purgeAfter: '2026-02-02T10:00:00.000Z' },
    });
    const { card, user } = await openCard('Delete my account');
    expect(within(card).getByText(/tax law requires us to keep invoices/)).toBeInTheDocument();
    expect(within(card).getByText(/other side of each order still needs/)).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Delete my account' }));
    const form = within(await screen.findByRole('dialog', { name: 'Delete my account' }));
    await user.type(form.getByLabelText(/^Password/), PASSWORD);
    await user.type(form.getByLabelText(/^Type DELETE to confirm/), 'delete');
    await user.click(form.getByRole('button', { name: 'Delete my account' }));
    expect(await form.findByText('Type DELETE in capital letters to confirm.')).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', '/api/account/delete')).toHaveLength(0);

    await user.clear(form.getByLabelText(/^Type DELETE to confirm/));
    await user.type(form.getByLabelText(/^Type DELETE to confirm/), 'DELETE');
    await user.click(form.getByRole('button', { name: 'Delete my account' }));
    expect(await screen.findByRole('heading', { name: 'Your account is deleted' })).toBeInTheDocument();
    expect(screen.getByText(/You have been signed out/)).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', '/api/account/delete')[0]?.body).toEqual({ confirmation: 'DELETE' });
    await waitFor(() => expect(firebaseAuthModule.signOut).toHaveBeenCalled());
  });

  it('says which orders to finish first when the server refuses', async () => {
    fakeApi.on('POST', '/api/account/delete', {
      status: 409,
      body: {
        error: 'ORDERS_IN_PROGRESS',
        message: 'You have 2 orders in progress. Wait until they are delivered and accepted, or cancel them.',
      },
    });
    const { card, user } = await openCard('Delete my account');
    await user.click(within(card).getByRole('button', { name: 'Delete my account' }));
    const form = within(await screen.findByRole('dialog', { name: 'Delete my account' }));
    await user.type(form.getByLabelText(/^Password/), PASSWORD);
    await user.type(form.getByLabelText(/^Type DELETE to confirm/), 'DELETE');
    await user.click(form.getByRole('button', { name: 'Delete my account' }));
    expect(await form.findByRole('alert')).toHaveTextContent('You have 2 orders in progress.');
    expect(firebaseAuthModule.signOut).not.toHaveBeenCalled();
  });
});
