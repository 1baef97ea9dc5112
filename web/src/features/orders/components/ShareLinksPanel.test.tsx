import type { CreatedShareLinkView, ShareLinkView } from '@marketplace/events/delivery';
import type { OrderDetailView } from '@marketplace/events/orders';
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { fakeFirebase } from '../../../test/fake-firebase-auth';
import { aMeView } from '../../../test/me-view';
import { aCompletedOrderDetail } from '../../../test/order-views';
import { renderApp } from '../../../test/render-app';

const ORDER_ID = 'order-1';
const LINKS = `/api/orders/${ORDER_ID}/share-links`;
const TOKEN = 'AbC-dEf_0123456789abcdefghijklmnopqrstuvwxyz1';

const aLink = (fields: Partial<ShareLinkView> = {}): ShareLinkView => ({
  id: '01JQ0000000000000000000001',
  status: 'active',
  createdAt: '2025-03-06T10:00:00.000Z',
  expiresAt: '2025-04-05T10:00:00.000Z',
  revokedAt: null,
  views: 4,
  downloads: 1,
  lastViewedAt: '2025-03-07T10:00:00.000Z',
  ...fields,
});

const openOrder = async (order: OrderDetailView = aCompletedOrderDetail()) => {
  fakeApi.on('GET', `/api/orders/${ORDER_ID}`, { status: 200, body: order });
  fakeApi.on('GET', `/api/orders/${ORDER_ID}/images`, { status: 200, body: { images: [] } });
  const view = renderApp(`/orders/${ORDER_ID}`);
  await screen.findByRole('heading', { level: 1, name: 'Order #1' });
  return view;
};

const panel = () => within(screen.getByRole('region', { name: 'Share with your client' }));

describe("The order page's share links", () => {
  beforeEach(() => {
    fakeFirebase.signInAs({ email: 'pat@example.com' });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView() });
  });

  it('makes a link valid 30 days by default and shows it once, with a Copy button', async () => {
    const links: ShareLinkView[] = [];
    fakeApi.on('GET', LINKS, () => ({ status: 200, body: { links } }));
    fakeApi.on('POST', LINKS, () => {
      const link = aLink({ views: 0, downloads: 0, lastViewedAt: null });
      links.unshift(link);
      const created: CreatedShareLinkView = { ...link, token: TOKEN, path: `/share/${TOKEN}` };
      return { status: 201, body: created };
    });
    const view = await openOrder();

    expect(await panel().findByText('No share links yet.')).toBeInTheDocument();
    expect(panel().getByLabelText('Link expires in (days)')).toHaveValue('30');
    await view.user.click(panel().getByRole('button', { name: 'Create share link' }));

    expect(await panel().findByLabelText('New share link')).toHaveValue(`${window.location.origin}/share/${TOKEN}`);
    expect(panel().getByRole('button', { name: 'Copy link' })).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', LINKS)[0]?.body).toEqual({ expiresInDays: 30 });
    const list = within(await panel().findByRole('list', { name: 'Share links' }));
    expect(list.getByText('Active')).toBeInTheDocument();
    expect(list.getByText('Expires Apr 5, 2025')).toBeInTheDocument();
    expect(list.getByText('0 views · 0 downloads')).toBeInTheDocument();
    expect(panel().getByRole('button', { name: 'Make a new link' })).toBeInTheDocument();

    await view.user.click(panel().getByRole('button', { name: 'Done' }));
    expect(panel().queryByLabelText('New share link')).not.toBeInTheDocument();
    expect(document.body.textContent).not.toContain(TOKEN);
  });

  it('refuses an expiry outside 1 to 365 days without asking the server', async () => {
    fakeApi.on('GET', LINKS, { status: 200, body: { links: [] } });
    const view = await openOrder();
    const days = await panel().findByLabelText('Link expires in (days)');
    await view.user.clear(days);
    await view.user.type(days, '400');
    await view.user.click(panel().getByRole('button', { name: 'Create share link' }));
    expect(panel().getByText('Enter a whole number of days from 1 to 365')).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', LINKS)).toHaveLength(0);
  });

  it("shows each link's status, expiry, views and downloads; changes an expiry; revokes after asking", async () => {
    let links = [
      aLink(),
      aLink({ id: '01JQ0000000000000000000002', status: 'expired', expiresAt: '2025-03-01T10:00:00.000Z' }),
      aLink({
        id: '01JQ0000000000000000000003',
        status: 'revoked',
        revokedAt: '2025-03-08T10:00:00.000Z',
        views: 0,
        downloads: 0,
        lastViewedAt: null,
      }),
    ];
    fakeApi.on('GET', LINKS, () => ({ status: 200, body: { links } }));
    fakeApi.on('PATCH', `${LINKS}/${links[1]!.id}`, () => {
      links = links.map((l, i) => (i === 1 ? { ...l, status: 'active', expiresAt: '2025-03-20T10:00:00.000Z' } : l));
      return { status: 200, body: links[1] };
    });
    fakeApi.on('DELETE', `${LINKS}/${links[0]!.id}`, () => {
      links = links.map((l, i) => (i === 0 ? { ...l, status: 'revoked', revokedAt: '2025-03-09T10:00:00.000Z' } : l));
      return { status: 200, body: links[0] };
    });
    const view = await openOrder();

    const list = within(await panel().findByRole('list', { name: 'Share links' }));
    const rows = list.getAllByRole('listitem');
    expect(rows.map((row) => within(row).getByText(/^(Active|Expired|Revoked)$/).textContent)).toEqual([
      'Active',
      'Expired',
      'Revoked',
    ]);
    expect(within(rows[0]!).getByText('4 views · 1 download · last viewed Mar 7, 2025')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Expired Mar 1, 2025')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Revoked Mar 8, 2025')).toBeInTheDocument();
    // A revoked link stays revoked: nothing to change on it.
    expect(within(rows[2]!).queryByRole('button')).not.toBeInTheDocument();

    await view.user.click(within(rows[1]!).getByRole('button', { name: 'Change expiry' }));
    const extend = within(await screen.findByRole('dialog', { name: 'Change the expiry' }));
    const days = extend.getByLabelText('Expires in (days)');
    await view.user.clear(days);
    await view.user.type(days, '12');
    await view.user.click(extend.getByRole('button', { name: 'Save expiry' }));
    expect(await screen.findByText('Expiry changed')).toBeInTheDocument();
    expect(fakeApi.requestsTo('PATCH', `${LINKS}/${links[1]!.id}`)[0]?.body).toEqual({ expiresInDays: 12 });
    expect(await list.findByText('Expires Mar 20, 2025')).toBeInTheDocument();

    await view.user.click(within(list.getAllByRole('listitem')[0]!).getByRole('button', { name: 'Revoke' }));
    const confirm = within(await screen.findByRole('dialog', { name: 'Revoke this link?' }));
    expect(fakeApi.requestsTo('DELETE', `${LINKS}/${links[0]!.id}`)).toHaveLength(0);
    await view.user.click(confirm.getByRole('button', { name: 'Revoke link' }));
    expect(await screen.findByText('Link revoked')).toBeInTheDocument();
    expect(await list.findByText('Revoked Mar 9, 2025')).toBeInTheDocument();
  });

  it("shows the server's reason when a link cannot be made, and offers a retry when the list fails", async () => {
    let listCalls = 0;
    fakeApi.on('GET', LINKS, () =>
      ++listCalls === 1
        ? { status: 400, body: { error: 'BAD', message: 'Nope' } }
        : { status: 200, body: { links: [] } },
    );
    fakeApi.on('POST', LINKS, {
      status: 409,
      body: { error: 'TOO_MANY_SHARE_LINKS', message: 'This order already has 10 active share links.' },
    });
    const view = await openOrder();
    expect(await panel().findByText('The share links could not be loaded.')).toBeInTheDocument();
    await view.user.click(panel().getByRole('button', { name: 'Try again' }));
    await view.user.click(await panel().findByRole('button', { name: 'Create share link' }));
    expect(await screen.findByText('This order already has 10 active share links.')).toBeInTheDocument();
  });

  it('is offered on completed orders only', async () => {
    fakeApi.on('GET', LINKS, { status: 200, body: { links: [] } });
    await openOrder(aCompletedOrderDetail({ status: 'revision_requested' }));
    expect(screen.queryByRole('region', { name: 'Share with your client' })).not.toBeInTheDocument();
    expect(fakeApi.requestsTo('GET', LINKS)).toHaveLength(0);
  });
});
