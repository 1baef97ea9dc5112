import { defaultEditingStyle, type EditingStyle, type EditingStyleView } from '@marketplace/events/editing-style';
import type { JobTypeView } from '@marketplace/events/job-types';
import type { CreateOrderResponse } from '@marketplace/events/orders';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { fakeFirebase } from '../../../test/fake-firebase-auth';
import { aMeView } from '../../../test/me-view';
import { renderApp } from '../../../test/render-app';

const hdr: JobTypeView = {
  id: 'jt-hdr',
  name: 'HDR',
  description: null,
  pricePerPhotoCents: 800,
  defaultEditorPriceCents: 50,
  tierSurchargeCents: { express: 0, rush: 0 },
  isActive: true,
  createdAt: '2025-01-01T00:00:00.000Z',
};
const photo = { key: 'profiles/uid/style/a-look.jpg', filename: 'look.jpg' };
const saved: EditingStyle = { ...defaultEditingStyle, sky: 'blue', referencePhotos: [photo] };
const savedView: EditingStyleView = {
  style: saved,
  saved: true,
  referencePhotos: [{ ...photo, url: 'https://photos.example/look.jpg' }],
};
const created: CreateOrderResponse = {
  order: {
    id: 'order-1',
    orderNumber: 1042,
    totalAmountCents: 800,
    stripePaymentIntentId: 'pi_1',
    photoCount: 1,
    name: null,
  },
  stripeClientSecret: 'pi_1_secret',
};

const fillAndContinue = async (view: ReturnType<typeof renderApp>) => {
  await view.user.click(screen.getByRole('textbox', { name: /Service type/ }));
  await view.user.click(await screen.findByRole('option', { name: /HDR/, hidden: true }));
  const file = new File(['x'], 'front.jpg', { type: 'image/jpeg', lastModified: 1_700_000_000_000 });
  await view.user.upload(screen.getByLabelText('Choose photos'), [file]);
  await view.user.click(screen.getByRole('button', { name: 'Continue to Payment' }));
  await waitFor(() => expect(fakeApi.requestsTo('POST', '/api/orders')).toHaveLength(1));
  return fakeApi.requestsTo('POST', '/api/orders')[0]?.body as Record<string, unknown>;
};

describe("Create order's editing style", { timeout: 30_000 }, () => {
  beforeEach(() => {
    sessionStorage.clear();
    fakeFirebase.signInAs({ email: 'pat@example.com' });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView() });
    fakeApi.on('GET', '/api/orders/job-types', { status: 200, body: [hdr] });
    fakeApi.on('GET', '/api/profile/editing-style', { status: 200, body: savedView });
    fakeApi.on('POST', '/api/orders', { status: 201, body: created });
    fakeApi.on('POST', '/api/orders/order-1/uploads/sign', { status: 409, body: { error: 'CONFLICT', message: 'No' } });
  });

  it("shows the saved style and sends it as the order's style", async () => {
    const view = renderApp('/create-order');
    const region = await screen.findByRole('region', { name: 'Editing style' }, { timeout: 20_000 });
    expect(await within(region).findByText(/^Blue sky · Natural/)).toBeInTheDocument();
    expect(within(region).getByRole('link', { name: 'Edit my saved style' })).toHaveAttribute(
      'href',
      '/profile#editing-style',
    );
    const body = await fillAndContinue(view);
    expect(body.editingStyle).toEqual(saved);
  });

  it("sends the order's own style once changed for this order, leaving out a reference photo", async () => {
    const view = renderApp('/create-order');
    const region = within(await screen.findByRole('region', { name: 'Editing style' }, { timeout: 20_000 }));
    await view.user.click(await region.findByRole('button', { name: 'Change for this order' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Editing style for this order' }));
    await view.user.click(dialog.getByRole('radio', { name: 'Sunset sky' }));
    await view.user.click(dialog.getByRole('switch', { name: 'Lawn greening' }));
    await view.user.click(dialog.getByRole('checkbox', { name: 'look.jpg' }));
    await view.user.click(dialog.getByRole('button', { name: 'Use for this order' }));
    expect(await region.findByText('Editing style (changed for this order)')).toBeInTheDocument();

    const body = await fillAndContinue(view);
    expect(body.editingStyle).toEqual({ ...saved, sky: 'sunset', lawnGreening: true, referencePhotos: [] });
  });
});
