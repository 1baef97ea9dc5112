import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { fakeFirebase, firebaseAuthModule, firebaseError } from '../../../test/fake-firebase-auth';
import { renderApp } from '../../../test/render-app';

const meView = (roles: string[], fields: Record<string, unknown> = {}) => ({
  id: 'uid-1',
  email: 'pat@example.com',
  displayName: 'Pat Doe',
  profileImageUrl: null,
  roles,
  status: 'verified',
  createdAt: '2025-01-01T00:00:00.000Z',
  ...fields,
});

const signInForm = () => screen.findByRole('form', { name: 'Sign in' });
const signUpForm = () => screen.findByRole('form', { name: 'Sign up' });

async function fillAndSubmit(
  view: ReturnType<typeof renderApp>,
  fields: { fullName?: string; email?: string; password?: string },
) {
  const { user } = view;
  if (fields.fullName) await user.type(screen.getByLabelText(/Full name/), fields.fullName);
  if (fields.email) await user.type(screen.getByLabelText(/Email/), fields.email);
  if (fields.password) await user.type(screen.getByLabelText(/Password/), fields.password);
  await user.click(screen.getByRole('button', { name: /^(Sign In|Create Account)$/ }));
}

describe('Login page validation', () => {
  it('asks to fill in all fields when the email is missing', async () => {
    const view = renderApp('/login');
    await signInForm();
    await fillAndSubmit(view, { password: 'secret-password' });
    expect(await screen.findByText('Please fill in all fields')).toBeInTheDocument();
    expect(firebaseAuthModule.signInWithEmailAndPassword).not.toHaveBeenCalled();
  });

  it('asks to fill in all fields when the password is missing', async () => {
    const view = renderApp('/login');
    await signInForm();
    await fillAndSubmit(view, { email: 'pat@example.com' });
    expect(await screen.findByText('Please fill in all fields')).toBeInTheDocument();
  });

  it('asks for a name when signing up without one', async () => {
    const view = renderApp('/signup');
    await signUpForm();
    await fillAndSubmit(view, { email: 'pat@example.com', password: 'secret-password' });
    expect(await screen.findByText('Please enter your name')).toBeInTheDocument();
    expect(firebaseAuthModule.createUserWithEmailAndPassword).not.toHaveBeenCalled();
  });

  it('refuses a password shorter than 6 characters before contacting the identity provider', async () => {
    const view = renderApp('/signup');
    await signUpForm();
    await fillAndSubmit(view, { fullName: 'Pat Doe', email: 'pat@example.com', password: '12345' });
    expect(await screen.findByText('Password should be at least 6 characters long.')).toBeInTheDocument();
    expect(firebaseAuthModule.createUserWithEmailAndPassword).not.toHaveBeenCalled();
  });

  it('accepts a password of exactly 6 characters', async () => {
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: meView(['photographer']) });
    fakeFirebase.addAccount('pat@example.com', '123456');
    const view = renderApp('/login');
    await signInForm();
    await fillAndSubmit(view, { email: 'pat@example.com', password: '123456' });
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/dashboard'));
  });

  it('shows the full name field only when signing up', async () => {
    renderApp('/signup');
    await signUpForm();
    expect(screen.getByLabelText(/Full name/)).toBeInTheDocument();
  });

  it('clears the form when switching between sign-in and sign-up', async () => {
    const view = renderApp('/login');
    await signInForm();
    await view.user.type(screen.getByLabelText(/Email/), 'pat@example.com');
    await view.user.click(screen.getByRole('button', { name: 'Sign up' }));
    await signUpForm();
    expect(screen.getByLabelText(/Email/)).toHaveValue('');
    expect(screen.getByRole('heading', { name: 'Create your account' })).toBeInTheDocument();
    await view.user.click(screen.getByRole('button', { name: 'Sign in' }));
    await signInForm();
    expect(screen.queryByLabelText(/Full name/)).not.toBeInTheDocument();
  });
});

describe('Login page error messages', () => {
  const emailCases = [
    {
      code: 'auth/email-already-in-use',
      from: 'signup',
      text: 'This email is already registered. Try signing in instead.',
      endsOn: 'signin',
    },
    {
      code: 'auth/weak-password',
      from: 'signup',
      text: 'Password should be at least 6 characters long.',
      endsOn: 'signup',
    },
    { code: 'auth/invalid-email', from: 'signin', text: 'Please enter a valid email address.', endsOn: 'signin' },
    {
      code: 'auth/user-not-found',
      from: 'signin',
      text: 'No account found with this email. Try signing up instead.',
      endsOn: 'signup',
    },
    { code: 'auth/wrong-password', from: 'signin', text: 'Incorrect password. Please try again.', endsOn: 'signin' },
    {
      code: 'auth/invalid-credential',
      from: 'signin',
      text: 'Invalid email or password. Please check your credentials.',
      endsOn: 'signin',
    },
    {
      code: 'auth/user-disabled',
      from: 'signin',
      text: 'This account has been disabled. Please contact support.',
      endsOn: 'signin',
    },
    { code: 'auth/too-many-requests', from: 'signin', text: 'Failed to sign in. Please try again.', endsOn: 'signin' },
    {
      code: 'auth/network-request-failed',
      from: 'signup',
      text: 'Failed to create account. Please try again.',
      endsOn: 'signup',
    },
  ] as const;

  it.each(emailCases)('maps $code while on $from to "$text" and ends on $endsOn', async ({
    code,
    from,
    text,
    endsOn,
  }) => {
    const failing =
      from === 'signup'
        ? firebaseAuthModule.createUserWithEmailAndPassword
        : firebaseAuthModule.signInWithEmailAndPassword;
    failing.mockRejectedValueOnce(firebaseError(code));
    const view = renderApp(from === 'signup' ? '/signup' : '/login');
    await (from === 'signup' ? signUpForm() : signInForm());
    await fillAndSubmit(view, {
      fullName: from === 'signup' ? 'Pat Doe' : undefined,
      email: 'pat@example.com',
      password: 'secret-password',
    });

    expect(await screen.findByText(text)).toBeInTheDocument();
    const form = await (endsOn === 'signup' ? signUpForm() : signInForm());
    expect(view.router.state.location.pathname).toBe(endsOn === 'signup' ? '/signup' : '/login');
    // Switching forms because of an error keeps what was typed.
    expect(within(form).getByLabelText(/Email/)).toHaveValue('pat@example.com');
  });

  it.each([
    ['auth/popup-closed-by-user', 'Sign in was cancelled'],
    ['auth/cancelled-popup-request', 'Sign in was cancelled'],
    ['auth/user-disabled', 'This account has been disabled. Please contact support.'],
    ['auth/internal-error', 'Failed to sign in. Please try again.'],
  ])('maps a Google sign-in failure %s to "%s"', async (code, text) => {
    firebaseAuthModule.signInWithPopup.mockRejectedValueOnce(firebaseError(code));
    const view = renderApp('/login');
    await signInForm();
    await view.user.click(screen.getByRole('button', { name: 'Continue with Google' }));
    expect(await screen.findByText(text)).toBeInTheDocument();
  });

  it('shows the profile error and undoes the sign-in when the signed-in user cannot be loaded', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    fakeApi.on('GET', '/api/auth/me', { status: 500, body: { error: 'INTERNAL', message: 'Something went wrong' } });
    fakeFirebase.addAccount('pat@example.com', 'secret-password');
    const view = renderApp('/login');
    await signInForm();
    await fillAndSubmit(view, { email: 'pat@example.com', password: 'secret-password' });
    expect(await screen.findByText('Error loading user profile. Please contact support.')).toBeInTheDocument();
    expect(view.router.state.location.pathname).toBe('/login');
    expect(logged).toHaveBeenCalled();
    await waitFor(() => expect(firebaseAuthModule.signOut).toHaveBeenCalled());
  });

  it('says why when the account ended this session (401 with a reason), without calling it an error', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    logged.mockClear();
    fakeApi.on('GET', '/api/auth/me', {
      status: 401,
      body: { error: 'UNAUTHORIZED', message: 'You were signed out of this device. Please sign in again.' },
    });
    fakeFirebase.addAccount('pat@example.com', 'secret-password');
    const view = renderApp('/login');
    await signInForm();
    await fillAndSubmit(view, { email: 'pat@example.com', password: 'secret-password' });
    expect(await screen.findByText('You were signed out of this device. Please sign in again.')).toBeInTheDocument();
    expect(screen.queryByText('Error loading user profile. Please contact support.')).not.toBeInTheDocument();
    expect(logged).not.toHaveBeenCalled();
    await waitFor(() => expect(firebaseAuthModule.signOut).toHaveBeenCalled());
  });
});

describe('Where sign-in leads', () => {
  it.each([
    [['photographer', 'editor', 'admin'], '/admin', 'Admin Dashboard'],
    [['photographer', 'editor'], '/editor', 'Editor Dashboard'],
    [['photographer'], '/dashboard', 'Dashboard'],
  ])('sends a user with roles %j to %s', async (roles, path, heading) => {
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: meView(roles) });
    fakeFirebase.addAccount('pat@example.com', 'secret-password');
    const view = renderApp('/login', { state: { from: '/feedback' } });
    await signInForm();
    await fillAndSubmit(view, { email: 'pat@example.com', password: 'secret-password' });
    expect(await screen.findByRole('heading', { name: heading, level: 1 })).toBeInTheDocument();
    expect(view.router.state.location.pathname).toBe(path);
  });

  it('sends a user without roles back to the page they came from', async () => {
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: meView([]) });
    fakeFirebase.addAccount('pat@example.com', 'secret-password');
    const view = renderApp('/login', { state: { from: '/profile' } });
    await signInForm();
    await fillAndSubmit(view, { email: 'pat@example.com', password: 'secret-password' });
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/profile'));
  });

  it('signs a new user up, records their name and lands on the dashboard', async () => {
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: meView(['photographer'], { displayName: null }) });
    fakeApi.on('PATCH', '/api/auth/profile', (request) => ({
      status: 200,
      body: meView(['photographer'], request.body as Record<string, unknown>),
    }));
    const view = renderApp('/signup');
    await signUpForm();
    await fillAndSubmit(view, { fullName: '  Pat Doe ', email: 'pat@example.com', password: 'secret-password' });

    await waitFor(() => expect(view.router.state.location.pathname).toBe('/dashboard'));
    expect(firebaseAuthModule.updateProfile).toHaveBeenCalledWith(expect.anything(), { displayName: 'Pat Doe' });
    expect(fakeApi.requestsTo('PATCH', '/api/auth/profile')[0]?.body).toEqual({ displayName: 'Pat Doe' });
    expect(await screen.findByText('Pat Doe')).toBeInTheDocument();
  });

  it('signs in with Google through a popup that always shows the account chooser', async () => {
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: meView(['photographer']) });
    const view = renderApp('/login');
    await signInForm();
    await view.user.click(screen.getByRole('button', { name: 'Continue with Google' }));
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/dashboard'));
    const provider = firebaseAuthModule.signInWithPopup.mock.calls[0]?.[1] as InstanceType<
      typeof firebaseAuthModule.GoogleAuthProvider
    >;
    expect(provider.setCustomParameters).toHaveBeenCalledWith({ prompt: 'select_account' });
  });

  it('moves a visitor who is already signed in straight on', async () => {
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: meView(['editor']) });
    fakeFirebase.signInAs({ email: 'pat@example.com' });
    const view = renderApp('/login');
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/editor'));
  });
});
