import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { firebaseAuthModule } from '../../../test/fake-firebase-auth';
import { renderApp } from '../../../test/render-app';

describe('Login page without a configured identity provider', () => {
  beforeEach(() => {
    vi.stubEnv('VITE_FIREBASE_API_KEY', '');
    return () => vi.unstubAllEnvs();
  });

  it('says authentication is not configured instead of trying to sign in', async () => {
    const { user } = renderApp('/login');
    await user.type(await screen.findByLabelText(/Email/), 'pat@example.com');
    await user.type(screen.getByLabelText(/Password/), 'secret-password');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(
      await screen.findByText('Authentication not configured. Please configure Firebase credentials.'),
    ).toBeInTheDocument();
    expect(firebaseAuthModule.initializeAuth).not.toHaveBeenCalled();
  });

  it('says the same for Google sign-in', async () => {
    const { user } = renderApp('/login');
    await user.click(await screen.findByRole('button', { name: 'Continue with Google' }));
    expect(
      await screen.findByText('Authentication not configured. Please configure Firebase credentials.'),
    ).toBeInTheDocument();
  });

  it('sends visitors of signed-in pages to the login page', async () => {
    const { router } = renderApp('/feedback');
    expect(await screen.findByRole('form', { name: 'Sign in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });
});
