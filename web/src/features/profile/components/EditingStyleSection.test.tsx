import { defaultEditingStyle, type EditingStyle, type EditingStyleView } from '@marketplace/events/editing-style';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { fakeFirebase } from '../../../test/fake-firebase-auth';
import { aMeView } from '../../../test/me-view';
import { renderApp } from '../../../test/render-app';

const URL = '/api/profile/editing-style';
const photo = { key: 'profiles/uid/style/a-look.jpg', filename: 'look.jpg' };
const savedStyle: EditingStyle = {
  ...defaultEditingStyle,
  sky: 'blue',
  windowPull: true,
  notes: 'Warm lamps on.',
  referencePhotos: [photo],
};
const viewOf = (style: EditingStyle, saved = true): EditingStyleView => ({
  style,
  saved,
  referencePhotos: style.referencePhotos.map((p) => ({ ...p, url: `https://photos.example/${p.filename}` })),
});

const openSection = async () => {
  const view = renderApp('/profile');
  const section = await screen.findByRole('region', { name: 'Editing style' }, { timeout: 20_000 });
  await within(section).findByRole('radiogroup', { name: 'Sky' }, { timeout: 10_000 });
  return { ...view, section: within(section) };
};

describe("Profile's editing style", { timeout: 30_000 }, () => {
  beforeEach(() => {
    fakeFirebase.signInAs({ email: 'pat@example.com' });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView({ roles: ['photographer'] }) });
    fakeApi.on('GET', URL, { status: 200, body: viewOf(savedStyle) });
  });

  it('shows the saved choices and reference photos, and saves the changed style whole', async () => {
    fakeApi.on('PUT', URL, ({ body }) => ({ status: 200, body: viewOf(body as EditingStyle) }));
    const { section, user } = await openSection();
    expect(section.getByRole('radio', { name: 'Blue sky' })).toBeChecked();
    expect(section.getByRole('switch', { name: /Window pull/ })).toBeChecked();
    expect(section.getByRole('img', { name: 'Reference photo look.jpg' })).toBeInTheDocument();

    await user.click(section.getByRole('radio', { name: 'Sunset sky' }));
    await user.click(section.getByRole('switch', { name: 'Lawn greening' }));
    await user.click(section.getByRole('button', { name: 'Remove reference photo look.jpg' }));
    await user.click(section.getByRole('button', { name: 'Save editing style' }));

    await waitFor(() => expect(fakeApi.requestsTo('PUT', URL)).toHaveLength(1));
    expect(fakeApi.requestsTo('PUT', URL)[0]?.body).toEqual({
      ...savedStyle,
      sky: 'sunset',
      lawnGreening: true,
      referencePhotos: [],
    });
  });

  it("shows the server's refusal by its field", async () => {
    fakeApi.on('PUT', URL, {
      status: 400,
      body: {
        error: 'VALIDATION_ERROR',
        message: 'Choose how the sky should look',
        details: [{ path: 'body.sky', message: 'Choose how the sky should look' }],
      },
    });
    const { section, user } = await openSection();
    await user.click(section.getByRole('button', { name: 'Save editing style' }));
    expect(await section.findByText('Choose how the sky should look')).toBeInTheDocument();
  });

  it('says so when the style cannot be loaded', async () => {
    fakeApi.on('GET', URL, { status: 500, body: { error: 'INTERNAL', message: 'Something went wrong' } });
    renderApp('/profile');
    expect(
      await screen.findByText('Your editing style could not be loaded', undefined, { timeout: 20_000 }),
    ).toBeInTheDocument();
  });
});
