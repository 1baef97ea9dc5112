import type { LiveMessage } from '@marketplace/events/live-updates';
import type { OrderImageView } from '@marketplace/events/orders';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import useSWR, { SWRConfig } from 'swr';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { AppProviders } from '../app/AppProviders';
import { OrderZipDownloadButton } from '../components/OrderZipDownloadButton';
import { useAdminEditorStats, useAdminEditors } from '../features/admin/api/editors';
import { useAllFeedback, useFeedbackStats } from '../features/admin/api/feedback';
import { useAdminJobTypes } from '../features/admin/api/job-types';
import { useAdminOrders, useAssignableEditors } from '../features/admin/api/orders';
import { firstUsersPage, useAdminUsers } from '../features/admin/api/users';
import { useAvailableOrders } from '../features/editor/api/use-available-orders';
import { useEditorStats } from '../features/editor/api/use-editor-stats';
import { useMyAssignments } from '../features/editor/api/use-my-assignments';
import { useOrderEvents } from '../features/editor/api/use-order-events';
import { useMyFeedback } from '../features/feedback/api/use-my-feedback';
import { useListingSequence } from '../features/orders/api/use-listing-sequence';
import { useMyOrders } from '../features/orders/api/use-my-orders';
import { useOrder } from '../features/orders/api/use-order';
import { useShareLinks } from '../features/orders/api/use-share-links';
import { useJobTypes } from '../features/photographer/api/use-job-types';
import { usePhotographerStats } from '../features/photographer/api/use-photographer-stats';
import { useRecentOrders } from '../features/photographer/api/use-recent-orders';
import { apiRequests, fakeApi, type RecordedRequest } from '../test/fake-api';
import { fakeFirebase } from '../test/fake-firebase-auth';
import { FakeWebSocket } from '../test/fake-websocket';
import { aMeView } from '../test/me-view';
import { useAuth } from './auth-context';
import { useCurrentUser } from './current-user';
import { REVALIDATION_COOL_DOWN_MS } from './live-revalidation';
import { LiveUpdatesProvider, useLiveStatus } from './live-updates';
import { useOrderImages } from './order-images';

const ORDER = 'order 1';
const ORDER_PATH = '/api/orders/order%201';

/** Every read the app keeps in SWR, by what it shows, with the request it makes. */
const reads: { name: string; use: () => unknown; request: string }[] = [
  { name: 'the order', use: () => useOrder(ORDER), request: ORDER_PATH },
  { name: "the order's files", use: () => useOrderImages(ORDER), request: `${ORDER_PATH}/images` },
  { name: "the order's listing order", use: () => useListingSequence(ORDER), request: `${ORDER_PATH}/sequence` },
  { name: "the order's share links", use: () => useShareLinks(ORDER), request: `${ORDER_PATH}/share-links` },
  { name: "the order's activity log", use: () => useOrderEvents(ORDER, true), request: `${ORDER_PATH}/events` },
  { name: "the order's payment", use: () => usePaymentRead(ORDER), request: `${ORDER_PATH}/payment` },
  { name: "another order's files", use: () => useOrderImages('order-2'), request: '/api/orders/order-2/images' },
  { name: "the photographer's orders", use: () => useMyOrders(undefined), request: '/api/orders/my?limit=20' },
  { name: "the photographer's recent orders", use: () => useRecentOrders(), request: '/api/orders/my?limit=5' },
  { name: "the photographer's totals", use: () => usePhotographerStats(), request: '/api/stats/photographer' },
  {
    name: "the editor's available orders",
    use: () => useAvailableOrders({ page: 1, filter: 'all', sort: 'newest' }),
    request: '/api/orders/available?',
  },
  { name: "the editor's assignments", use: () => useMyAssignments(), request: '/api/orders/my-assignments' },
  { name: "the editor's totals", use: () => useEditorStats(), request: '/api/stats/editor' },
  {
    name: "the admin's orders",
    use: () => useAdminOrders({ page: 1, assignmentFilter: 'all', sortBy: 'newest', searchTerm: '' }),
    request: '/api/orders/admin/all?',
  },
  {
    name: "the admin's editors",
    use: () => useAdminEditors({ page: 1 }),
    request: '/api/admin/editors?page=1&limit=20',
  },
  {
    name: 'the editors an order can be given to',
    use: () => useAssignableEditors(),
    request: '/api/admin/editors?page=1&limit=100',
  },
  {
    name: "an editor's totals",
    use: () => useAdminEditorStats('editor-1'),
    request: '/api/admin/editors/editor-1/stats',
  },
  { name: 'the signed-in user', use: () => useCurrentUser(), request: '/api/auth/me' },
  { name: 'the job types on offer', use: () => useJobTypes(), request: '/api/orders/job-types' },
  { name: "the admin's job types", use: () => useAdminJobTypes(), request: '/api/admin/job-types' },
  { name: "the admin's users", use: () => useAdminUsers(firstUsersPage), request: '/api/admin/users?' },
  { name: 'my feedback', use: () => useMyFeedback(), request: '/api/feedback/my' },
  {
    name: "the admin's feedback",
    use: () => useAllFeedback({ status: 'all', type: 'all', page: 1 }),
    request: '/api/feedback/all?',
  },
  { name: 'feedback totals', use: () => useFeedbackStats(), request: '/api/feedback/stats' },
];

/** The pay-later page's own read (OrderPaymentPage), kept under the same kind of key. */
function usePaymentRead(orderId: string) {
  const { user } = useAuth();
  const url = `/api/orders/${encodeURIComponent(orderId)}/payment`;
  return useSWR(user ? [url, user.uid] : null);
}

const bodies: Record<string, unknown> = {
  [`${ORDER_PATH}/images`]: { images: [] },
  '/api/orders/order-2/images': { images: [] },
  [`${ORDER_PATH}/sequence`]: { photos: [], mls: { pending: 0 } },
  '/api/admin/editors': { editors: [], nextCursor: null, total: 0 },
  '/api/admin/users': { users: [], total: 0, nextCursor: null },
  '/api/auth/me': aMeView({ roles: ['photographer', 'editor', 'admin'] }),
};

const answerEveryRead = () => {
  for (const { request } of reads) {
    const path = request.split('?')[0] ?? request;
    fakeApi.on('GET', path, { status: 200, body: bodies[path] ?? {} });
  }
};

const urlOf = (request: RecordedRequest) => {
  const query = request.query.toString();
  return query ? `${request.path}?${query}` : request.path;
};

/** The reads that asked the API since `from` (an index into the request log). */
const readsAskedSince = (from: number) => {
  const urls = apiRequests.slice(from).map(urlOf);
  const asks = (url: string, request: string) =>
    url === request || url.startsWith(request.endsWith('?') ? request : `${request}?`);
  return reads.filter(({ request }) => urls.some((url) => asks(url, request))).map((read) => read.name);
};

function AllReads() {
  for (const read of reads) read.use();
  return <StatusLine />;
}

function StatusLine() {
  return <p>Live status: {useLiveStatus()}</p>;
}

function renderWithLiveUpdates(children: React.ReactNode) {
  const uid = fakeFirebase.signInAs().uid;
  return render(
    <AppProviders>
      <SWRConfig value={{ provider: () => new Map() }}>
        <LiveUpdatesProvider uid={uid}>{children}</LiveUpdatesProvider>
      </SWRConfig>
    </AppProviders>,
  );
}

const theSocket = async () => {
  await waitFor(() => expect(FakeWebSocket.latest()).toBeDefined());
  return FakeWebSocket.latest()!;
};

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Renders every read, lets the socket open, and waits until its revalidation and cool-down are over. */
async function everyReadLive() {
  answerEveryRead();
  renderWithLiveUpdates(<AllReads />);
  await waitFor(() => expect(readsAskedSince(0)).toHaveLength(reads.length));
  const socket = await theSocket();
  const beforeOpen = apiRequests.length;
  socket.accept();
  await screen.findByText('Live status: live');
  await waitFor(() => expect(readsAskedSince(beforeOpen)).toHaveLength(reads.length - 1));
  await pause(REVALIDATION_COOL_DOWN_MS + 100);
  return socket;
}

const allExcept = (...names: string[]) => reads.map((r) => r.name).filter((name) => !names.includes(name));

describe('Live updates: what each message reads again', () => {
  const theOrder = [
    'the order',
    "the order's files",
    "the order's listing order",
    "the order's share links",
    "the order's activity log",
  ];
  const orderLists = [
    "the photographer's orders",
    "the photographer's recent orders",
    "the photographer's totals",
    "the editor's available orders",
    "the editor's assignments",
    "the editor's totals",
    "the admin's orders",
    "the admin's editors",
    'the editors an order can be given to',
    "an editor's totals",
  ];
  const cases: [string, LiveMessage, string[]][] = [
    [
      "an order's change: that order and every list, dashboard and count of orders",
      { type: 'order.changed', orderId: ORDER, status: 'in_progress' },
      [...theOrder, ...orderLists],
    ],
    ['a change of the open pool: the available orders', { type: 'pool.changed' }, ["the editor's available orders"]],
    [
      "an order's new thumbnails: its files and its listing order",
      { type: 'images.ready', orderId: ORDER },
      ["the order's files", "the order's listing order"],
    ],
    [
      "an order's MLS-ready copies: its listing order",
      { type: 'copies.ready', orderId: ORDER },
      ["the order's listing order"],
    ],
    ['a zip built: nothing (its button is waiting for it)', { type: 'zip.ready', orderId: ORDER, kind: 'edited' }, []],
  ];

  it.each(cases)('%s', async (_, message, expected) => {
    const socket = await everyReadLive();
    const from = apiRequests.length;
    socket.receive(message);
    if (expected.length) await waitFor(() => expect(readsAskedSince(from)).toEqual(expect.arrayContaining(expected)));
    // Anything else would have been asked for by now.
    await pause(300);
    expect(readsAskedSince(from).sort()).toEqual([...expected].sort());
  });

  it('reads everything shown again after each (re)connect, except a payment being made', async () => {
    const socket = await everyReadLive();
    socket.drop(1012);
    await screen.findByText('Live status: connecting');
    const next = await waitFor(() => {
      const latest = FakeWebSocket.latest();
      expect(latest).not.toBe(socket);
      return latest!;
    });
    const from = apiRequests.length;
    next.accept();
    await waitFor(() => expect(readsAskedSince(from)).toHaveLength(reads.length - 1));
    await pause(300);
    expect(readsAskedSince(from).sort()).toEqual(allExcept("the order's payment").sort());
  });

  it('reads a key once for a burst of messages', async () => {
    const socket = await everyReadLive();
    const from = apiRequests.length;
    const filesRead = () => apiRequests.slice(from).filter((request) => request.path === `${ORDER_PATH}/images`);
    for (let i = 0; i < 5; i++) socket.receive({ type: 'images.ready', orderId: ORDER });
    await waitFor(() => expect(filesRead()).toHaveLength(1));
    for (let i = 0; i < 5; i++) socket.receive({ type: 'images.ready', orderId: ORDER });
    await pause(REVALIDATION_COOL_DOWN_MS + 300);
    expect(filesRead()).toHaveLength(2);
  });

  it('ignores a message it does not know', async () => {
    const socket = await everyReadLive();
    const from = apiRequests.length;
    socket.receive({ type: 'order.exploded', orderId: ORDER });
    socket.receive('{not json');
    await pause(300);
    expect(apiRequests.length).toBe(from);
  });
});

const anImage = (fields: Partial<OrderImageView>): OrderImageView => ({
  key: 'orders/order 1/originals/a.jpg',
  filename: 'a.jpg',
  size: 1000,
  lastModified: new Date().toISOString(),
  kind: 'original',
  thumbnail: 'pending',
  thumbnailUrl: null,
  previewUrl: null,
  scene: null,
  pairedOriginalKey: null,
  pairedBy: null,
  ...fields,
});

function ThumbnailState() {
  const { data } = useOrderImages(ORDER);
  return <p>{data ? `Thumbnail: ${data.images[0]?.thumbnail}` : 'Loading'}</p>;
}

describe('Live updates: thumbnails', () => {
  const imagesRequests = () => fakeApi.requestsTo('GET', `${ORDER_PATH}/images`).length;

  it('polls for a pending thumbnail while there is no socket, and not while live: images.ready reads it', async () => {
    let thumbnail: OrderImageView['thumbnail'] = 'pending';
    fakeApi.on('GET', `${ORDER_PATH}/images`, () => ({ status: 200, body: { images: [anImage({ thumbnail })] } }));
    renderWithLiveUpdates(
      <>
        <ThumbnailState />
        <StatusLine />
      </>,
    );
    await screen.findByText('Thumbnail: pending');
    // Not live yet: polled every 3 s as before.
    await waitFor(() => expect(imagesRequests()).toBeGreaterThanOrEqual(2), { timeout: 4_000 });

    const socket = await theSocket();
    socket.accept();
    await screen.findByText('Live status: live');
    await pause(REVALIDATION_COOL_DOWN_MS);
    const whileLive = imagesRequests();
    await pause(3_500);
    expect(imagesRequests()).toBe(whileLive);

    thumbnail = 'ready';
    socket.receive({ type: 'images.ready', orderId: ORDER });
    await screen.findByText('Thumbnail: ready');
    expect(imagesRequests()).toBe(whileLive + 1);
  });

  it('polls again when the socket is lost', async () => {
    fakeApi.on('GET', `${ORDER_PATH}/images`, { status: 200, body: { images: [anImage({})] } });
    renderWithLiveUpdates(
      <>
        <ThumbnailState />
        <StatusLine />
      </>,
    );
    const socket = await theSocket();
    socket.accept();
    await screen.findByText('Live status: live');
    await pause(REVALIDATION_COOL_DOWN_MS);
    const beforeDrop = imagesRequests();
    socket.drop();
    await screen.findByText('Live status: connecting');
    await waitFor(() => expect(imagesRequests()).toBeGreaterThan(beforeDrop), { timeout: 4_000 });
  });
});

describe('Live updates: the zip button', () => {
  /** Links handed to the browser's download manager. */
  function recordDownloads() {
    const links: (string | null)[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      links.push(this.getAttribute('href'));
    });
    onTestFinished(() => click.mockRestore());
    return links;
  }

  const editedZip = {
    route: 'download-completed',
    kind: 'edited' as const,
    filename: 'Oak_edited_photos.zip',
    successMessage: 'Completed photos downloaded successfully!',
    failureMessage: 'Failed to download photos',
  };

  it('while live, asks for the zip again when its zip.ready arrives instead of every 1.5 s', async () => {
    let built = false;
    const zipUrl = `${ORDER_PATH}/download-completed`;
    fakeApi.on('GET', zipUrl, () =>
      built
        ? {
            status: 200,
            body: { status: 'ready', url: 'https://s3/zip', filename: 'Oak.zip', sizeBytes: 5, fileCount: 2 },
          }
        : { status: 202, body: { status: 'building', filesDone: 1, fileCount: 2 } },
    );
    const links = recordDownloads();
    renderWithLiveUpdates(
      <>
        <OrderZipDownloadButton orderId={ORDER} zip={editedZip} label="Full resolution (zip)" />
        <StatusLine />
      </>,
    );
    const socket = await theSocket();
    socket.accept();
    await screen.findByText('Live status: live');

    await userEvent.setup().click(screen.getByRole('button', { name: 'Full resolution (zip)' }));
    expect(await screen.findByText('Preparing your zip… 1 of 2 files')).toBeInTheDocument();
    await pause(3_500);
    expect(fakeApi.requestsTo('GET', zipUrl)).toHaveLength(1);

    // Another order's zip, or another zip of this order, is not this one.
    socket.receive({ type: 'zip.ready', orderId: 'order-2', kind: 'edited' });
    socket.receive({ type: 'zip.ready', orderId: ORDER, kind: 'mls' });
    await pause(300);
    expect(fakeApi.requestsTo('GET', zipUrl)).toHaveLength(1);

    built = true;
    socket.receive({ type: 'zip.ready', orderId: ORDER, kind: 'edited' });
    expect(await screen.findByText('Completed photos downloaded successfully!')).toBeInTheDocument();
    expect(fakeApi.requestsTo('GET', zipUrl)).toHaveLength(2);
    expect(links).toEqual(['https://s3/zip']);
  });
});
