import type { InvitationVerificationView } from '@marketplace/events/invitations';
import { screen, waitFor, within } from '@testing-library/react';
import axe from 'axe-core';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { fakeFirebase, firebaseAuthModule, firebaseError } from '../../../test/fake-firebase-auth';
import { aMeView } from '../../../test/me-view';
import { renderApp } from '../../../test/render-app';

const EMAIL = 'erin@example.com';
const TOKEN = 'a-long-enough-invitation-token';
const LINK = `/invitation?email=${encodeURIComponent(EMAIL)}&token=${TOKEN}`;

const aValidInvitation = (fields: Partial<InvitationVerificationView> = {}): InvitationVerificationView => ({
  valid: true,
  user: { email: EMAIL, displayName: 'Erin Editor' },
  rates: [
    { jobTypeName: 'Photo Enhancement', ratePerPhotoCents: 150 },
    { jobTypeName: 'Virtual Staging', ratePerPhotoCents: 1200 },
  ],
  expiresAt: '2025-03-12T10:00:00.000Z',
  ...fields,
});

// Pages load on demand and the machine may be busy: navigation-heavy waits get more time than the default second.
const PAGE_LOAD = { timeout: 5000 };

const signUpForm = () => screen.findByRole('form', { name: 'Editor sign-up' }, PAGE_LOAD);
const landsOnEditorDashboard = async (view: ReturnType<typeof renderApp>) => {
  expect(await screen.findByRole('heading', { name: 'Editor Dashboard', level: 1 }, PAGE_LOAD)).toBeInTheDocument();
  expect(view.router.state.location.pathname).toBe('/editor');
};
const passwordField = () => screen.getByLabelText(/^(Password|Your existing password)/);
const confirmationField = () => screen.queryByLabelText(/^Confirm password/);

async function openInvitation(path = LINK) {
  const view = renderApp(path);
  await signUpForm();
  return view;
}

/** Pastes rather than types: typing key by key is slow and adds nothing to these tests. */
async function enter(view: ReturnType<typeof renderApp>, field: HTMLElement, text: string) {
  await view.user.click(field);
  await view.user.paste(text);
}

async function submit(view: ReturnType<typeof renderApp>, password: string, confirmation?: string) {
  if (password) await enter(view, passwordField(), password);
  const confirm = confirmationField();
  if (confirm && confirmation) await enter(view, confirm, confirmation);
  await view.user.click(screen.getByRole('button', { name: /^(Create editor account|Sign in and join)$/ }));
}

// The first test would otherwise pay for compiling the page inside its own waits.
beforeAll(() => import('./InvitationPage'));

describe('Invitation link', () => {
  it("says 'Invalid invitation link' and goes to sign-in when the token is missing", async () => {
    const view = renderApp(`/invitation?email=${EMAIL}`);
    expect(await screen.findByText('Invalid invitation link', {}, PAGE_LOAD)).toBeInTheDocument();
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/login'));
    expect(fakeApi.requestsTo('GET', '/api/auth/verify-invitation')).toHaveLength(0);
  });

  it("says 'Invalid invitation link' and goes to sign-in when the email is missing", async () => {
    const view = renderApp(`/invitation?token=${TOKEN}`);
    expect(await screen.findByText('Invalid invitation link', {}, PAGE_LOAD)).toBeInTheDocument();
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/login'));
  });

  it('shows a loader while the link is being verified', async () => {
    fakeApi.fetch.mockImplementationOnce(() => new Promise<Response>(() => {}));
    renderApp(LINK);
    await screen.findByText('Verifying your invitation…', {}, PAGE_LOAD);
    expect(screen.queryByRole('form', { name: 'Editor sign-up' })).not.toBeInTheDocument();
  });

  it('verifies the email and token of the link without sending a token of the visitor', async () => {
    fakeFirebase.signInAs({ email: 'someone.else@example.com' });
    fakeApi.on('GET', '/api/auth/verify-invitation', { status: 200, body: aValidInvitation() });
    renderApp(LINK);
    await signUpForm();
    const [request] = fakeApi.requestsTo('GET', '/api/auth/verify-invitation');
    expect(request?.query.get('email')).toBe(EMAIL);
    expect(request?.query.get('token')).toBe(TOKEN);
    expect(request?.headers.get('Authorization')).toBeNull();
  });

  it("shows the 'Invalid Invitation' page with a way to sign in when the server says the link is not valid", async () => {
    fakeApi.on('GET', '/api/auth/verify-invitation', {
      status: 200,
      body: { valid: false, user: null, rates: [], expiresAt: null },
    });
    renderApp(LINK);
    expect(await screen.findByRole('heading', { name: 'Invalid Invitation' }, PAGE_LOAD)).toBeInTheDocument();
    expect(screen.getByText('This invitation link is not valid or has expired.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to sign in' })).toHaveAttribute('href', '/login');
  });

  it("shows the 'Invalid Invitation' page without asking the server when the token is malformed", async () => {
    renderApp(`/invitation?email=${EMAIL}&token=short`);
    expect(await screen.findByRole('heading', { name: 'Invalid Invitation' }, PAGE_LOAD)).toBeInTheDocument();
    expect(fakeApi.requestsTo('GET', '/api/auth/verify-invitation')).toHaveLength(0);
  });

  it("shows the server's words when the verification fails", async () => {
    fakeApi.on('GET', '/api/auth/verify-invitation', {
      status: 409,
      body: { error: 'CONFLICT', message: 'This invitation is no longer valid' },
    });
    renderApp(LINK);
    expect(await screen.findByText('This invitation is no longer valid', {}, PAGE_LOAD)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it("says 'Failed to verify invitation' when the server gives no reason", async () => {
    fakeApi.on('GET', '/api/auth/verify-invitation', { status: 403 });
    renderApp(LINK);
    expect(await screen.findByText('Failed to verify invitation', {}, PAGE_LOAD)).toBeInTheDocument();
  });
});

// Signing up walks through several pages that load on demand.
describe('Invitation sign-up form', { timeout: 15_000 }, () => {
  beforeEach(() => {
    fakeApi.on('GET', '/api/auth/verify-invitation', { status: 200, body: aValidInvitation() });
    fakeApi.on('POST', '/api/auth/complete-signup', { status: 200, body: { success: true } });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView({ email: EMAIL, roles: ['editor'] }) });
  });

  it('shows the invited email and name read-only, the rates offered and the expiry', async () => {
    await openInvitation();
    expect(screen.getByRole('heading', { name: 'Join as an editor' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue(EMAIL);
    expect(screen.getByLabelText('Email')).toHaveAttribute('readonly');
    expect(screen.getByLabelText('Name')).toHaveValue('Erin Editor');
    expect(screen.getByLabelText('Name')).toHaveAttribute('readonly');
    const rates = screen.getByRole('list', { name: 'Your rates' });
    expect(within(rates).getByText(/Photo Enhancement/)).toHaveTextContent('Photo Enhancement: $1.50 per photo');
    expect(within(rates).getByText(/Virtual Staging/)).toHaveTextContent('Virtual Staging: $12.00 per photo');
    expect(screen.getByText('This invitation expires on Mar 12, 2025.')).toBeInTheDocument();
    expect(confirmationField()).toBeInTheDocument();
  });

  it(`refuses a password shorter than 6 characters before creating an account`, async () => {
    const view = await openInvitation();
    await submit(view, '12345', '12345');
    expect(await screen.findByText('Password must be at least 6 characters long')).toBeInTheDocument();
    expect(passwordField()).toHaveAccessibleDescription(
      expect.stringContaining('Password must be at least 6 characters long'),
    );
    expect(firebaseAuthModule.createUserWithEmailAndPassword).not.toHaveBeenCalled();
  });

  it('refuses a confirmation that does not match', async () => {
    const view = await openInvitation();
    await submit(view, 'secret-password', 'secret-passwort');
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(confirmationField()).toHaveAccessibleDescription(expect.stringContaining('Passwords do not match'));
    expect(firebaseAuthModule.createUserWithEmailAndPassword).not.toHaveBeenCalled();
  });

  it('creates the account with the invited name, completes the sign-up and lands on the editor dashboard', async () => {
    const view = await openInvitation();
    await submit(view, '123456', '123456');

    await landsOnEditorDashboard(view);
    expect(firebaseAuthModule.createUserWithEmailAndPassword).toHaveBeenCalledWith(expect.anything(), EMAIL, '123456');
    expect(firebaseAuthModule.updateProfile).toHaveBeenCalledWith(expect.anything(), { displayName: 'Erin Editor' });
    const [completion] = fakeApi.requestsTo('POST', '/api/auth/complete-signup');
    // The account's own ID token goes in the body (never as a Bearer header) so the server can check its email.
    expect(completion?.body).toEqual({ email: EMAIL, token: TOKEN, firebaseUid: 'uid-1', idToken: 'token-of-uid-1' });
    expect(completion?.headers.get('Authorization')).toBeNull();
  });

  it('refreshes a profile cached before joining, so the editor pages see the new role', async () => {
    const photographerMe = aMeView({ email: EMAIL, roles: ['photographer'] });
    const editorMe = aMeView({ email: EMAIL, roles: ['photographer', 'editor'] });
    let joined = false;
    fakeApi.on('GET', '/api/auth/me', () => ({ status: 200, body: joined ? editorMe : photographerMe }));
    fakeApi.on('POST', '/api/auth/complete-signup', () => {
      joined = true;
      return { status: 200, body: { success: true } };
    });
    const photographer = fakeFirebase.addAccount(EMAIL, 'old-password');
    fakeFirebase.signInAs(photographer);
    const view = renderApp('/profile');
    await screen.findByRole('region', { name: 'Security' }, PAGE_LOAD);

    await view.router.navigate(LINK);
    await signUpForm();
    await submit(view, 'old-password');

    await landsOnEditorDashboard(view);
    expect(screen.queryByText('Access Denied')).not.toBeInTheDocument();
  });

  it('switches to the existing-account form when the email already has an account, and joins with its password', async () => {
    const existing = fakeFirebase.addAccount(EMAIL, 'old-password');
    const view = await openInvitation();
    await submit(view, 'new-password', 'new-password');

    expect(await screen.findByLabelText(/^Your existing password/)).toHaveValue('');
    expect(confirmationField()).not.toBeInTheDocument();
    expect(screen.getByText(/You already have an account with this email/)).toBeInTheDocument();

    await submit(view, 'old-password');
    await landsOnEditorDashboard(view);
    expect(fakeApi.requestsTo('POST', '/api/auth/complete-signup')[0]?.body).toEqual({
      email: EMAIL,
      token: TOKEN,
      firebaseUid: existing.uid,
      idToken: `token-of-${existing.uid}`,
    });
  });

  it('asks for the existing password up front when the invited person is already signed in', async () => {
    fakeFirebase.addAccount(EMAIL, 'old-password');
    fakeFirebase.signInAs({ email: EMAIL });
    await openInvitation();
    expect(screen.getByLabelText(/^Your existing password/)).toBeInTheDocument();
    expect(confirmationField()).not.toBeInTheDocument();
  });

  it('says the existing password is wrong and does not complete the sign-up', async () => {
    fakeFirebase.addAccount(EMAIL, 'old-password');
    const view = await openInvitation();
    await submit(view, 'new-password', 'new-password');
    await screen.findByLabelText(/^Your existing password/);
    await submit(view, 'not-my-password');

    expect(
      await screen.findByText(
        'You already have an account with this email, but the password is incorrect. Please use the correct password.',
      ),
    ).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', '/api/auth/complete-signup')).toHaveLength(0);
    expect(view.router.state.location.pathname).toBe('/invitation');
  });

  it('treats an invalid-credential answer from newer identity providers as a wrong existing password', async () => {
    fakeFirebase.addAccount(EMAIL, 'old-password');
    fakeFirebase.signInAs({ email: EMAIL });
    firebaseAuthModule.signInWithEmailAndPassword.mockRejectedValueOnce(firebaseError('auth/invalid-credential'));
    const view = await openInvitation();
    await submit(view, 'not-my-password');
    expect(await screen.findByText(/but the password is incorrect/)).toBeInTheDocument();
  });

  it("shows the server's message when the sign-up cannot be completed, and retries only that step", async () => {
    fakeApi.on('POST', '/api/auth/complete-signup', {
      status: 409,
      body: { error: 'CONFLICT', message: 'This invitation is no longer valid' },
    });
    const view = await openInvitation();
    await submit(view, 'secret-password', 'secret-password');
    expect(await screen.findByRole('alert')).toHaveTextContent('This invitation is no longer valid');
    expect(view.router.state.location.pathname).toBe('/invitation');

    fakeApi.on('POST', '/api/auth/complete-signup', { status: 200, body: { success: true } });
    await view.user.click(screen.getByRole('button', { name: 'Create editor account' }));
    await landsOnEditorDashboard(view);
    expect(firebaseAuthModule.createUserWithEmailAndPassword).toHaveBeenCalledTimes(1);
  });

  it("says 'Failed to complete signup' when the server gives no reason", async () => {
    fakeApi.on('POST', '/api/auth/complete-signup', { status: 500 });
    const view = await openInvitation();
    await submit(view, 'secret-password', 'secret-password');
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to complete signup');
  });

  it('disables the form while the account is being created', async () => {
    const createAccount = firebaseAuthModule.createUserWithEmailAndPassword.getMockImplementation();
    let release: () => void = () => {};
    const identityProviderAnswers = new Promise<void>((resolve) => {
      release = resolve;
    });
    firebaseAuthModule.createUserWithEmailAndPassword.mockImplementationOnce(async (...args) => {
      await identityProviderAnswers;
      return createAccount!(...args);
    });
    const view = await openInvitation();
    await submit(view, 'secret-password', 'secret-password');

    await waitFor(() => expect(passwordField()).toBeDisabled());
    expect(confirmationField()).toBeDisabled();
    expect(screen.getByRole('button', { name: /Create editor account/ })).toHaveAttribute('data-loading', 'true');
    release();
    await landsOnEditorDashboard(view);
  });

  it('has no accessibility violations that can be found without a browser, in either form', async () => {
    fakeFirebase.addAccount(EMAIL, 'old-password');
    const view = await openInvitation();
    await expectNoAxeViolations();
    await submit(view, 'new-password', 'new-password');
    await screen.findByLabelText(/^Your existing password/);
    await expectNoAxeViolations();
  });
});

/** Colour contrast needs a real browser's layout, so jsdom runs every other rule. */
async function expectNoAxeViolations() {
  const { violations } = await axe.run(document.body, { rules: { 'color-contrast': { enabled: false } } });
  expect(violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
}
