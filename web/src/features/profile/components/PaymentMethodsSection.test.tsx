import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { fakeFirebase } from '../../../test/fake-firebase-auth';
import { aMeView } from '../../../test/me-view';
import { renderApp } from '../../../test/render-app';

const visa = { id: 'pm_visa', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030, isDefault: true };
const mastercard = { id: 'pm_mc', brand: 'mastercard', last4: '4444', expMonth: 3, expYear: 2029, isDefault: false };

const openProfile = async () => {
  const view = renderApp('/profile');
  const section = await screen.findByRole('region', { name: 'Payment methods' }, { timeout: 5000 });
  return { ...view, section };
};

describe("Profile's payment methods", { timeout: 30_000 }, () => {
  beforeEach(() => {
    fakeFirebase.signInAs({ email: 'pat@example.com' });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView() });
    fakeApi.on('GET', '/api/payment-methods', { status: 200, body: { cards: [visa, mastercard] } });
  });

  it('lists the saved cards with brand, last four and expiry, and marks the default', async () => {
    const { section } = await openProfile();
    const visaRow = await within(section).findByRole('listitem', { name: 'Visa •••• 4242' });
    expect(within(visaRow).getByText('Default')).toBeInTheDocument();
    expect(within(visaRow).getByText('Expires 12/30')).toBeInTheDocument();
    expect(within(visaRow).queryByRole('button', { name: 'Make default' })).not.toBeInTheDocument();
    const mastercardRow = within(section).getByRole('listitem', { name: 'Mastercard •••• 4444' });
    expect(within(mastercardRow).getByText('Expires 03/29')).toBeInTheDocument();
  });

  it('makes another card the default', async () => {
    fakeApi.on('PUT', '/api/payment-methods/pm_mc/default', {
      status: 200,
      body: {
        cards: [
          { ...mastercard, isDefault: true },
          { ...visa, isDefault: false },
        ],
      },
    });
    const { section, user } = await openProfile();
    const row = await within(section).findByRole('listitem', { name: 'Mastercard •••• 4444' });
    await user.click(within(row).getByRole('button', { name: 'Make default' }));
    expect(await screen.findByText('Default card updated')).toBeInTheDocument();
    await waitFor(() =>
      expect(
        within(within(section).getByRole('listitem', { name: 'Mastercard •••• 4444' })).getByText('Default'),
      ).toBeInTheDocument(),
    );
    expect(fakeApi.requestsTo('PUT', '/api/payment-methods/pm_mc/default')).toHaveLength(1);
  });

  it('removes a card only after the confirmation', async () => {
    fakeApi.on('DELETE', '/api/payment-methods/pm_visa', {
      status: 200,
      body: { cards: [{ ...mastercard, isDefault: true }] },
    });
    const { section, user } = await openProfile();
    const row = await within(section).findByRole('listitem', { name: 'Visa •••• 4242' });
    await user.click(within(row).getByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove this card?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fakeApi.requestsTo('DELETE', '/api/payment-methods/pm_visa')).toHaveLength(0);

    await user.click(within(row).getByRole('button', { name: 'Remove' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove card' }));
    expect(await screen.findByText('Card removed')).toBeInTheDocument();
    await waitFor(() =>
      expect(within(section).queryByRole('listitem', { name: 'Visa •••• 4242' })).not.toBeInTheDocument(),
    );
    expect(fakeApi.requestsTo('DELETE', '/api/payment-methods/pm_visa')).toHaveLength(1);
  });

  it('says there are no saved cards yet, and how to save one', async () => {
    fakeApi.on('GET', '/api/payment-methods', { status: 200, body: { cards: [] } });
    const { section } = await openProfile();
    expect(await within(section).findByText(/No saved cards yet/)).toBeInTheDocument();
  });

  it('says the cards could not be loaded, and tries again', async () => {
    fakeApi.on('GET', '/api/payment-methods', {
      status: 502,
      body: { error: 'PAYMENT_PROVIDER_UNAVAILABLE', message: 'Saved cards are not available right now.' },
    });
    const { section, user } = await openProfile();
    expect(await within(section).findByText('Saved cards are not available right now.')).toBeInTheDocument();
    fakeApi.on('GET', '/api/payment-methods', { status: 200, body: { cards: [visa] } });
    await user.click(within(section).getByRole('button', { name: 'Try again' }));
    expect(await within(section).findByRole('listitem', { name: 'Visa •••• 4242' })).toBeInTheDocument();
  });

  it('is not shown to an editor', async () => {
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView({ roles: ['editor'] }) });
    renderApp('/profile');
    expect(await screen.findByRole('region', { name: 'Profile' }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Payment methods' })).not.toBeInTheDocument();
  });
});
