import type { OrderEventView } from '@marketplace/events/editor-orders';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { fakeFirebase } from '../../../test/fake-firebase-auth';
import { aMeView } from '../../../test/me-view';
import { anOrderDetail } from '../../../test/order-views';
import { renderApp } from '../../../test/render-app';

const ORDER_ID = 'order-7';
const EDITOR_EMAIL = 'erin@example.com';

const anAssignment = (fields: Parameters<typeof anOrderDetail>[0] = {}) =>
  anOrderDetail({
    id: ORDER_ID,
    orderNumber: 7,
    name: '12 Oak Street',
    status: 'in_progress',
    editingRequirements: 'Blue skies and straight verticals, please.',
    claimedAt: '2025-03-05T12:00:00.000Z',
    assignedAt: '2025-03-05T12:00:00.000Z',
    editor: { displayName: 'Erin Editor', email: EDITOR_EMAIL },
    ...fields,
  });

const images = [
  {
    key: `orders/${ORDER_ID}/originals/a-front.jpg`,
    filename: 'front.jpg',
    size: 2_400_000,
    lastModified: '2025-03-05T10:10:00.000Z',
    kind: 'original',
  },
  {
    key: `orders/${ORDER_ID}/originals/b-back.nef`,
    filename: 'back.nef',
    size: 24_000_000,
    lastModified: '2025-03-05T10:10:00.000Z',
    kind: 'original',
  },
  {
    key: `orders/${ORDER_ID}/edited/c-front.jpg`,
    filename: 'front-edited.jpg',
    size: 3_100_000,
    lastModified: '2025-03-06T10:10:00.000Z',
    kind: 'edited',
  },
];

const events: OrderEventView[] = [
  {
    id: 'ev-2',
    eventType: 'order.claimed',
    description: 'Erin Editor claimed the order',
    createdAt: '2025-03-05T12:00:00.000Z',
    metadata: { editorId: 'uid-erin' },
  },
  {
    id: 'ev-1',
    eventType: 'order.paid',
    description: 'Payment received',
    createdAt: '2025-03-05T10:05:00.000Z',
    metadata: { amountCents: 1500 },
  },
];

async function openOrderPage(path = `/editor/orders/${ORDER_ID}`) {
  const view = renderApp(path);
  await screen.findByRole('heading', { level: 1 }, { timeout: 5000 });
  return view;
}

describe('Editor order page', { timeout: 20_000 }, () => {
  beforeEach(() => {
    fakeFirebase.signInAs({ email: EDITOR_EMAIL });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView({ email: EDITOR_EMAIL, roles: ['editor'] }) });
    fakeApi.on('GET', `/api/orders/${ORDER_ID}`, { status: 200, body: anAssignment() });
    fakeApi.on('GET', `/api/orders/${ORDER_ID}/images`, { status: 200, body: { images } });
    fakeApi.on('GET', `/api/orders/${ORDER_ID}/events`, { status: 200, body: { events } });
  });

  it('shows the order with the requirements, the originals and the deliveries on the Images tab', async () => {
    await openOrderPage();
    expect(screen.getByRole('heading', { level: 1, name: '12 Oak Street' })).toBeInTheDocument();
    expect(screen.getByText('Blue skies and straight verticals, please.')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Images', selected: true })).toBeInTheDocument();
    const originals = await screen.findByRole('list', { name: 'Original images' });
    expect(within(originals).getByText('front.jpg')).toBeInTheDocument();
    expect(within(originals).getByText('back.nef')).toBeInTheDocument();
    expect(within(originals).queryByText('front-edited.jpg')).not.toBeInTheDocument();
    expect(
      within(screen.getByRole('list', { name: 'Delivered files' })).getByText('front-edited.jpg'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download All' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Editor Notes' })).toBeInTheDocument();
    expect(
      screen.getByText('Supported formats: Images (JPEG, PNG, TIFF, RAW) and Archives (ZIP, RAR, 7Z)'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/editor');
  });

  it('asks for the order again when the window regains focus', async () => {
    await openOrderPage();
    expect(fakeApi.requestsTo('GET', `/api/orders/${ORDER_ID}`)).toHaveLength(1);
    // Focus within two seconds of the last request is ignored; a focus after that asks again.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    window.dispatchEvent(new Event('focus'));
    await waitFor(() => expect(fakeApi.requestsTo('GET', `/api/orders/${ORDER_ID}`)).toHaveLength(2));
  });

  it('asks for the activity log only once its tab is opened, and shows each event oldest first', async () => {
    const view = await openOrderPage();
    await screen.findByRole('list', { name: 'Original images' });
    expect(fakeApi.requestsTo('GET', `/api/orders/${ORDER_ID}/events`)).toHaveLength(0);

    await view.user.click(screen.getByRole('tab', { name: 'Activity Log' }));
    const log = await screen.findByRole('list', { name: 'Activity log' });
    expect(fakeApi.requestsTo('GET', `/api/orders/${ORDER_ID}/events`)).toHaveLength(1);
    const entries = within(log).getAllByRole('listitem');
    expect(entries.map((entry) => within(entry).getByRole('heading').textContent)).toEqual([
      'order.paid',
      'order.claimed',
    ]);
    expect(within(entries[0]!).getByText('Payment received')).toBeInTheDocument();
    expect(entries[0]!.querySelector('pre')?.textContent).toBe(JSON.stringify({ amountCents: 1500 }, null, 2));
    expect(screen.queryByRole('list', { name: 'Original images' })).not.toBeInTheDocument();

    await view.user.click(screen.getByRole('tab', { name: 'Images' }));
    expect(await screen.findByRole('list', { name: 'Original images' })).toBeVisible();
  });

  it('asks for confirmation before marking the order complete, sends the notes and returns to the dashboard', async () => {
    fakeApi.on('POST', `/api/orders/${ORDER_ID}/complete`, {
      status: 200,
      body: anAssignment({ status: 'completed' }),
    });
    const view = await openOrderPage();
    await view.user.click(screen.getByRole('textbox', { name: 'Editor Notes' }));
    await view.user.paste('Sky replaced on the front.');
    await view.user.click(screen.getByRole('button', { name: 'Mark Complete' }));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText('Are you sure you want to mark this order as completed? This action cannot be undone.'),
    ).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', `/api/orders/${ORDER_ID}/complete`)).toHaveLength(0);

    await view.user.click(within(dialog).getByRole('button', { name: 'Yes, mark complete' }));
    expect(await screen.findByText('Order marked as completed!')).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', `/api/orders/${ORDER_ID}/complete`)[0]?.body).toEqual({
      editorNotes: 'Sky replaced on the front.',
    });
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/editor'));
  });

  it("shows the server's reason when the order cannot be completed", async () => {
    fakeApi.on('POST', `/api/orders/${ORDER_ID}/complete`, {
      status: 409,
      body: { error: 'CONFLICT', message: 'Upload at least one edited file first' },
    });
    const view = await openOrderPage();
    await view.user.click(screen.getByRole('button', { name: 'Mark Complete' }));
    await view.user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes, mark complete' }),
    );
    expect(await screen.findByText('Upload at least one edited file first')).toBeInTheDocument();
    expect(view.router.state.location.pathname).toBe(`/editor/orders/${ORDER_ID}`);
  });

  it('offers Mark Complete only while the order is in progress', async () => {
    fakeApi.on('GET', `/api/orders/${ORDER_ID}`, {
      status: 200,
      body: anAssignment({ status: 'completed', completedAt: '2025-03-06T09:00:00.000Z' }),
    });
    await openOrderPage();
    expect(screen.getByRole('heading', { level: 1, name: '12 Oak Street' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Mark Complete' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Upload Files' })).not.toBeInTheDocument();
  });

  it('asks for a file when Upload is pressed with none chosen', async () => {
    const view = await openOrderPage();
    await view.user.click(screen.getByRole('button', { name: 'Upload Files' }));
    expect(await screen.findByText('Please select a file to upload')).toBeInTheDocument();
    expect(fakeApi.requestsTo('POST', `/api/orders/${ORDER_ID}/edited-uploads/sign`)).toHaveLength(0);
  });

  it("shows the server's reason for each file that could not be uploaded, and how many failed", async () => {
    fakeApi.on('POST', `/api/orders/${ORDER_ID}/edited-uploads/sign`, {
      status: 409,
      body: { error: 'CONFLICT', message: 'This order is no longer in progress' },
    });
    const view = await openOrderPage();
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    expect(input).toHaveAttribute('accept', expect.stringContaining('.zip'));
    expect(input.multiple).toBe(true);
    await view.user.upload(input, [
      new File(['edited'], 'front-edited.jpg', { type: 'image/jpeg' }),
      new File(['archive'], 'all-edits.zip', { type: 'application/zip' }),
    ]);
    await view.user.click(screen.getByRole('button', { name: 'Upload Files' }));

    expect(await screen.findByText('2 file(s) failed to upload', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Upload progress for all-edits.zip' })).toBeInTheDocument();
    expect(screen.getAllByText('This order is no longer in progress')).toHaveLength(2);
    const signed = fakeApi.requestsTo('POST', `/api/orders/${ORDER_ID}/edited-uploads/sign`);
    expect((signed[0]?.body as { key: string }).key).toMatch(new RegExp(`^orders/${ORDER_ID}/edited/[0-9a-f-]{36}-`));
    expect(fakeApi.requestsTo('POST', `/api/orders/${ORDER_ID}/edited-uploads/complete`)).toHaveLength(0);
  });

  it('downloads the originals as one zip once the server has built it, named as the server says', async () => {
    let polls = 0;
    fakeApi.on('GET', `/api/orders/${ORDER_ID}/images/download-all`, () =>
      ++polls < 2
        ? { status: 202, body: { status: 'building', filesDone: 1, fileCount: 2 } }
        : {
            status: 200,
            body: {
              status: 'ready',
              url: 'https://s3/o.zip',
              filename: '12 Oak Street_images.zip',
              sizeBytes: 9,
              fileCount: 2,
            },
          },
    );
    const clicked: { href: string | null; download: string }[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.getAttribute('href'), download: this.download });
    });
    onTestFinished(() => click.mockRestore());
    const view = await openOrderPage();
    await view.user.click(screen.getByRole('button', { name: 'Download All' }));
    expect(await screen.findByText('Images downloaded successfully!', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(clicked).toEqual([{ href: 'https://s3/o.zip', download: '12 Oak Street_images.zip' }]);
  });

  it('says why the originals could not be downloaded', async () => {
    fakeApi.on('GET', `/api/orders/${ORDER_ID}/images/download-all`, {
      status: 409,
      body: { error: 'CONFLICT', message: 'There are no originals to download' },
    });
    const view = await openOrderPage();
    await view.user.click(screen.getByRole('button', { name: 'Download All' }));
    expect(await screen.findByText('Download failed: There are no originals to download')).toBeInTheDocument();
  });

  it('says the order is not found when the server does not know it', async () => {
    fakeApi.on('GET', `/api/orders/${ORDER_ID}`, {
      status: 404,
      body: { error: 'NOT_FOUND', message: 'Order not found' },
    });
    const view = await openOrderPage();
    expect(screen.getByText('Order not found. You may not have access to this order.')).toBeInTheDocument();
    await view.user.click(screen.getByRole('link', { name: 'Back to Dashboard' }));
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/editor'));
  });

  it("says the order is not found when it is another editor's assignment", async () => {
    fakeApi.on('GET', `/api/orders/${ORDER_ID}`, {
      status: 200,
      body: anAssignment({ editor: { displayName: 'Olly Other', email: 'olly@example.com' } }),
    });
    await openOrderPage();
    expect(screen.getByText('Order not found. You may not have access to this order.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Mark Complete' })).not.toBeInTheDocument();
  });

  it('says the order is not found when it is paid but not yet claimed', async () => {
    fakeApi.on('GET', `/api/orders/${ORDER_ID}`, { status: 200, body: anAssignment({ status: 'paid', editor: null }) });
    await openOrderPage();
    expect(screen.getByText('Order not found. You may not have access to this order.')).toBeInTheDocument();
  });
});
