import type { JobTypeView } from '@marketplace/events/job-types';
import type { CreateOrderResponse } from '@marketplace/events/orders';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { fakeFirebase } from '../../../test/fake-firebase-auth';
import { aMeView } from '../../../test/me-view';
import { renderApp } from '../../../test/render-app';

const aJobType = (fields: Partial<JobTypeView>): JobTypeView => ({
  id: 'jt-basic',
  name: 'Basic Enhancement',
  description: null,
  pricePerPhotoCents: 500,
  defaultEditorPriceCents: 50,
  tierSurchargeCents: { express: 0, rush: 0 },
  isActive: true,
  createdAt: '2025-01-01T00:00:00.000Z',
  ...fields,
});

const basic = aJobType({});
const hdr = aJobType({
  id: 'jt-hdr',
  name: 'HDR',
  pricePerPhotoCents: 800,
  tierSurchargeCents: { express: 300, rush: 600 },
});
const retired = aJobType({ id: 'jt-retired', name: 'Film Scan', pricePerPhotoCents: 300, isActive: false });

const MEGABYTE = 1024 * 1024;
/** A photo of the given size, without holding that many bytes. */
const aPhoto = (name: string, { size = MEGABYTE, type = 'image/jpeg' } = {}) => {
  const file = new File(['x'], name, { type, lastModified: 1_700_000_000_000 });
  Object.defineProperty(file, 'size', { value: size });
  return file;
};

const createdOrder: CreateOrderResponse = {
  order: {
    id: 'order-1',
    orderNumber: 1042,
    totalAmountCents: 1600,
    stripePaymentIntentId: 'pi_123',
    photoCount: 2,
    name: '12 Oak Street',
  },
  stripeClientSecret: 'pi_123_secret_abc',
};

async function openCreateOrder() {
  const view = renderApp('/create-order');
  // The first visit loads the page's code on demand, which takes a moment on a busy machine.
  await screen.findByRole('textbox', { name: /Service type/ }, { timeout: 5000 });
  return view;
}

const photoCountBox = () => screen.getByRole('textbox', { name: /Photo count/ });
const continueButton = () => screen.getByRole('button', { name: 'Continue to Payment' });
const summary = () => screen.getByRole('region', { name: 'Order Summary' });

/**
 * The service list opens with a transition that never finishes under happy-dom, so its options
 * stay display:none here; they are found regardless of visibility (browser tests see them open).
 */
const serviceOption = (name: string | RegExp) => screen.findByRole('option', { name, hidden: true });

async function chooseService(view: ReturnType<typeof renderApp>, name: RegExp) {
  await view.user.click(screen.getByRole('textbox', { name: /Service type/ }));
  await view.user.click(await serviceOption(name));
}

async function addPhotos(view: ReturnType<typeof renderApp>, files: File[]) {
  await view.user.upload(screen.getByLabelText('Choose photos'), files);
}

async function setPhotoCount(view: ReturnType<typeof renderApp>, value: string) {
  await view.user.clear(photoCountBox());
  if (value) await view.user.type(photoCountBox(), value);
}

/** The order this tab was paying for before a reload, as the page keeps it. */
const keepOrderBeingPaid = (ownerUid: string) =>
  sessionStorage.setItem(
    'create-order:pending',
    JSON.stringify({
      ownerUid,
      order: createdOrder.order,
      clientSecret: createdOrder.stripeClientSecret,
      uploads: { f1: { filename: 'front.jpg', size: MEGABYTE, key: 'k1', registered: true } },
      uploadsComplete: true,
    }),
  );

let signedInUid = '';

describe('Create order page', { timeout: 15_000 }, () => {
  beforeEach(() => {
    sessionStorage.clear();
    signedInUid = fakeFirebase.signInAs({ email: 'pat@example.com' }).uid;
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView() });
    fakeApi.on('GET', '/api/orders/job-types', { status: 200, body: [basic, hdr, retired] });
  });

  afterEach(() => {
    sessionStorage.clear();
    vi.unstubAllEnvs();
  });

  it('offers the active services with their price per photo', async () => {
    const view = renderApp('/create-order');
    await view.user.click(await screen.findByRole('textbox', { name: /Service type/ }, { timeout: 5000 }));
    expect(await serviceOption('Basic Enhancement ($5.00 per photo)')).toBeInTheDocument();
    expect(await serviceOption('HDR ($8.00 per photo)')).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: /Film Scan/, hidden: true })).not.toBeInTheDocument();
    expect(photoCountBox()).toHaveValue('1');
  });

  it('totals the photo count times the chosen service price', async () => {
    const view = await openCreateOrder();
    expect(within(summary()).getByText('Choose a service')).toBeInTheDocument();
    await chooseService(view, /Basic Enhancement/);
    expect(within(summary()).getByTestId('order-total')).toHaveTextContent('$5.00');
    await setPhotoCount(view, '12');
    expect(within(summary()).getByTestId('order-total')).toHaveTextContent('$60.00');
    await chooseService(view, /HDR/);
    expect(within(summary()).getByTestId('order-total')).toHaveTextContent('$96.00');
    expect(within(summary()).getByText('$8.00')).toBeInTheDocument();
    expect(within(summary()).getByText('12')).toBeInTheDocument();
  });

  it('offers Standard, Express and Rush with their price per photo, and adds the surcharge line', async () => {
    const view = await openCreateOrder();
    await chooseService(view, /HDR/);
    await setPhotoCount(view, '2');
    const express = screen.getByRole('radio', { name: /Express \(24 h\)/ });
    expect(screen.getByRole('radio', { name: /Standard \(48 h\)/ })).toBeChecked();
    expect(screen.getByTestId('tier-express')).toHaveTextContent('$11.00 per photo');
    expect(screen.getByTestId('tier-rush')).toHaveTextContent('Rush (12 h)');
    await view.user.click(express);
    expect(express).toBeChecked();
    expect(within(summary()).getByText('Express (24 h) surcharge')).toBeInTheDocument();
    expect(within(summary()).getByText('2 × $3.00 = $6.00')).toBeInTheDocument();
    expect(within(summary()).getByTestId('order-total')).toHaveTextContent('$22.00');
  });

  it('says how it works: upload everything, pay for the distinct count', async () => {
    await openCreateOrder();
    expect(screen.getByText(/duplicates and bracketed shots included/)).toBeInTheDocument();
    expect(screen.getByText(/choose the best version of each/)).toBeInTheDocument();
  });

  it.each([
    ['0', 'Minimum 1 photo'],
    ['101', 'Maximum 100 photos'],
    ['', 'Photo count is required'],
  ])('refuses a photo count of "%s" with "%s"', async (count, message) => {
    const view = await openCreateOrder();
    await setPhotoCount(view, count);
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(photoCountBox()).toHaveAccessibleDescription(expect.stringContaining(message));
  });

  it('accepts 1 and 100 photos', async () => {
    const view = await openCreateOrder();
    await setPhotoCount(view, '100');
    expect(screen.queryByText('Maximum 100 photos')).not.toBeInTheDocument();
    await setPhotoCount(view, '1');
    expect(screen.queryByText('Minimum 1 photo')).not.toBeInTheDocument();
  });

  it('keeps Continue to Payment disabled and asks for a photo until one is chosen', async () => {
    const view = await openCreateOrder();
    expect(continueButton()).toBeDisabled();
    await chooseService(view, /Basic Enhancement/);
    expect(screen.getByText('Please select at least one photo')).toBeInTheDocument();
    await addPhotos(view, [aPhoto('living-room.jpg')]);
    expect(continueButton()).toBeEnabled();
    expect(screen.queryByText('Please select at least one photo')).not.toBeInTheDocument();
  });

  it('lists each chosen photo with its size in MB and removes it', async () => {
    const view = await openCreateOrder();
    await addPhotos(view, [aPhoto('kitchen.jpg', { size: 2.5 * MEGABYTE }), aPhoto('porch.png', { size: 300 * 1024 })]);
    const list = screen.getByRole('list', { name: 'Selected photos' });
    const kitchen = within(list).getByText('kitchen.jpg').closest('li')!;
    expect(within(kitchen).getByText('2.5 MB')).toBeInTheDocument();
    expect(within(summary()).getByText('2')).toBeInTheDocument();
    await view.user.click(screen.getByRole('button', { name: 'Remove kitchen.jpg' }));
    expect(screen.queryByText('kitchen.jpg')).not.toBeInTheDocument();
    expect(screen.getByText('porch.png')).toBeInTheDocument();
    await view.user.click(screen.getByRole('button', { name: 'Remove porch.png' }));
    expect(continueButton()).toBeDisabled();
    expect(screen.getByText('Please select at least one photo')).toBeInTheDocument();
  });

  it('accepts RAW files by extension even without a MIME type, and refuses other types', async () => {
    const view = await openCreateOrder();
    await view.user.upload(screen.getByLabelText('Choose photos'), [aPhoto('dusk.CR2', { type: '' })]);
    expect(screen.getByText('dusk.CR2')).toBeInTheDocument();
    // Dropping is not filtered by the file picker, so the drop zone's own check answers.
    const upload = (await import('@testing-library/user-event')).default.setup({ applyAccept: false });
    await upload.upload(screen.getByLabelText('Choose photos'), [aPhoto('animation.gif', { type: 'image/gif' })]);
    expect(await screen.findByText(/animation\.gif: File type must be one of: \.jpeg, \.jpg/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove animation.gif' })).not.toBeInTheDocument();
  });

  it('asks for more photos than the editing count, and creates no order', async () => {
    const view = await openCreateOrder();
    await chooseService(view, /Basic Enhancement/);
    await setPhotoCount(view, '3');
    await addPhotos(view, [aPhoto('a.jpg'), aPhoto('b.jpg')]);
    const message =
      'You want 3 distinct photos edited but only uploaded 2 photo(s). Please upload more photos or reduce the editing count.';
    expect(screen.getByText(message)).toBeInTheDocument();
    await view.user.click(continueButton());
    expect(fakeApi.requestsTo('POST', '/api/orders')).toHaveLength(0);
  });

  it('asks for a service type before creating the order', async () => {
    const view = await openCreateOrder();
    await addPhotos(view, [aPhoto('a.jpg')]);
    await view.user.click(continueButton());
    expect(await screen.findByText('Please select a service type')).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', '/api/orders')).toHaveLength(0);
  });

  it("shows the server's message when the order is refused", async () => {
    fakeApi.on('POST', '/api/orders', {
      status: 400,
      body: { error: 'VALIDATION_FAILED', message: 'This service is no longer offered' },
    });
    const view = await openCreateOrder();
    await chooseService(view, /Basic Enhancement/);
    await addPhotos(view, [aPhoto('a.jpg')]);
    await view.user.click(continueButton());
    expect(await screen.findByText('This service is no longer offered')).toBeInTheDocument();
    expect(continueButton()).toBeEnabled();
  });

  it('says the order failed when the server gives no reason', async () => {
    fakeApi.on('POST', '/api/orders', { status: 503 });
    const view = await openCreateOrder();
    await chooseService(view, /Basic Enhancement/);
    await addPhotos(view, [aPhoto('a.jpg')]);
    await view.user.click(continueButton());
    expect(await screen.findByText('Failed to create order')).toBeInTheDocument();
  });

  it('creates the order from the form, then shows each upload with its own progress bar', async () => {
    fakeApi.on('POST', '/api/orders', { status: 201, body: createdOrder });
    // The sign route refuses, so the uploads stop with a visible failure rather than reaching a network.
    fakeApi.on('POST', '/api/orders/order-1/uploads/sign', {
      status: 409,
      body: { error: 'CONFLICT', message: 'Uploads are closed for this order' },
    });
    const view = await openCreateOrder();
    await chooseService(view, /HDR/);
    await view.user.type(screen.getByRole('textbox', { name: /Order name/ }), '  12 Oak Street ');
    await setPhotoCount(view, '2');
    await view.user.type(screen.getByRole('textbox', { name: 'Editing requirements' }), 'Blue sky please');
    await addPhotos(view, [aPhoto('front.jpg'), aPhoto('back.nef', { type: '', size: 70 * MEGABYTE })]);
    await view.user.click(continueButton());

    expect(await screen.findByText('Order created! Please complete payment.')).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', '/api/orders')[0]?.body).toEqual({
      jobTypeId: 'jt-hdr',
      name: '12 Oak Street',
      photoCount: 2,
      editingRequirements: 'Blue sky please',
      turnaroundTier: 'standard',
    });
    expect(screen.getByText('Uploading 0 of 2')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Overall upload progress' })).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Upload progress for front.jpg' })).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Upload progress for back.nef' })).toBeInTheDocument();

    expect(await screen.findByRole('button', { name: 'Retry failed uploads' })).toBeInTheDocument();
    const signed = fakeApi.requestsTo('POST', '/api/orders/order-1/uploads/sign');
    const smallFile = signed.find((request) => (request.body as { method: string }).method === 'PUT');
    const bigFile = signed.find((request) => (request.body as { method: string }).method === 'POST');
    // The small photo goes up as one PUT, the big RAW file (64 MB and more) as a multipart upload; both state their size.
    expect(smallFile?.body).toMatchObject({ size: MEGABYTE, contentType: 'image/jpeg' });
    expect((smallFile?.body as { key: string }).key).toMatch(/^orders\/order-1\/originals\/[0-9a-f-]{36}-front\.jpg$/);
    expect(bigFile?.body).toMatchObject({ size: 70 * MEGABYTE, contentType: 'application/octet-stream' });
    expect((bigFile?.body as { key: string }).key).toMatch(/^orders\/order-1\/originals\/[0-9a-f-]{36}-back\.nef$/);
    expect(screen.queryByRole('heading', { name: 'Complete Payment' })).not.toBeInTheDocument();
  }, 20_000);

  it('returns to an order being paid after a reload, and Cancel goes back to the details', async () => {
    keepOrderBeingPaid(signedInUid);
    const view = renderApp('/create-order');
    expect(await screen.findByRole('heading', { name: 'Complete Payment' })).toBeInTheDocument();
    expect(screen.getByText(/Order #1042 · 2 photos to edit/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pay $16.00' })).toBeInTheDocument();
    await view.user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('textbox', { name: /Service type/ })).toBeInTheDocument();
    expect(sessionStorage.getItem('create-order:pending')).toBeNull();
  });

  it('pays for the new order by card, then says so and goes to the dashboard', async () => {
    vi.stubEnv('VITE_LOCAL_STRIPE_URL', 'http://127.0.0.1:12111');
    fakeApi.on('POST', '/v1/payment_intents/pi_123/confirm', {
      status: 200,
      body: { id: 'pi_123', status: 'succeeded' },
    });
    fakeApi.on('POST', '/api/orders/order-1/payment-success', { status: 200, body: { id: 'order-1', status: 'paid' } });
    keepOrderBeingPaid(signedInUid);
    const view = renderApp('/create-order');
    await screen.findByRole('heading', { name: 'Complete Payment' }, { timeout: 5000 });
    await view.user.type(screen.getByRole('textbox', { name: 'Card number' }), '4242424242424242');
    await view.user.type(screen.getByRole('textbox', { name: 'Expiry' }), '1230');
    await view.user.type(screen.getByRole('textbox', { name: 'CVC' }), '123');
    await view.user.click(screen.getByRole('button', { name: 'Pay $16.00' }));
    expect(await screen.findByText('Payment successful!')).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', '/api/orders/order-1/payment-success')[0]?.body).toEqual({
      paymentIntentId: 'pi_123',
    });
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/dashboard'), { timeout: 5000 });
    expect(sessionStorage.getItem('create-order:pending')).toBeNull();
  });

  it("never shows another sign-in's unpaid order kept in the same tab", async () => {
    keepOrderBeingPaid('someone-else');
    await openCreateOrder();
    expect(screen.queryByRole('heading', { name: 'Complete Payment' })).not.toBeInTheDocument();
  });

  it('says so when no service is open for orders', async () => {
    fakeApi.on('GET', '/api/orders/job-types', { status: 200, body: [] });
    renderApp('/create-order');
    expect(await screen.findByRole('heading', { name: 'No services available' })).toBeInTheDocument();
  });

  it('says so when the services cannot be loaded', async () => {
    fakeApi.on('GET', '/api/orders/job-types', { status: 403, body: { error: 'FORBIDDEN', message: 'Not allowed' } });
    renderApp('/create-order');
    expect(await screen.findByText('Services could not be loaded')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('Not allowed')).toBeInTheDocument());
  });
});
