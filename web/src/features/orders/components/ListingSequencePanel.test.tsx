import type { MlsSetView, SaveSequenceInput, SequenceView } from '@marketplace/events/delivery';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { fakeFirebase } from '../../../test/fake-firebase-auth';
import { aMeView } from '../../../test/me-view';
import { aCompletedOrderDetail } from '../../../test/order-views';
import { renderApp } from '../../../test/render-app';

const ORDER_ID = 'order-1';
const sequencePath = `/api/orders/${ORDER_ID}/sequence`;
const mlsSizePath = `/api/orders/${ORDER_ID}/mls-size`;
const keyOf = (name: string) => `orders/${ORDER_ID}/edited/${name}.jpg`;

/** The sequence view of photos named a, b, c, d... in the given order. */
const aSequenceView = (names: string[], fields: Partial<SequenceView> = {}): SequenceView => ({
  photos: names.map((name, index) => ({
    key: keyOf(name),
    position: index + 1,
    entryName: `${String(index + 1).padStart(2, '0')}_Oak_Street_${name}.jpg`,
    filename: `${name}.jpg`,
    thumbnailUrl: `https://photos.example.com/${name}-thumb.webp`,
    previewUrl: `https://photos.example.com/${name}-preview.webp`,
  })),
  version: 0,
  isDefault: true,
  updatedAt: null,
  mlsLongEdge: 2048,
  mls: { longEdge: 2048, ready: names.length, pending: 0, skipped: [] },
  ...fields,
});

/** The sequence routes as the server keeps them: a save moves the version on and answers it. */
function serveSequence(initial: SequenceView) {
  let current = initial;
  fakeApi.on('GET', sequencePath, () => ({ status: 200, body: current }));
  fakeApi.on('PUT', sequencePath, (request) => {
    const { keys } = request.body as SaveSequenceInput;
    current = {
      ...aSequenceView(keys.map((key) => key.replace(`orders/${ORDER_ID}/edited/`, '').replace('.jpg', ''))),
      version: current.version + 1,
      isDefault: false,
      updatedAt: '2025-03-07T09:00:00.000Z',
    };
    return { status: 200, body: { version: current.version } };
  });
  return {
    replace(view: SequenceView) {
      current = view;
    },
  };
}

async function openOrder() {
  const view = renderApp(`/orders/${ORDER_ID}`);
  await screen.findByRole('heading', { level: 1, name: 'Order #1' }, { timeout: 5000 });
  await screen.findByRole('list', { name: 'Photos in listing order' });
  return view;
}

const listing = () => within(screen.getByRole('region', { name: 'Listing Order' }));

/** The file names in the grid, in the order shown. */
const shownOrder = () =>
  within(screen.getByRole('list', { name: 'Photos in listing order' }))
    .getAllByRole('listitem')
    .map((item) => within(item).getByRole('img').getAttribute('alt'));

const savedBodies = () => fakeApi.requestsTo('PUT', sequencePath).map((request) => request.body);

/**
 * Happy DOM lays nothing out, and the keyboard moves a photo to its neighbour on screen: place the
 * grid's tiles in two columns of 100 px squares, in the order they stand in the list.
 */
function layOutGridInTwoColumns() {
  const measure = Element.prototype.getBoundingClientRect;
  const spy = vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
    const grid = this.parentElement;
    if (this.tagName !== 'LI' || grid?.getAttribute('aria-label') !== 'Photos in listing order') {
      return measure.call(this);
    }
    const index = [...grid.children].indexOf(this);
    return new DOMRect((index % 2) * 100, Math.floor(index / 2) * 100, 100, 100);
  });
  onTestFinished(() => spy.mockRestore());
}

describe('Listing order on a completed order', () => {
  beforeEach(() => {
    fakeFirebase.signInAs({ email: 'pat@example.com' });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView() });
    fakeApi.on('GET', `/api/orders/${ORDER_ID}`, {
      status: 200,
      body: aCompletedOrderDetail({ editorUploadCount: 4 }),
    });
    fakeApi.on('GET', `/api/orders/${ORDER_ID}/images`, { status: 200, body: { images: [] } });
  });

  it('shows the photos in listing order, the first marked Cover, in capture order until saved', async () => {
    serveSequence(aSequenceView(['a', 'b', 'c', 'd']));
    await openOrder();
    expect(shownOrder()).toEqual(['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg']);
    const [first, second] = within(screen.getByRole('list', { name: 'Photos in listing order' })).getAllByRole(
      'listitem',
    );
    expect(within(first as HTMLElement).getByText('Cover')).toBeInTheDocument();
    expect(within(second as HTMLElement).queryByText('Cover')).not.toBeInTheDocument();
    expect(listing().getByText('In capture order')).toBeInTheDocument();
    expect(listing().getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(listing().getByRole('button', { name: 'Discard changes' })).toBeDisabled();
    expect(listing().queryByRole('button', { name: 'Make cover: a.jpg' })).not.toBeInTheDocument();
  });

  it('says when a saved order was saved', async () => {
    serveSequence(aSequenceView(['b', 'a'], { isDefault: false, version: 2, updatedAt: '2025-03-06T12:00:00.000Z' }));
    await openOrder();
    expect(listing().getByText('Saved Mar 6, 2025')).toBeInTheDocument();
  });

  it('moves a photo with the keyboard, announcing each step in plain words, then saves the new order', async () => {
    layOutGridInTwoColumns();
    serveSequence(aSequenceView(['a', 'b', 'c', 'd']));
    const { user } = await openOrder();

    // c stands at place 3 (left column, second row): up once is place 1, the cover.
    listing().getByRole('button', { name: 'Move c.jpg, photo 3 of 4' }).focus();
    await user.keyboard('[Space]');
    expect(await screen.findByText(/^Picked up photo 3 of 4\./)).toBeInTheDocument();
    await user.keyboard('[ArrowUp]');
    expect(await screen.findByText('Photo 3 of 4 is over place 1, the cover.')).toBeInTheDocument();
    await user.keyboard('[Space]');
    expect(await screen.findByText('Photo 3 of 4 moved to place 1, the cover.')).toBeInTheDocument();

    await waitFor(() => expect(shownOrder()).toEqual(['c.jpg', 'a.jpg', 'b.jpg', 'd.jpg']));
    expect(listing().getByText('Unsaved changes')).toBeInTheDocument();
    expect(listing().getByText('Not saved yet')).toBeInTheDocument();

    await user.click(listing().getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Listing order saved')).toBeInTheDocument();
    expect(savedBodies()).toEqual([{ keys: ['c', 'a', 'b', 'd'].map(keyOf), version: 0 }]);
    await waitFor(() => expect(listing().queryByText('Unsaved changes')).not.toBeInTheDocument());
    expect(listing().getByText('Saved Mar 7, 2025')).toBeInTheDocument();
    expect(shownOrder()).toEqual(['c.jpg', 'a.jpg', 'b.jpg', 'd.jpg']);
  });

  it('leaves the order as it was when a keyboard move is cancelled with Escape', async () => {
    layOutGridInTwoColumns();
    serveSequence(aSequenceView(['a', 'b', 'c', 'd']));
    const { user } = await openOrder();
    listing().getByRole('button', { name: 'Move d.jpg, photo 4 of 4' }).focus();
    await user.keyboard('[Space]');
    await user.keyboard('[ArrowLeft]');
    await user.keyboard('[Escape]');
    expect(await screen.findByText('Moving cancelled. Photo 4 of 4 stays at place 4.')).toBeInTheDocument();
    expect(shownOrder()).toEqual(['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg']);
    expect(listing().getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('makes a photo the cover from its button, keeps focus on that photo, and saves it first', async () => {
    serveSequence(
      aSequenceView(['a', 'b', 'c', 'd'], { version: 3, isDefault: false, updatedAt: '2025-03-06T12:00:00.000Z' }),
    );
    const { user } = await openOrder();
    await user.click(listing().getByRole('button', { name: 'Make cover: d.jpg' }));

    expect(shownOrder()).toEqual(['d.jpg', 'a.jpg', 'b.jpg', 'c.jpg']);
    const first = within(screen.getByRole('list', { name: 'Photos in listing order' })).getAllByRole('listitem')[0];
    expect(within(first as HTMLElement).getByText('Cover')).toBeInTheDocument();
    expect(await screen.findByText('Photo 4 of 4 moved to place 1, the cover.')).toBeInTheDocument();
    await waitFor(() => expect(listing().getByRole('button', { name: 'Move d.jpg, photo 1 of 4' })).toHaveFocus());

    await user.click(listing().getByRole('button', { name: 'Save' }));
    await screen.findByText('Listing order saved');
    expect(savedBodies()).toEqual([{ keys: ['d', 'a', 'b', 'c'].map(keyOf), version: 3 }]);
  });

  it('reaches Make cover with the keyboard', async () => {
    serveSequence(aSequenceView(['a', 'b']));
    const { user } = await openOrder();
    listing().getByRole('button', { name: 'Move b.jpg, photo 2 of 2' }).focus();
    await user.tab();
    expect(listing().getByRole('button', { name: 'Make cover: b.jpg' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(shownOrder()).toEqual(['b.jpg', 'a.jpg']);
  });

  it('discards unsaved changes back to the saved order', async () => {
    serveSequence(aSequenceView(['a', 'b', 'c']));
    const { user } = await openOrder();
    await user.click(listing().getByRole('button', { name: 'Make cover: c.jpg' }));
    expect(shownOrder()).toEqual(['c.jpg', 'a.jpg', 'b.jpg']);
    await user.click(listing().getByRole('button', { name: 'Discard changes' }));
    expect(shownOrder()).toEqual(['a.jpg', 'b.jpg', 'c.jpg']);
    expect(listing().queryByText('Unsaved changes')).not.toBeInTheDocument();
    expect(savedBodies()).toEqual([]);
  });

  it('counts moving a photo back to where it was as no change', async () => {
    serveSequence(aSequenceView(['a', 'b']));
    const { user } = await openOrder();
    await user.click(listing().getByRole('button', { name: 'Make cover: b.jpg' }));
    expect(listing().getByText('Unsaved changes')).toBeInTheDocument();
    await user.click(listing().getByRole('button', { name: 'Make cover: a.jpg' }));
    expect(listing().queryByText('Unsaved changes')).not.toBeInTheDocument();
    expect(listing().getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('when another tab saved meanwhile, says so and loads the saved order on request', async () => {
    const server = serveSequence(aSequenceView(['a', 'b', 'c']));
    fakeApi.on('PUT', sequencePath, {
      status: 409,
      body: {
        error: 'SEQUENCE_CHANGED',
        message: 'The photo order was changed in another tab or window. Load that order, or save yours over it.',
        details: { version: 1 },
      },
    });
    const { user } = await openOrder();
    await user.click(listing().getByRole('button', { name: 'Make cover: b.jpg' }));
    server.replace(
      aSequenceView(['c', 'b', 'a'], { version: 1, isDefault: false, updatedAt: '2025-03-07T08:00:00.000Z' }),
    );
    await user.click(listing().getByRole('button', { name: 'Save' }));

    expect(
      await screen.findByText(
        'The photo order was changed in another tab or window. Load that order, or save yours over it.',
      ),
    ).toBeInTheDocument();
    // Mine stays on screen until the photographer chooses.
    expect(shownOrder()).toEqual(['b.jpg', 'a.jpg', 'c.jpg']);

    await user.click(listing().getByRole('button', { name: 'Load the saved order' }));
    await waitFor(() => expect(shownOrder()).toEqual(['c.jpg', 'b.jpg', 'a.jpg']));
    expect(listing().queryByText(/changed in another tab/)).not.toBeInTheDocument();
    expect(listing().queryByText('Unsaved changes')).not.toBeInTheDocument();
    expect(listing().getByText('Saved Mar 7, 2025')).toBeInTheDocument();
  });

  it('when another tab saved meanwhile, keeps mine on request by saving over it', async () => {
    serveSequence(aSequenceView(['a', 'b', 'c']));
    let conflicted = false;
    fakeApi.on('PUT', sequencePath, (request) => {
      const body = request.body as SaveSequenceInput;
      if (!body.replace) {
        conflicted = true;
        return {
          status: 409,
          body: { error: 'SEQUENCE_CHANGED', message: 'Changed in another tab.', details: { version: 4 } },
        };
      }
      return { status: 200, body: { version: 5 } };
    });
    const { user } = await openOrder();
    await user.click(listing().getByRole('button', { name: 'Make cover: b.jpg' }));
    await user.click(listing().getByRole('button', { name: 'Save' }));
    await screen.findByText('Changed in another tab.');
    expect(conflicted).toBe(true);

    fakeApi.on('GET', sequencePath, {
      status: 200,
      body: aSequenceView(['b', 'a', 'c'], { version: 5, isDefault: false, updatedAt: '2025-03-07T09:30:00.000Z' }),
    });
    await user.click(listing().getByRole('button', { name: 'Keep mine' }));
    await screen.findByText('Listing order saved');
    expect(savedBodies()).toEqual([
      { keys: ['b', 'a', 'c'].map(keyOf), version: 0 },
      { keys: ['b', 'a', 'c'].map(keyOf), version: 4, replace: true },
    ]);
    await waitFor(() => expect(listing().queryByText('Changed in another tab.')).not.toBeInTheDocument());
    expect(shownOrder()).toEqual(['b.jpg', 'a.jpg', 'c.jpg']);
    expect(listing().queryByText('Unsaved changes')).not.toBeInTheDocument();
  });

  it("shows the server's reason when a save is refused for another cause, and keeps the changes", async () => {
    serveSequence(aSequenceView(['a', 'b']));
    fakeApi.on('PUT', sequencePath, {
      status: 400,
      body: { error: 'SEQUENCE_MISMATCH', message: 'The listing order must hold every delivered photo' },
    });
    const { user } = await openOrder();
    await user.click(listing().getByRole('button', { name: 'Make cover: b.jpg' }));
    await user.click(listing().getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The listing order must hold every delivered photo')).toBeInTheDocument();
    expect(listing().getByText('Unsaved changes')).toBeInTheDocument();
  });

  it('asks before leaving the page with unsaved changes', async () => {
    serveSequence(aSequenceView(['a', 'b']));
    const { user, router } = await openOrder();
    await user.click(listing().getByRole('button', { name: 'Make cover: b.jpg' }));
    await user.click(screen.getByRole('link', { name: 'Back to Dashboard' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Leave without saving?' }));
    await user.click(dialog.getByRole('button', { name: 'Stay' }));
    expect(router.state.location.pathname).toBe(`/orders/${ORDER_ID}`);
    expect(shownOrder()).toEqual(['b.jpg', 'a.jpg']);
  });
});

describe('MLS-ready photos on a completed order', () => {
  beforeEach(() => {
    fakeFirebase.signInAs({ email: 'pat@example.com' });
    fakeApi.on('GET', '/api/auth/me', { status: 200, body: aMeView() });
    fakeApi.on('GET', `/api/orders/${ORDER_ID}`, {
      status: 200,
      body: aCompletedOrderDetail({ editorUploadCount: 4 }),
    });
    fakeApi.on('GET', `/api/orders/${ORDER_ID}/images`, { status: 200, body: { images: [] } });
  });

  const mlsSection = () => within(screen.getByRole('region', { name: 'MLS-Ready Photos' }));
  const withMls = (mls: Partial<MlsSetView>) =>
    aSequenceView(['a', 'b', 'c', 'd'], { mls: { longEdge: 2048, ready: 4, pending: 0, skipped: [], ...mls } });

  it('offers the three long edges with 2,048 px chosen, and says the set is ready', async () => {
    serveSequence(withMls({}));
    await openOrder();
    const sizes = mlsSection().getByRole('radiogroup', { name: 'Long edge' });
    expect(
      within(sizes)
        .getAllByRole('radio')
        .map((radio) => radio.getAttribute('value')),
    ).toEqual(['1024', '2048', '3000']);
    expect(within(sizes).getByRole('radio', { name: '2,048 px' })).toBeChecked();
    expect(mlsSection().getByText('All 4 copies ready at 2,048 px.')).toBeInTheDocument();
  });

  it('says how far the copies are, and names each file left out with its reason', async () => {
    serveSequence(
      withMls({
        ready: 2,
        pending: 1,
        skipped: [{ key: keyOf('d'), filename: 'd.jpg', reason: 'Not a picture we can read' }],
      }),
    );
    await openOrder();
    expect(mlsSection().getByText('Making copies at 2,048 px: 2 of 4 ready.')).toBeInTheDocument();
    const leftOut = within(mlsSection().getByRole('list', { name: 'Files left out of the MLS-ready set' }));
    expect(leftOut.getByRole('listitem')).toHaveTextContent('d.jpg: Not a picture we can read');
  });

  it('changes the long edge, then shows the set at the new size', async () => {
    const server = serveSequence(withMls({}));
    fakeApi.on('PUT', mlsSizePath, () => {
      server.replace(
        aSequenceView(['a', 'b', 'c', 'd'], {
          mlsLongEdge: 3000,
          mls: { longEdge: 3000, ready: 1, pending: 3, skipped: [] },
        }),
      );
      return { status: 200, body: { mlsLongEdge: 3000 } };
    });
    const { user } = await openOrder();
    await user.click(mlsSection().getByRole('radio', { name: '3,000 px' }));
    expect(await screen.findByText('MLS-ready photos set to 3,000 px on the long edge')).toBeInTheDocument();
    expect(fakeApi.requestsTo('PUT', mlsSizePath).map((request) => request.body)).toEqual([{ longEdge: 3000 }]);
    expect(await mlsSection().findByText('Making copies at 3,000 px: 1 of 4 ready.')).toBeInTheDocument();
    expect(mlsSection().getByRole('radio', { name: '3,000 px' })).toBeChecked();
  });

  it("keeps the size it had and shows the server's reason when the change is refused", async () => {
    serveSequence(withMls({}));
    fakeApi.on('PUT', mlsSizePath, {
      status: 409,
      body: { error: 'NOT_COMPLETED', message: 'The listing order can be arranged once the order is completed' },
    });
    const { user } = await openOrder();
    await user.click(mlsSection().getByRole('radio', { name: '1,024 px' }));
    expect(
      await screen.findByText('The listing order can be arranged once the order is completed'),
    ).toBeInTheDocument();
    await waitFor(() => expect(mlsSection().getByRole('radio', { name: '2,048 px' })).toBeChecked());
  });
});
