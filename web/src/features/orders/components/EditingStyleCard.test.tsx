import { defaultEditingStyle } from '@marketplace/events/editing-style';
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { fakeFirebase } from '../../../test/fake-firebase-auth';
import { aMeView } from '../../../test/me-view';
import { anOrderDetail } from '../../../test/order-views';
import { renderApp } from '../../../test/render-app';

const ORDER_ID = 'order-12';
const EDITOR_EMAIL = 'erin@example.com';
const style = {
  ...defaultEditingStyle,
  sky: 'sunset' as const,
  fireplaceFire: true,
  notes: 'No people in mirrors.',
  referencePhotos: [{ key: 'profiles/p/style/a.jpg', filename: 'dusk.jpg' }],
};

describe("The order's editing style card", { timeout: 30_000 }, () => {
  beforeEach(() => {
    fakeFirebase.signInAs({ email: EDITOR_EMAIL });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView({ email: EDITOR_EMAIL, roles: ['editor'] }) });
    fakeApi.on('GET', `/api/orders/${ORDER_ID}/images`, { status: 200, body: { images: [] } });
    fakeApi.on('GET', `/api/orders/${ORDER_ID}/editing-style`, {
      status: 200,
      body: {
        style,
        saved: true,
        referencePhotos: [{ ...style.referencePhotos[0], url: 'https://photos.example/dusk.jpg' }],
      },
    });
  });

  const serve = (editingStyle: typeof style | null) =>
    fakeApi.on('GET', `/api/orders/${ORDER_ID}`, {
      status: 200,
      body: anOrderDetail({
        id: ORDER_ID,
        status: 'in_progress',
        editor: { displayName: 'Erin Editor', email: EDITOR_EMAIL },
        editingStyle,
      }),
    });

  it('shows the choices, the notes and the reference photos of the order', async () => {
    serve(style);
    renderApp(`/editor/orders/${ORDER_ID}`);
    const card = within(await screen.findByRole('region', { name: 'Editing style' }, { timeout: 20_000 }));
    expect(card.getByText('Sunset sky')).toBeInTheDocument();
    expect(card.getByText('Fire in fireplaces').nextSibling).toHaveTextContent('On');
    expect(card.getByText('No people in mirrors.')).toBeInTheDocument();
    expect(await card.findByRole('img', { name: 'Reference photo dusk.jpg' })).toBeInTheDocument();
  });

  it('says so for an order placed without one', async () => {
    serve(null);
    renderApp(`/editor/orders/${ORDER_ID}`);
    const card = within(await screen.findByRole('region', { name: 'Editing style' }, { timeout: 20_000 }));
    expect(card.getByText(/placed without an editing style/)).toBeInTheDocument();
    expect(fakeApi.requestsTo('GET', `/api/orders/${ORDER_ID}/editing-style`)).toHaveLength(0);
  });

  it('shows the photographer the style their order carries, on their own order page', async () => {
    fakeFirebase.signInAs({ email: 'pat@example.com' });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView() });
    serve(style);
    renderApp(`/orders/${ORDER_ID}`);
    const card = within(await screen.findByRole('region', { name: 'Editing style' }, { timeout: 20_000 }));
    expect(card.getByText('Sunset sky')).toBeInTheDocument();
    expect(await card.findByRole('img', { name: 'Reference photo dusk.jpg' })).toBeInTheDocument();
  });

  it('tells the photographer where a style is saved when the order has none', async () => {
    fakeFirebase.signInAs({ email: 'pat@example.com' });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView() });
    serve(null);
    renderApp(`/orders/${ORDER_ID}`);
    const card = within(await screen.findByRole('region', { name: 'Editing style' }, { timeout: 20_000 }));
    expect(card.getByText(/Save one on your profile/)).toBeInTheDocument();
  });
});
