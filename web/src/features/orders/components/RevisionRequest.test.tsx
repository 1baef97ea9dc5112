import type { OrderDetailView, OrderImageView } from '@marketplace/events/orders';
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { fakeFirebase } from '../../../test/fake-firebase-auth';
import { aMeView } from '../../../test/me-view';
import { aCompletedOrderDetail } from '../../../test/order-views';
import { renderApp } from '../../../test/render-app';

const ORDER_ID = 'order-1';

const anEditedImage = (key: string, filename: string): OrderImageView => ({
  key,
  filename,
  size: 1000,
  lastModified: '2025-03-06T09:00:00.000Z',
  kind: 'edited',
  thumbnail: 'ready',
  thumbnailUrl: `https://photos.example/${filename}.webp`,
  previewUrl: null,
  scene: null,
  pairedOriginalKey: null,
  pairedBy: null,
});

const serve = (order: OrderDetailView) => {
  fakeApi.on('GET', `/api/orders/${ORDER_ID}`, { status: 200, body: order });
  fakeApi.on('GET', `/api/orders/${ORDER_ID}/images`, {
    status: 200,
    body: {
      images: [
        anEditedImage('edited/k1-kitchen.jpg', 'kitchen.jpg'),
        anEditedImage('edited/p1-porch.jpg', 'porch.jpg'),
      ],
    },
  });
};

const openOrder = async () => {
  const view = renderApp(`/orders/${ORDER_ID}`);
  await screen.findByRole('heading', { level: 1, name: 'Order #1' }, { timeout: 5000 });
  return view;
};

describe('Requesting a revision on the order page', () => {
  beforeEach(() => {
    fakeFirebase.signInAs({ email: 'pat@example.com' });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView() });
  });

  it('asks for a note, sends it with the photo notes given, and shows the open round', async () => {
    serve(aCompletedOrderDetail({ canRequestRevision: true }));
    const sentBack = aCompletedOrderDetail({
      status: 'revision_requested',
      canRequestRevision: false,
      revisionUnavailableReason: 'A revision is in progress.',
      revisions: [
        {
          round: 1,
          note: 'Brighten the kitchen',
          photoNotes: [{ key: 'edited/k1-kitchen.jpg', filename: 'kitchen.jpg', note: 'Blue sky please' }],
          requestedAt: '2025-03-07T09:00:00.000Z',
          completedAt: null,
          dueAt: null,
        },
      ],
    });
    fakeApi.on('POST', `/api/orders/${ORDER_ID}/revisions`, { status: 201, body: sentBack });
    const view = await openOrder();

    await view.user.click(screen.getByRole('button', { name: 'Request Revision' }));
    const modal = within(await screen.findByRole('dialog', { name: 'Request a Revision' }));
    expect(modal.getByText('This is revision 1 of 2 free rounds.', { exact: false })).toBeInTheDocument();
    const kitchenNote = await modal.findByLabelText('Note on kitchen.jpg');
    expect(modal.getByLabelText('Note on porch.jpg')).toBeInTheDocument();

    await view.user.click(modal.getByRole('button', { name: 'Send Revision Request' }));
    expect(modal.getByText('Please describe what should change')).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', `/api/orders/${ORDER_ID}/revisions`)).toHaveLength(0);

    await view.user.click(modal.getByLabelText(/What should change\?/));
    await view.user.paste('Brighten the kitchen');
    await view.user.click(kitchenNote);
    await view.user.paste('Blue sky please');
    await view.user.click(modal.getByRole('button', { name: 'Send Revision Request' }));

    expect(await screen.findByText('Revision requested. Your editor has been notified.')).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', `/api/orders/${ORDER_ID}/revisions`)[0]?.body).toEqual({
      note: 'Brighten the kitchen',
      photoNotes: [{ key: 'edited/k1-kitchen.jpg', note: 'Blue sky please' }],
    });
    const history = within(screen.getByRole('region', { name: 'Revisions' }));
    expect(history.getByText('Brighten the kitchen')).toBeInTheDocument();
    expect(history.getByText('Blue sky please')).toBeInTheDocument();
    expect(history.getByText('In progress')).toBeInTheDocument();
    expect(screen.getByText('A revision is in progress.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Request Revision' })).not.toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Timeline' })).getByText('Revision 1 Requested'),
    ).toBeInTheDocument();
  });

  it('explains why the button is gone when no revision can be asked', async () => {
    const reason = 'This order has used its 2 free revision rounds.';
    serve(aCompletedOrderDetail({ canRequestRevision: false, revisionUnavailableReason: reason }));
    await openOrder();
    expect(screen.getByText(reason)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Request Revision' })).not.toBeInTheDocument();
  });
});
