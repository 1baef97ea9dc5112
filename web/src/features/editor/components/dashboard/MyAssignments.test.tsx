import type { EditorAssignmentView } from '@marketplace/events/editor-orders';
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi, type RecordedRequest } from '../../../../test/fake-api';
import { fakeFirebase } from '../../../../test/fake-firebase-auth';
import { aMeView } from '../../../../test/me-view';
import { anOrderSummary } from '../../../../test/order-views';
import { renderApp } from '../../../../test/render-app';

const PATH = '/api/orders/my-assignments';

const anAssignment = (id: string, name: string): EditorAssignmentView => ({
  ...anOrderSummary({ id, name, status: 'in_progress', claimedAt: '2025-03-05T12:00:00.000Z' }),
  potentialEarningsCents: 150,
  photographerUploadCount: 3,
  editorUploadCount: 1,
  revision: null,
});

async function openDashboard() {
  const view = renderApp('/editor');
  await screen.findByRole('heading', { name: 'Editor Dashboard' }, { timeout: 5000 });
  return view;
}

describe('My Assignments', () => {
  beforeEach(() => {
    fakeFirebase.signInAs({ email: 'erin@example.com' });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView({ email: 'erin@example.com', roles: ['editor'] }) });
    fakeApi.on('GET', '/api/stats/editor', {
      status: 200,
      body: { activeOrders: 3, completedOrders: 0, totalEarnings: 0, pendingPayouts: 0 },
    });
    fakeApi.on('GET', '/api/orders/available', { status: 200, body: { orders: [], total: 0, nextCursor: null } });
  });

  it('shows the first page, and the next ones below it as the editor asks, following the cursor', async () => {
    fakeApi.on('GET', PATH, (request: RecordedRequest) => ({
      status: 200,
      body:
        request.query.get('cursor') === 'after-maple'
          ? { orders: [anAssignment('order-cedar', 'Cedar Court')], total: 3, nextCursor: 'after-cedar' }
          : request.query.get('cursor') === 'after-cedar'
            ? { orders: [anAssignment('order-birch', 'Birch Lane')], total: 3, nextCursor: null }
            : { orders: [anAssignment('order-maple', 'Maple Street')], total: 3, nextCursor: 'after-maple' },
    }));
    const { user } = await openDashboard();
    const list = await screen.findByRole('list', { name: 'My assignments' });
    expect(within(list).getByText('Maple Street')).toBeInTheDocument();
    expect(screen.getByText('Showing 1 of 3 assignments')).toBeInTheDocument();
    expect(Object.fromEntries(fakeApi.requestsTo('GET', PATH)[0]!.query)).toEqual({});

    await user.click(screen.getByRole('button', { name: 'Show more' }));
    expect(await within(list).findByText('Cedar Court')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show more' }));
    expect(await within(list).findByText('Birch Lane')).toBeInTheDocument();

    expect(within(list).getAllByRole('link', { name: 'Work on Order' })).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
    expect(fakeApi.requestsTo('GET', PATH).map((r) => r.query.get('cursor'))).toEqual([
      null,
      'after-maple',
      'after-cedar',
    ]);
  });

  it('says so when a further page cannot be loaded, keeping what is shown', async () => {
    fakeApi.on('GET', PATH, (request: RecordedRequest) =>
      request.query.get('cursor')
        ? { status: 500, body: { error: 'INTERNAL', message: 'Boom' } }
        : {
            status: 200,
            body: { orders: [anAssignment('order-maple', 'Maple Street')], total: 2, nextCursor: 'after-maple' },
          },
    );
    const { user } = await openDashboard();
    await screen.findByRole('list', { name: 'My assignments' });
    await user.click(screen.getByRole('button', { name: 'Show more' }));
    expect(await screen.findByText('More assignments could not be loaded. Please try again.')).toBeInTheDocument();
    expect(screen.getByText('Maple Street')).toBeInTheDocument();
  });
});
