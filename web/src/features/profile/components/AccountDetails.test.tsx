import { profilePictureMessages } from '@marketplace/events/profile';
import type { MeView } from '@marketplace/events/users';
import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { fakeFirebase } from '../../../test/fake-firebase-auth';
import { aMeView } from '../../../test/me-view';
import { renderApp } from '../../../test/render-app';

const openProfile = async (me: MeView) => {
  fakeApi.on('GET', '/api/auth/me', { status: 200, body: me });
  const view = renderApp('/profile');
  const section = await screen.findByRole('region', { name: 'Profile' }, { timeout: 15_000 });
  return { ...view, section: within(section) };
};

const ready = (name: string) => ({
  state: 'ready' as const,
  smallUrl: `https://photos.test/${name}.small.webp`,
  largeUrl: `https://photos.test/${name}.large.webp`,
});

/** The hidden file input of a picture's Upload/Replace button (Mantine's FileButton). */
const fileInputOf = (region: HTMLElement) => region.querySelector<HTMLInputElement>('input[type="file"]')!;

describe("Profile's Profile section", { timeout: 30_000 }, () => {
  beforeEach(() => {
    fakeFirebase.signInAs({ email: 'pat@example.com' });
  });

  it('saves the changed fields only, and says so', async () => {
    const me = aMeView({ displayName: 'Pat Doe', phone: null });
    fakeApi.on('PATCH', '/api/auth/profile', ({ body }) => ({
      status: 200,
      body: { ...me, ...(body as object), phone: '+15551234567' },
    }));
    const { user, section } = await openProfile(me);

    expect(section.getByLabelText('Display name')).toHaveValue('Pat Doe');
    expect(section.getByRole('button', { name: 'Save profile' })).toBeDisabled();
    await user.type(section.getByLabelText(/^Phone/), '+1 555 123 4567');
    await user.click(section.getByRole('button', { name: 'Save profile' }));

    expect(await section.findByText('Profile saved.')).toBeInTheDocument();
    expect(fakeApi.requestsTo('PATCH', '/api/auth/profile').map((r) => r.body)).toEqual([{ phone: '+1 555 123 4567' }]);
    expect(section.getByLabelText(/^Phone/)).toHaveValue('+15551234567');
  });

  it("shows the server's refusal under its field, and an emptied phone is removed", async () => {
    const me = aMeView({ phone: '+15551234567' });
    fakeApi.on('PATCH', '/api/auth/profile', {
      status: 400,
      body: {
        error: 'VALIDATION_FAILED',
        message: 'Display name cannot be empty',
        details: [{ path: 'body.displayName', message: 'Display name cannot be empty' }],
      },
    });
    const { user, section } = await openProfile(me);

    await user.clear(section.getByLabelText('Display name'));
    await user.clear(section.getByLabelText(/^Phone/));
    await user.click(section.getByRole('button', { name: 'Save profile' }));

    expect(await section.findByText('Display name cannot be empty')).toBeInTheDocument();
    expect(section.getByLabelText('Display name')).toHaveAttribute('aria-invalid', 'true');
    expect(fakeApi.requestsTo('PATCH', '/api/auth/profile')[0]?.body).toEqual({ displayName: '', phone: null });
    expect(section.queryByText('Profile saved.')).not.toBeInTheDocument();
  });

  it('offers a photographer a business name and a logo, and an editor neither', async () => {
    const photographer = await openProfile(aMeView({ roles: ['photographer'], businessName: 'Bright Rooms' }));
    expect(photographer.section.getByLabelText(/^Business name/)).toHaveValue('Bright Rooms');
    expect(photographer.section.getByRole('region', { name: 'Business logo' })).toBeInTheDocument();
    expect(photographer.section.getByRole('button', { name: 'Upload logo' })).toBeInTheDocument();
    photographer.unmount();

    fakeApi.reset();
    const editor = await openProfile(aMeView({ roles: ['editor'] }));
    expect(editor.section.queryByLabelText(/^Business name/)).not.toBeInTheDocument();
    expect(editor.section.queryByRole('region', { name: 'Business logo' })).not.toBeInTheDocument();
    expect(editor.section.getByRole('button', { name: 'Upload image' })).toBeInTheDocument();
  });

  it('reads the record again while the picture is being made, then shows it', async () => {
    const processing = aMeView({ profileImage: { state: 'processing', smallUrl: null, largeUrl: null } });
    const done = aMeView({ profileImage: ready('avatar'), profileImageUrl: ready('avatar').smallUrl });
    let current = processing;
    fakeApi.on('GET', '/api/auth/me', () => ({ status: 200, body: current }));
    renderApp('/profile');
    const section = within(await screen.findByRole('region', { name: 'Profile image' }, { timeout: 15_000 }));
    expect(await section.findByText('Making the sizes of your picture…')).toBeInTheDocument();
    const readsBefore = fakeApi.requestsTo('GET', '/api/auth/me').length;
    current = done;

    expect(await section.findByRole('img', { name: 'Your profile image' }, { timeout: 5000 })).toHaveAttribute(
      'src',
      ready('avatar').largeUrl,
    );
    expect(section.getByRole('button', { name: 'Replace image' })).toBeInTheDocument();
    expect(fakeApi.requestsTo('GET', '/api/auth/me').length).toBeGreaterThan(readsBefore);
  });

  it('says when the file was no picture the worker could read', async () => {
    await openProfile(aMeView({ profileImage: { state: 'failed', smallUrl: null, largeUrl: null } }));
    expect(screen.getByText(profilePictureMessages.notAPicture)).toBeInTheDocument();
  });

  it('removes the logo', async () => {
    const me = aMeView({ businessLogo: ready('logo') });
    fakeApi.on('DELETE', '/api/profile/logo', { status: 200, body: { ...me, businessLogo: null } });
    const { user } = await openProfile(me);
    const logo = within(screen.getByRole('region', { name: 'Business logo' }));
    expect(logo.getByRole('img', { name: 'Your business logo' })).toHaveAttribute('src', ready('logo').largeUrl);

    await user.click(logo.getByRole('button', { name: 'Remove logo' }));

    expect(await logo.findByText('Your logo was removed.')).toBeInTheDocument();
    expect(logo.queryByRole('img')).not.toBeInTheDocument();
    expect(logo.getByRole('button', { name: 'Upload logo' })).toBeInTheDocument();
  });

  it('refuses a file of another type or too large before anything is sent', async () => {
    await openProfile(aMeView());
    const region = screen.getByRole('region', { name: 'Profile image' });
    const input = fileInputOf(region);
    expect(input).toHaveAttribute('accept', 'image/jpeg,image/png,image/webp');

    fireEvent.change(input, { target: { files: [new File(['gif'], 'me.gif', { type: 'image/gif' })] } });
    expect(await within(region).findByText(profilePictureMessages.fileType)).toBeInTheDocument();

    const huge = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'me.jpg', { type: 'image/jpeg' });
    fireEvent.change(input, { target: { files: [huge] } });
    expect(await within(region).findByText(profilePictureMessages.tooLarge)).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', '/api/profile/image/sign')).toHaveLength(0);
  });

  it("shows the server's refusal of an upload", async () => {
    fakeApi.on('POST', '/api/profile/image/sign', {
      status: 400,
      body: { error: 'BAD_REQUEST', message: 'The picture must be a JPEG, PNG or WebP image' },
    });
    await openProfile(aMeView());
    const region = screen.getByRole('region', { name: 'Profile image' });
    fireEvent.change(fileInputOf(region), {
      target: { files: [new File(['png'], 'me.png', { type: 'image/png' })] },
    });
    expect(await within(region).findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent(
      'The picture must be a JPEG, PNG or WebP image',
    );
    const signed = fakeApi.requestsTo('POST', '/api/profile/image/sign');
    expect((signed[0]?.body as { key: string }).key).toMatch(/^profiles\/[^/]+\/image\/[0-9a-f-]{36}-me\.png$/);
    expect(fakeApi.requestsTo('PUT', '/api/profile/image')).toHaveLength(0);
  });
});
