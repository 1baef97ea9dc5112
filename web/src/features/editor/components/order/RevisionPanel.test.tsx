import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi } from '../../../../test/fake-api';
import { fakeFirebase } from '../../../../test/fake-firebase-auth';
import { aMeView } from '../../../../test/me-view';
import { aCompletedOrderDetail } from '../../../../test/order-views';
import { renderApp } from '../../../../test/render-app';

const ORDER_ID = 'order-9';
const EDITOR_EMAIL = 'erin@example.com';
const kitchenKey = `orders/${ORDER_ID}/edited/k-kitchen.jpg`;

const sentBack = aCompletedOrderDetail({
  id: ORDER_ID,
  orderNumber: 9,
  name: '9 Birch Lane',
  status: 'revision_requested',
  editor: { displayName: 'Erin Editor', email: EDITOR_EMAIL },
  revisions: [
    {
      round: 1,
      note: 'The kitchen window is still grey.',
      photoNotes: [{ key: kitchenKey, filename: 'kitchen.jpg', note: 'Replace the sky' }],
      requestedAt: '2025-03-07T09:00:00.000Z',
      completedAt: null,
      dueAt: null,
    },
  ],
});

describe("The editor's revision panel", { timeout: 20_000 }, () => {
  beforeEach(() => {
    fakeFirebase.signInAs({ email: EDITOR_EMAIL });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView({ email: EDITOR_EMAIL, roles: ['editor'] }) });
    fakeApi.on('GET', `/api/orders/${ORDER_ID}`, { status: 200, body: sentBack });
    fakeApi.on('GET', `/api/orders/${ORDER_ID}/images`, {
      status: 200,
      body: {
        images: [
          {
            key: kitchenKey,
            filename: 'kitchen.jpg',
            size: 1000,
            lastModified: '2025-03-06T09:00:00.000Z',
            kind: 'edited',
            thumbnail: 'ready',
            thumbnailUrl: 'https://photos.example/kitchen.webp',
            previewUrl: null,
            scene: null,
            pairedOriginalKey: null,
            pairedBy: null,
          },
        ],
      },
    });
  });

  it('shows the open round with its notes, and lets the editor upload and mark complete again', async () => {
    renderApp(`/editor/orders/${ORDER_ID}`);
    const panel = within(await screen.findByRole('region', { name: 'Revision 1 requested' }, { timeout: 5000 }));
    expect(panel.getByText('The kitchen window is still grey.')).toBeInTheDocument();
    expect(panel.getByText('kitchen.jpg')).toBeInTheDocument();
    expect(panel.getByText('Replace the sky')).toBeInTheDocument();
    expect(screen.getByText('Revision Requested')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Mark Complete' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload Files' })).toBeInTheDocument();
  });
});
