import type { PayoutAccountView } from '@marketplace/events/payouts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { fakeFirebase } from '../../../test/fake-firebase-auth';
import { aMeView } from '../../../test/me-view';
import { renderApp } from '../../../test/render-app';
import { stripeOnboarding } from '../api/payouts';

const account = (fields: Partial<PayoutAccountView> = {}): PayoutAccountView => ({
  status: 'not_set_up',
  requirements: [],
  disabledReason: null,
  updatedAt: null,
  ...fields,
});

const ONBOARDING_URL = 'http://127.0.0.1:12111/__onboarding/link_abc';

const openProfile = async (path = '/profile') => {
  const view = renderApp(path);
  const section = await screen.findByRole('region', { name: 'Payout account' }, { timeout: 5000 });
  return { ...view, section };
};

describe("Profile's payout account", { timeout: 30_000 }, () => {
  beforeEach(() => {
    fakeFirebase.signInAs({ email: 'eddie@example.com' });
    fakeApi.on('GET', '/api/auth/me', {
      status: 200,
      body: aMeView({ roles: ['editor'], email: 'eddie@example.com' }),
    });
    fakeApi.on('GET', '/api/earnings', { status: 200, body: { earnings: [], nextCursor: null } });
    fakeApi.on('GET', '/api/payouts', { status: 200, body: { payouts: [], nextCursor: null } });
  });

  afterEach(() => vi.restoreAllMocks());

  it("'Set up payouts' makes the account and goes to Stripe's onboarding, back to /profile", async () => {
    const leaveFor = vi.spyOn(stripeOnboarding, 'leaveFor').mockImplementation(() => {});
    fakeApi.on('GET', '/api/payout-account', { status: 200, body: account() });
    fakeApi.on('POST', '/api/payout-account/link', {
      status: 200,
      body: { url: ONBOARDING_URL, account: account({ status: 'onboarding', requirements: ['bank account'] }) },
    });
    const { section, user } = await openProfile();
    expect(await within(section).findByText('Not set up')).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Set up payouts' }));
    await waitFor(() => expect(leaveFor).toHaveBeenCalledWith(ONBOARDING_URL));
    expect(fakeApi.requestsTo('POST', '/api/payout-account/link')[0]?.body).toEqual({ returnTo: 'profile' });
  });

  it('says in words what Stripe still needs, and continues the setup', async () => {
    const leaveFor = vi.spyOn(stripeOnboarding, 'leaveFor').mockImplementation(() => {});
    fakeApi.on('GET', '/api/payout-account', {
      status: 200,
      body: account({ status: 'needs_info', requirements: ['bank account', 'date of birth'] }),
    });
    fakeApi.on('POST', '/api/payout-account/link', {
      status: 200,
      body: { url: ONBOARDING_URL, account: account({ status: 'needs_info', requirements: ['bank account'] }) },
    });
    const { section, user } = await openProfile();
    expect(await within(section).findByText('Action needed')).toBeInTheDocument();
    expect(section).toHaveTextContent('Stripe still needs: bank account, date of birth.');
    await user.click(within(section).getByRole('button', { name: 'Continue setup' }));
    await waitFor(() => expect(leaveFor).toHaveBeenCalledWith(ONBOARDING_URL));
  });

  it('shows "Payouts enabled" with no button once Stripe can pay the editor', async () => {
    fakeApi.on('GET', '/api/payout-account', { status: 200, body: account({ status: 'enabled' }) });
    const { section } = await openProfile();
    expect(await within(section).findByText('Payouts enabled')).toBeInTheDocument();
    expect(within(section).queryByRole('button')).not.toBeInTheDocument();
  });

  it('back from onboarding, asks the server to read the account once and shows what Stripe says', async () => {
    fakeApi.on('GET', '/api/payout-account', { status: 200, body: account({ status: 'onboarding' }) });
    fakeApi.on('POST', '/api/payout-account/refresh', { status: 200, body: account({ status: 'enabled' }) });
    const { section, router } = await openProfile('/profile?payouts=returned');
    expect(await within(section).findByText('Payouts enabled')).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', '/api/payout-account/refresh')).toHaveLength(1);
    expect(fakeApi.requestsTo('POST', '/api/payout-account/refresh')[0]?.body).toEqual({ returnedFrom: 'onboarding' });
    expect(router.state.location.search).toBe('');
  });

  it("shows the server's words when the setup cannot start, and stays on the page", async () => {
    const leaveFor = vi.spyOn(stripeOnboarding, 'leaveFor').mockImplementation(() => {});
    fakeApi.on('GET', '/api/payout-account', { status: 200, body: account() });
    fakeApi.on('POST', '/api/payout-account/link', {
      status: 502,
      body: { error: 'PAYMENT_PROVIDER_UNAVAILABLE', message: 'Payouts cannot be set up with Stripe just now.' },
    });
    const { section, user } = await openProfile();
    await user.click(await within(section).findByRole('button', { name: 'Set up payouts' }));
    expect(await screen.findByText('Payouts cannot be set up with Stripe just now.')).toBeInTheDocument();
    expect(leaveFor).not.toHaveBeenCalled();
    expect(within(section).getByRole('button', { name: 'Set up payouts' })).toBeEnabled();
  });

  it('is not shown to photographers', async () => {
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView() });
    fakeApi.on('GET', '/api/payment-methods', { status: 200, body: { cards: [] } });
    fakeApi.on('GET', '/api/billing/history', { status: 200, body: { entries: [], nextCursor: null } });
    renderApp('/profile');
    expect(await screen.findByRole('region', { name: 'Profile' }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Payout account' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Payouts' })).not.toBeInTheDocument();
  });
});

describe('the refresh page Stripe sends an expired onboarding link to', { timeout: 30_000 }, () => {
  beforeEach(() => {
    fakeFirebase.signInAs({ email: 'eddie@example.com' });
    fakeApi.on('GET', '/api/auth/me', {
      status: 200,
      body: aMeView({ roles: ['editor'], email: 'eddie@example.com' }),
    });
  });

  afterEach(() => vi.restoreAllMocks());

  it('asks for a fresh link and goes straight back to Stripe with it', async () => {
    const leaveFor = vi.spyOn(stripeOnboarding, 'leaveFor').mockImplementation(() => {});
    fakeApi.on('POST', '/api/payout-account/link', {
      status: 200,
      body: { url: `${ONBOARDING_URL}2`, account: account({ status: 'onboarding' }) },
    });
    renderApp('/profile/payouts/refresh?returnTo=editor');
    await waitFor(() => expect(leaveFor).toHaveBeenCalledWith(`${ONBOARDING_URL}2`));
    expect(fakeApi.requestsTo('POST', '/api/payout-account/link')).toHaveLength(1);
    expect(fakeApi.requestsTo('POST', '/api/payout-account/link')[0]?.body).toEqual({ returnTo: 'editor' });
  });

  it('says so when no link can be made, with a way back to the profile', async () => {
    fakeApi.on('POST', '/api/payout-account/link', {
      status: 502,
      body: { error: 'PAYMENT_PROVIDER_UNAVAILABLE', message: 'Payouts cannot be set up with Stripe just now.' },
    });
    renderApp('/profile/payouts/refresh');
    expect(
      await screen.findByText('Payouts cannot be set up with Stripe just now.', {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to your profile' })).toHaveAttribute('href', '/profile');
  });
});
