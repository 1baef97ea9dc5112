import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../test/fake-api';
import { fakeFirebase } from '../test/fake-firebase-auth';
import { aMeView } from '../test/me-view';
import { renderApp } from '../test/render-app';

describe('Protected pages', () => {
  it('send a signed-out visitor to the login page and back to where they were going after sign-in', async () => {
    fakeFirebase.addAccount('pat@example.com', 'secret-password');
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView({ roles: [] }) });
    const { user, router } = renderApp('/jobs/job-42');
    await user.type(await screen.findByLabelText(/Email/), 'pat@example.com');
    await user.type(screen.getByLabelText(/Password/), 'secret-password');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/jobs/job-42'));
  });

  it("show 'Access Denied' to a photographer opening the admin page", async () => {
    fakeFirebase.signInAs();
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView({ roles: ['photographer'] }) });
    renderApp('/admin');
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeInTheDocument();
    expect(screen.getByText("You don't have permission to access this page.")).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Admin Dashboard' })).not.toBeInTheDocument();
  });

  it("take a user with no history from 'Go Back' to their own dashboard", async () => {
    fakeFirebase.signInAs();
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView({ roles: ['editor'] }) });
    const { user, router } = renderApp('/create-order');
    await user.click(await screen.findByRole('button', { name: 'Go Back' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/editor'));
  });

  it('let any role open the shared pages but deny a user without roles', async () => {
    fakeFirebase.signInAs();
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView({ roles: [] }) });
    renderApp('/feedback');
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeInTheDocument();
  });

  it('say when the user profile cannot be loaded', async () => {
    fakeFirebase.signInAs();
    fakeApi.on('GET', '/api/auth/me', { status: 403, body: { error: 'FORBIDDEN', message: 'Account deactivated' } });
    renderApp('/profile');
    expect(await screen.findByText('Error loading user profile. Please contact support.')).toBeInTheDocument();
  });

  it('send the home address to the dashboard', async () => {
    fakeFirebase.signInAs();
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView({ roles: ['photographer'] }) });
    const { router } = renderApp('/');
    expect(await screen.findByRole('link', { name: 'Create New Order' })).toHaveAttribute('href', '/create-order');
    expect(router.state.location.pathname).toBe('/dashboard');
  });
});
