import type { OfferedAddOnView, OrderAddOnsView, SaveOrderAddOnsInput } from '@marketplace/events/add-ons';
import type { OrderImageView } from '@marketplace/events/orders';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SWRConfig } from 'swr';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../../app/AppProviders';
import { fakeApi, type RecordedRequest } from '../../../test/fake-api';
import { fakeFirebase } from '../../../test/fake-firebase-auth';
import { aMeView } from '../../../test/me-view';
import OrderAddOnsPanel, { withAddOn } from './OrderAddOnsPanel';

const image = (n: number): OrderImageView => ({
  key: `orders/o1/originals/room-${n}.jpg`,
  filename: `room-${n}.jpg`,
  size: 1000,
  lastModified: '2025-03-05T10:00:00.000Z',
  kind: 'original',
  thumbnail: 'ready',
  thumbnailUrl: `https://photos.example/room-${n}.jpg`,
  previewUrl: null,
  scene: null,
  pairedOriginalKey: null,
  pairedBy: null,
});
const images = [image(1), image(2), image(3)];
const staging: OfferedAddOnView = {
  id: 'virtual-staging',
  name: 'Virtual staging',
  description: null,
  pricePerPhotoCents: 2400,
};
const sky: OfferedAddOnView = {
  id: 'sky-replacement',
  name: 'Sky replacement',
  description: null,
  pricePerPhotoCents: 200,
};

const noAddOns: OrderAddOnsView = {
  price: {
    pricePerPhotoCents: 800,
    photoCount: 3,
    baseCents: 2400,
    surcharge: null,
    addOnsCents: 0,
    totalCents: 2400,
    lines: [],
  },
  photos: [],
};

/** The server's answer to a selection: priced here only as the fake stands in for the route. */
const priced = (photos: SaveOrderAddOnsInput['photos']): OrderAddOnsView => {
  const count = (id: string) => photos.filter((p) => p.addOnIds.includes(id)).length;
  const lines = [staging, sky]
    .filter((a) => count(a.id) > 0)
    .map((a) => ({
      addOnId: a.id,
      name: a.name,
      pricePerPhotoCents: a.pricePerPhotoCents,
      photoCount: count(a.id),
      amountCents: count(a.id) * a.pricePerPhotoCents,
    }));
  const addOnsCents = lines.reduce((sum, l) => sum + l.amountCents, 0);
  return { price: { ...noAddOns.price, addOnsCents, totalCents: 2400 + addOnsCents, lines }, photos };
};

const renderPanel = (viewer: 'photographer' | 'editor', onPriced = vi.fn()) => {
  const user = userEvent.setup();
  render(
    <AppProviders>
      <SWRConfig value={{ provider: () => new Map() }}>
        <OrderAddOnsPanel
          order={{
            id: 'o1',
            status: viewer === 'photographer' ? 'pending_payment' : 'in_progress',
            jobTypeName: 'HDR',
          }}
          viewer={viewer}
          onPriced={onPriced}
        />
      </SWRConfig>
    </AppProviders>,
  );
  return { user, onPriced };
};

describe('add-ons on chosen photos', () => {
  beforeEach(() => {
    fakeFirebase.signInAs({ email: 'pat@example.com' });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView() });
    fakeApi.on('GET', '/api/orders/o1/images', { status: 200, body: { images } });
    fakeApi.on('GET', '/api/orders/add-ons', { status: 200, body: [staging, sky] });
  });

  it('puts an add-on on the chosen photos and shows the price the server answered', async () => {
    let current = noAddOns;
    fakeApi.on('GET', '/api/orders/o1/add-ons', () => ({ status: 200, body: current }));
    fakeApi.on('PUT', '/api/orders/o1/add-ons', (request: RecordedRequest) => {
      current = priced((request.body as SaveOrderAddOnsInput).photos);
      return { status: 200, body: current };
    });
    const { user, onPriced } = renderPanel('photographer');

    const stagingBox = await screen.findByRole('checkbox', { name: 'Virtual staging ($24.00 per photo)' });
    expect(stagingBox).toBeDisabled();
    expect(screen.getByRole('group', { name: 'Add-ons (choose photos first)' })).toBeInTheDocument();

    await user.click(screen.getByRole('checkbox', { name: 'room-1.jpg' }));
    await user.click(screen.getByRole('checkbox', { name: 'room-2.jpg' }));
    await user.click(stagingBox);
    await waitFor(() => expect(fakeApi.requestsTo('PUT', '/api/orders/o1/add-ons')).toHaveLength(1));
    expect(fakeApi.requestsTo('PUT', '/api/orders/o1/add-ons')[0]?.body).toEqual({
      photos: [
        { key: images[0]!.key, addOnIds: ['virtual-staging'] },
        { key: images[1]!.key, addOnIds: ['virtual-staging'] },
      ],
    });
    const price = screen.getByTestId('order-price');
    await waitFor(() => expect(within(price).getByTestId('order-total')).toHaveTextContent('$72.00'));
    expect(within(price).getByText('HDR $8.00 × 3 photos')).toBeInTheDocument();
    expect(within(price).getByText('Virtual staging $24.00 × 2 photos')).toBeInTheDocument();
    expect(onPriced).toHaveBeenLastCalledWith(expect.objectContaining({ totalCents: 7200 }));

    // Select all, then sky on all three: the staging box shows it is on some of them only.
    await user.click(screen.getByRole('checkbox', { name: 'Select all photos' }));
    expect(screen.getByRole('group', { name: 'Add-ons for the 3 selected photos' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Virtual staging ($24.00 per photo)' })).toHaveAttribute(
      'data-indeterminate',
      'true',
    );
    await user.click(screen.getByRole('checkbox', { name: 'Sky replacement ($2.00 per photo)' }));
    await waitFor(() => expect(within(price).getByTestId('order-total')).toHaveTextContent('$78.00'));
    expect(within(price).getByText('Sky replacement $2.00 × 3 photos')).toBeInTheDocument();
    const photos = screen.getByRole('list', { name: 'Photos' });
    const first = within(photos).getAllByRole('listitem')[0]!;
    expect(within(first).getByText('Virtual staging')).toBeInTheDocument();
    expect(within(first).getByText('Sky replacement')).toBeInTheDocument();
  });

  it("says the server's refusal and keeps the price it had", async () => {
    fakeApi.on('GET', '/api/orders/o1/add-ons', { status: 200, body: noAddOns });
    fakeApi.on('PUT', '/api/orders/o1/add-ons', {
      status: 400,
      body: { error: 'UNKNOWN_ADD_ON', message: 'Please choose add-ons that are offered' },
    });
    const { user, onPriced } = renderPanel('photographer');
    await user.click(await screen.findByRole('checkbox', { name: 'room-3.jpg' }));
    await user.click(screen.getByRole('checkbox', { name: 'Sky replacement ($2.00 per photo)' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please choose add-ons that are offered');
    expect(screen.getByTestId('order-total')).toHaveTextContent('$24.00');
    expect(onPriced).not.toHaveBeenCalled();
  });

  it('shows the editor each add-on × its photos and a badge on each photo that has one, without prices', async () => {
    fakeApi.on('GET', '/api/orders/o1/add-ons', {
      status: 200,
      body: priced([
        { key: images[0]!.key, addOnIds: ['virtual-staging', 'sky-replacement'] },
        { key: images[2]!.key, addOnIds: ['virtual-staging'] },
      ]),
    });
    renderPanel('editor');
    const list = await screen.findByRole('list', { name: 'Add-ons on this order' });
    expect(within(list).getByText('Virtual staging × 2 photos')).toBeInTheDocument();
    expect(within(list).getByText('Sky replacement × 1 photo')).toBeInTheDocument();
    const withAddOns = within(screen.getByRole('list', { name: 'Photos with add-ons' })).getAllByRole('listitem');
    expect(withAddOns.map((item) => item.textContent)).toEqual([
      'room-1.jpgVirtual stagingSky replacement',
      'room-3.jpgVirtual staging',
    ]);
    expect(screen.queryByText(/\$/)).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
  });

  it('builds the whole selection from the one before and the photos chosen', () => {
    const before = new Map([['a', new Set(['x'])]]);
    expect(withAddOn(before, ['a', 'b'], 'y', true)).toEqual([
      { key: 'a', addOnIds: ['x', 'y'] },
      { key: 'b', addOnIds: ['y'] },
    ]);
    expect(withAddOn(before, ['a'], 'x', false)).toEqual([]);
  });
});
