import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../test/fake-api';
import { fakeFirebase } from '../test/fake-firebase-auth';
import { aMeView } from '../test/me-view';
import { renderApp } from '../test/render-app';

describe('Pages anyone can see', () => {
  it("show 'Page not found' with a way home for an unknown address", async () => {
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go back home' })).toHaveAttribute('href', '/');
  });

  it('explain how it works in four steps with starting prices and links to order and sign up', async () => {
    renderApp('/info');
    expect(await screen.findByRole('heading', { name: 'How it works', level: 1 })).toBeInTheDocument();
    const steps = screen.getAllByText(/^Step \d$/);
    expect(steps).toHaveLength(4);
    for (const [service, price] of [
      ['Basic Enhancement', '$5.00'],
      ['HDR', '$8.00'],
      ['Virtual Staging', '$25.00'],
      ['Sky Replacement', '$10.00'],
      ['Object Removal', '$12.00'],
    ] as const) {
      const card = screen.getByRole('heading', { name: service }).closest('div')!;
      expect(within(card).getByText(price)).toBeInTheDocument();
    }
    expect(screen.getByText('Custom pricing')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Create an order' })[0]).toHaveAttribute('href', '/create-order');
    expect(screen.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/signup');
  });
});

describe('Placeholder pages', () => {
  it('lay out the profile as a section per planned part, saying which are still to come', async () => {
    fakeFirebase.signInAs();
    fakeApi.on('GET', '/api/auth/me', {
      status: 200,
      body: aMeView({ displayName: 'Pat Photographer', email: 'pat@example.com', roles: ['photographer'] }),
    });
    renderApp('/profile');
    const profile = within(await screen.findByRole('region', { name: 'Profile' }));
    expect(profile.getByLabelText('Display name')).toHaveValue('Pat Photographer');
    expect(profile.getByText('pat@example.com')).toBeInTheDocument();
    expect(profile.getByText('Photographer')).toBeInTheDocument();
    // Built, each with its own tests (features/profile/components): none says 'Coming soon' any more.
    for (const built of ['Notifications', 'Security']) {
      expect(within(screen.getByRole('region', { name: built })).queryByText(/^Coming soon:/)).toBeNull();
    }
  });

  it('list what is planned for a job page', async () => {
    fakeFirebase.signInAs();
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView({ roles: ['editor'] }) });
    renderApp('/jobs/job-7');
    expect(await screen.findByText('Coming Soon')).toBeInTheDocument();
    expect(screen.getByText('Messaging with the photographer')).toBeInTheDocument();
    expect(screen.getByText('Progress tracking')).toBeInTheDocument();
  });
});
