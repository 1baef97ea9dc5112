import type { NotificationSettingsView } from '@marketplace/events/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { fakeFirebase } from '../../../test/fake-firebase-auth';
import { aMeView } from '../../../test/me-view';
import { renderApp } from '../../../test/render-app';

const photographerSettings = (photosReady = true): NotificationSettingsView => ({
  switchable: [
    {
      kind: 'editor_started',
      label: 'Editor started',
      description: 'When an editor starts working on your order.',
      enabled: true,
    },
    {
      kind: 'photos_ready',
      label: 'Photos ready',
      description: 'When your edited photos are ready to download, and again after each revision.',
      enabled: photosReady,
    },
  ],
  alwaysOn: [
    { kind: 'payment_receipt', label: 'Payment receipts', description: 'Your receipt for every order you pay for.' },
    { kind: 'security', label: 'Security emails', description: 'Changes to your password, email address or sign-ins.' },
  ],
});

const openProfile = async () => {
  const view = renderApp('/profile');
  const section = await screen.findByRole('region', { name: 'Notifications' }, { timeout: 20_000 });
  return { ...view, section };
};

describe("Profile's email switches", { timeout: 30_000 }, () => {
  beforeEach(() => {
    fakeFirebase.signInAs({ email: 'pat@example.com' });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView({ roles: ['photographer'] }) });
    fakeApi.on('GET', '/api/account/notifications', { status: 200, body: photographerSettings() });
  });

  it('shows a switch per email the role gets, and receipts and security emails as always on', async () => {
    const { section } = await openProfile();
    const editorStarted = await within(section).findByRole(
      'switch',
      { name: '“Editor started” emails' },
      { timeout: 10_000 },
    );
    expect(editorStarted).toBeChecked();
    expect(within(section).getByRole('switch', { name: '“Photos ready” emails' })).toBeChecked();
    expect(within(section).getAllByRole('switch')).toHaveLength(2);
    expect(within(section).getByText('Payment receipts')).toBeInTheDocument();
    expect(within(section).getByText('Security emails')).toBeInTheDocument();
    expect(within(section).getAllByText('Always on')).toHaveLength(2);
  });

  it('saves a switch the moment it is turned', async () => {
    fakeApi.on('PATCH', '/api/account/notifications', { status: 200, body: photographerSettings(false) });
    const { section, user } = await openProfile();
    const photosReady = await within(section).findByRole(
      'switch',
      { name: '“Photos ready” emails' },
      { timeout: 10_000 },
    );
    await user.click(photosReady);
    await waitFor(() => expect(fakeApi.requestsTo('PATCH', '/api/account/notifications')).toHaveLength(1));
    expect(fakeApi.requestsTo('PATCH', '/api/account/notifications')[0]?.body).toEqual({
      emails: { photos_ready: false },
    });
    await waitFor(() => expect(photosReady).not.toBeChecked());
    expect(within(section).getByRole('switch', { name: '“Editor started” emails' })).toBeChecked();
  });

  it('puts the switch back and says so when the save fails', async () => {
    fakeApi.on('PATCH', '/api/account/notifications', {
      status: 500,
      body: { error: 'INTERNAL', message: 'Something went wrong on our side. Please try again.' },
    });
    const { section, user } = await openProfile();
    const photosReady = await within(section).findByRole(
      'switch',
      { name: '“Photos ready” emails' },
      { timeout: 10_000 },
    );
    await user.click(photosReady);
    expect(await screen.findByText('Something went wrong on our side. Please try again.')).toBeInTheDocument();
    await waitFor(() => expect(photosReady).toBeChecked());
  });

  it('says when the settings cannot be loaded, and tries again', async () => {
    let calls = 0;
    fakeApi.on('GET', '/api/account/notifications', () => {
      calls += 1;
      return calls === 1
        ? { status: 503, body: { error: 'UNAVAILABLE', message: 'The service is busy.' } }
        : { status: 200, body: photographerSettings() };
    });
    const { section, user } = await openProfile();
    const alert = await within(section).findByText('Your email settings could not be loaded', {}, { timeout: 10_000 });
    expect(alert).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Try again' }));
    expect(
      await within(section).findByRole('switch', { name: '“Photos ready” emails' }, { timeout: 10_000 }),
    ).toBeChecked();
  });

  it("shows an editor the editor's emails", async () => {
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView({ roles: ['editor'] }) });
    fakeApi.on('GET', '/api/account/notifications', {
      status: 200,
      body: {
        switchable: [
          { kind: 'order_assigned', label: 'Order assigned', description: 'x', enabled: true },
          { kind: 'revision_requested', label: 'Revision requested', description: 'y', enabled: false },
        ],
        alwaysOn: [{ kind: 'security', label: 'Security emails', description: 'z' }],
      } satisfies NotificationSettingsView,
    });
    const { section } = await openProfile();
    expect(
      await within(section).findByRole('switch', { name: '“Order assigned” emails' }, { timeout: 10_000 }),
    ).toBeChecked();
    expect(within(section).getByRole('switch', { name: '“Revision requested” emails' })).not.toBeChecked();
    expect(within(section).queryByText('Payment receipts')).not.toBeInTheDocument();
  });
});
