import type { MeView } from '@marketplace/events/users';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { fakeApi } from '../test/fake-api';
import { fakeFirebase, firebaseAuthModule } from '../test/fake-firebase-auth';
import { FakeWebSocket } from '../test/fake-websocket';
import { aMeView } from '../test/me-view';
import { renderApp } from '../test/render-app';

function signedInAs(me: MeView) {
  fakeFirebase.signInAs({ email: me.email });
  fakeApi.on('GET', '/api/auth/me', { status: 200, body: me });
}

/** Mantine's responsive classes are media queries, which happy-dom evaluates against its viewport. */
const phoneSizedWindow = () => {
  const { happyDOM } = window as unknown as {
    happyDOM: { setViewport(size: { width: number; height: number }): void };
  };
  happyDOM.setViewport({ width: 390, height: 844 });
  onTestFinished(() => happyDOM.setViewport({ width: 1024, height: 768 }));
};

const mainNavigation = async () => within(await screen.findByRole('navigation', { name: 'Main' }));

describe('Navigation shell', () => {
  it("shows a photographer's entries and not the editor's or admin's", async () => {
    signedInAs(aMeView({ roles: ['photographer'] }));
    renderApp('/profile');
    const nav = await mainNavigation();
    await waitFor(() =>
      expect(nav.getByRole('link', { name: 'Create Order' })).toHaveAttribute('href', '/create-order'),
    );
    expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(nav.getByRole('link', { name: 'Report Problem' })).toHaveAttribute('href', '/feedback');
    expect(nav.getByRole('link', { name: 'Profile' })).toHaveAttribute('href', '/profile');
    expect(nav.queryByRole('link', { name: 'Available Jobs' })).not.toBeInTheDocument();
    expect(nav.queryByRole('link', { name: 'Admin Panel' })).not.toBeInTheDocument();
  });

  it('shows editor and admin entries to a user holding those roles', async () => {
    signedInAs(aMeView({ roles: ['editor', 'admin'] }));
    renderApp('/profile');
    const nav = await mainNavigation();
    await waitFor(() => expect(nav.getByRole('link', { name: 'Available Jobs' })).toHaveAttribute('href', '/editor'));
    expect(nav.getByRole('link', { name: 'Admin Panel' })).toHaveAttribute('href', '/admin');
    expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/editor');
    expect(nav.queryByRole('link', { name: 'Create Order' })).not.toBeInTheDocument();
  });

  it('marks the current page in the navigation', async () => {
    signedInAs(aMeView());
    renderApp('/feedback');
    const nav = await mainNavigation();
    expect(nav.getByRole('link', { name: 'Report Problem' })).toHaveAttribute('aria-current', 'page');
    expect(nav.getByRole('link', { name: 'Profile' })).not.toHaveAttribute('aria-current');
  });

  it("marks only one entry current when an admin's Dashboard and Admin Panel lead to the same page", async () => {
    signedInAs(aMeView({ roles: ['admin'] }));
    renderApp('/admin');
    const nav = await mainNavigation();
    await waitFor(() => expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/admin'));
    expect(nav.getAllByRole('link').filter((link) => link.getAttribute('aria-current') === 'page')).toHaveLength(1);
  });

  it('shows the name, the roles and generated initials when there is no profile image', async () => {
    signedInAs(aMeView({ displayName: 'Pat Doe', roles: ['photographer', 'admin'] }));
    // A page that does not name the user itself (the profile does).
    renderApp('/feedback');
    expect(await screen.findByText('Pat Doe')).toBeInTheDocument();
    expect(screen.getByText('Photographer, Admin')).toBeInTheDocument();
    expect(screen.getByText('PD')).toBeInTheDocument();
  });

  it("shows the email when there is no name, the profile image, and 'No roles'", async () => {
    signedInAs(
      aMeView({
        displayName: null,
        email: 'nameless@example.com',
        roles: [],
        profileImageUrl: 'https://img.test/a.png',
      }),
    );
    renderApp('/feedback');
    expect(await screen.findByText('nameless@example.com')).toBeInTheDocument();
    expect(screen.getByText('No roles')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'nameless@example.com' })).toHaveAttribute('src', 'https://img.test/a.png');
  });

  it('shows the uploaded profile image as the avatar once its sizes are made', async () => {
    const smallUrl = 'https://photos.test/profiles/uid-1/sizes/image_a.jpg.small.webp';
    signedInAs(
      aMeView({
        displayName: 'Pat Doe',
        profileImageUrl: smallUrl,
        profileImage: { state: 'ready', smallUrl, largeUrl: smallUrl.replace('small', 'large') },
      }),
    );
    renderApp('/feedback');
    expect(await screen.findByRole('img', { name: 'Pat Doe' })).toHaveAttribute('src', smallUrl);
    expect(screen.queryByText('PD')).not.toBeInTheDocument();
  });

  it('signs out, says so and returns to the login page', async () => {
    signedInAs(aMeView());
    const { user, router } = renderApp('/profile');
    await screen.findByRole('navigation', { name: 'Main' });
    await user.click(screen.getByRole('button', { name: 'Sign Out' }));
    expect(await screen.findByText('Signed out successfully')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(firebaseAuthModule.signOut).toHaveBeenCalled();
  });

  it("opens one live-updates socket with the user's token, and closes it on sign-out", async () => {
    signedInAs(aMeView());
    const { user } = renderApp('/profile');
    await screen.findByRole('navigation', { name: 'Main' });
    await waitFor(() => expect(FakeWebSocket.made).toHaveLength(1));
    const socket = FakeWebSocket.made[0]!;
    expect(new URL(socket.url).pathname).toBe('/live');
    expect(socket.token).toBe('token-of-uid-1');
    socket.accept();
    await user.click(screen.getByRole('button', { name: 'Sign Out' }));
    await waitFor(() => expect(socket.closedWith?.code).toBe(1000));
    expect(FakeWebSocket.made).toHaveLength(1);
  });

  it('says in words, once the socket has failed twice, that live updates are delayed, and not while connecting', async () => {
    signedInAs(aMeView());
    renderApp('/profile');
    await screen.findByRole('navigation', { name: 'Main' });
    await waitFor(() => expect(FakeWebSocket.made).toHaveLength(1));
    const notice = screen.getByRole('status', { name: '' });
    expect(notice).toBeEmptyDOMElement();
    FakeWebSocket.made[0]!.refuse();
    // A fresh token for the second attempt, after a wait of up to two seconds.
    await waitFor(() => expect(FakeWebSocket.made).toHaveLength(2), { timeout: 4_000 });
    expect(notice).toBeEmptyDOMElement();
    FakeWebSocket.made[1]!.refuse();
    await waitFor(() => expect(notice).toHaveTextContent('Live updates are delayed. Reload to see the latest.'));
    await waitFor(() => expect(FakeWebSocket.made).toHaveLength(3), { timeout: 6_000 });
    FakeWebSocket.made[2]!.accept();
    await waitFor(() => expect(notice).toBeEmptyDOMElement());
  });

  it('says when signing out failed and stays put', async () => {
    signedInAs(aMeView());
    firebaseAuthModule.signOut.mockRejectedValueOnce(new Error('network down'));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { user, router } = renderApp('/profile');
    await screen.findByRole('navigation', { name: 'Main' });
    await user.click(screen.getByRole('button', { name: 'Sign Out' }));
    expect(await screen.findByText('Error signing out')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/profile');
  });

  it('opens the navigation drawer from the burger button on a phone', async () => {
    phoneSizedWindow();
    signedInAs(aMeView());
    const { user } = renderApp('/profile');
    await user.click(await screen.findByRole('button', { name: 'Open navigation' }));
    const drawer = await screen.findByRole('dialog');
    expect(within(drawer).getByRole('link', { name: 'Report Problem' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Close navigation' })).toHaveAttribute('aria-expanded', 'true');
  });
});
