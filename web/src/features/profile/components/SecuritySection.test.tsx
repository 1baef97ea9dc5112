import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { fakeFirebase, firebaseAuthModule } from '../../../test/fake-firebase-auth';
import { aMeView } from '../../../test/me-view';
import { renderApp } from '../../../test/render-app';

const EMAIL = 'pat@example.com';
const PASSWORD = 'old-passw0rd';
const ACTIVITY_URL = '/api/account/security-activity';

const openSecurity = async () => {
  const view = renderApp('/profile');
  const section = await screen.findByRole('region', { name: 'Security' }, { timeout: 5000 });
  return { ...view, section };
};

const dialog = () => screen.findByRole('dialog');

describe("Profile's security", { timeout: 30_000 }, () => {
  let uid = '';
  beforeEach(() => {
    const account = fakeFirebase.addAccount(EMAIL, PASSWORD);
    uid = account.uid;
    fakeFirebase.signInAs({ ...account });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView({ id: account.uid, email: EMAIL }) });
    fakeApi.on('GET', ACTIVITY_URL, { status: 200, body: { activity: [], nextCursor: null } });
  });

  it('lists the recent activity with when, what and which browser, and pages on', async () => {
    fakeApi.on('GET', ACTIVITY_URL, (request) =>
      request.query.get('cursor')
        ? {
            status: 200,
            body: {
              activity: [
                {
                  id: 'a1',
                  kind: 'email_changed',
                  at: '2026-01-02T10:00:00.000Z',
                  browser: 'Firefox on Linux',
                  ip: null,
                },
              ],
              nextCursor: null,
            },
          }
        : {
            status: 200,
            body: {
              activity: [
                {
                  id: 'a2',
                  kind: 'signed_out_everywhere',
                  at: '2026-01-03T10:00:00.000Z',
                  browser: 'Chrome on macOS',
                  ip: '203.0.113.9',
                },
              ],
              nextCursor: 'next',
            },
          },
    );
    const { section, user } = await openSecurity();
    const list = await within(section).findByRole('list', { name: 'Recent security activity' });
    expect(within(list).getByText('Signed out of all other devices')).toBeInTheDocument();
    expect(within(list).getByText('Chrome on macOS · 203.0.113.9')).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Show older activity' }));
    expect(await within(list).findByText('Email address changed')).toBeInTheDocument();
    expect(within(list).getByText('Firefox on Linux')).toBeInTheDocument();
    expect(within(section).queryByRole('button', { name: 'Show older activity' })).not.toBeInTheDocument();
  });

  it('says when there is no activity yet', async () => {
    const { section } = await openSecurity();
    expect(await within(section).findByText(/No security activity yet/)).toBeInTheDocument();
  });

  it('offers to try again when the activity cannot be loaded', async () => {
    fakeApi.on('GET', ACTIVITY_URL, { status: 500, body: { error: 'INTERNAL', message: 'Something went wrong.' } });
    const { section } = await openSecurity();
    expect(
      await within(section).findByText('Activity could not be loaded', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(within(section).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('changes the password after the current one is confirmed, then signs in with the new one', async () => {
    fakeApi.on('POST', '/api/account/password', (request) => {
      // As the server does at Firebase: the account's password is now the new one.
      fakeFirebase.addAccount(EMAIL, (request.body as { newPassword: string }).newPassword, { uid });
      return { status: 200, body: { changedAt: '2026-01-03T10:00:00.000Z' } };
    });
    const { section, user } = await openSecurity();
    await user.click(within(section).getByRole('button', { name: 'Change password' }));
    const form = within(await dialog());

    await user.type(form.getByLabelText(/^Current password/), 'not-it');
    await user.type(form.getByLabelText(/^New password\W*$/), 'new-passw0rd');
    await user.type(form.getByLabelText(/^New password again/), 'new-passw0rd');
    await user.click(form.getByRole('button', { name: 'Change password' }));
    expect(await form.findByText('That password is not right. Please try again.')).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', '/api/account/password')).toHaveLength(0);

    await user.clear(form.getByLabelText(/^Current password/));
    await user.type(form.getByLabelText(/^Current password/), PASSWORD);
    await user.click(form.getByRole('button', { name: 'Change password' }));

    expect(await screen.findByText(/Your password was changed/)).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', '/api/account/password')[0]?.body).toEqual({ newPassword: 'new-passw0rd' });
    expect(firebaseAuthModule.signInWithEmailAndPassword).toHaveBeenLastCalledWith(
      expect.anything(),
      EMAIL,
      'new-passw0rd',
    );
  });

  it('refuses two different new passwords, and shows the server’s rule under the field', async () => {
    fakeApi.on('POST', '/api/account/password', {
      status: 400,
      body: {
        error: 'VALIDATION_FAILED',
        message: 'Your new password needs at least one letter and one number',
        details: [{ path: 'body.newPassword', message: 'Your new password needs at least one letter and one number' }],
      },
    });
    const { section, user } = await openSecurity();
    await user.click(within(section).getByRole('button', { name: 'Change password' }));
    const form = within(await dialog());
    await user.type(form.getByLabelText(/^Current password/), PASSWORD);
    await user.type(form.getByLabelText(/^New password\W*$/), 'lettersonly');
    await user.type(form.getByLabelText(/^New password again/), 'lettersonlx');
    await user.click(form.getByRole('button', { name: 'Change password' }));
    expect(await form.findByText('The two new passwords are not the same.')).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', '/api/account/password')).toHaveLength(0);

    await user.clear(form.getByLabelText(/^New password again/));
    await user.type(form.getByLabelText(/^New password again/), 'lettersonly');
    await user.click(form.getByRole('button', { name: 'Change password' }));
    expect(await form.findByText('Your new password needs at least one letter and one number')).toBeInTheDocument();
  });

  it('sends the email-change link to the new address, or says the address is taken', async () => {
    let taken = true;
    fakeApi.on('POST', '/api/account/email-change', () =>
      taken
        ? {
            status: 409,
            body: { error: 'EMAIL_TAKEN', message: 'That email address is already used by another account.' },
          }
        : { status: 202, body: { newEmail: 'new@example.com', expiresAt: '2026-01-04T10:00:00.000Z' } },
    );
    const { section, user } = await openSecurity();
    await user.click(within(section).getByRole('button', { name: 'Change email' }));
    const form = within(await dialog());
    await user.type(form.getByLabelText(/^New email address/), 'new@example.com');
    await user.type(form.getByLabelText(/^Password/), PASSWORD);
    await user.click(form.getByRole('button', { name: 'Send confirmation link' }));
    expect(await form.findByText('That email address is already used by another account.')).toBeInTheDocument();

    taken = false;
    await user.click(form.getByRole('button', { name: 'Send confirmation link' }));
    const sent = within(await screen.findByRole('dialog', { name: 'Check your new inbox' }));
    expect(sent.getByText('new@example.com')).toBeInTheDocument();
    expect(sent.getByText(EMAIL)).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', '/api/account/email-change').at(-1)?.body).toEqual({
      newEmail: 'new@example.com',
    });
  });

  it('signs out every other device and keeps this one signed in with the password just typed', async () => {
    fakeApi.on('POST', '/api/account/sign-out-everywhere', {
      status: 200,
      body: { signedOutBefore: '2026-01-03T10:00:00.000Z' },
    });
    const { section, user } = await openSecurity();
    await user.click(within(section).getByRole('button', { name: 'Sign out of all other devices' }));
    const form = within(await dialog());
    await user.click(form.getByRole('button', { name: 'Sign out other devices' }));
    expect(await form.findByText('Enter your password.')).toBeInTheDocument();
    await user.type(form.getByLabelText(/^Password/), PASSWORD);
    await user.click(form.getByRole('button', { name: 'Sign out other devices' }));

    expect(await screen.findByText('Every other device was signed out. This one stays signed in.')).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', '/api/account/sign-out-everywhere')).toHaveLength(1);
    expect(firebaseAuthModule.signInWithEmailAndPassword).toHaveBeenLastCalledWith(expect.anything(), EMAIL, PASSWORD);
    await waitFor(() => expect(fakeApi.requestsTo('GET', ACTIVITY_URL).length).toBeGreaterThan(1));
  });
});
