import type { SharedGalleryView } from '@marketplace/events/delivery';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { firebaseAuthModule } from '../../../test/fake-firebase-auth';
import { renderApp } from '../../../test/render-app';

const TOKEN = 'AbC-dEf_0123456789abcdefghijklmnopqrstuvwxyz1';

const aSharedGallery = (fields: Partial<SharedGalleryView> = {}): SharedGalleryView => ({
  business: null,
  title: '12 Oak Street',
  photos: [1, 2, 3].map((position) => ({
    position,
    entryName: `0${position}_12_Oak_Street_${['front', 'kitchen', 'garden'][position - 1]}.jpg`,
    thumbnailUrl: `https://photos.example/thumb-${position}.webp`,
    previewUrl: `https://photos.example/preview-${position}.webp`,
  })),
  downloads: { full: { fileCount: 3 }, mls: { fileCount: 3, longEdge: 2048 } },
  expiresAt: '2025-04-04T10:00:00.000Z',
  ...fields,
});

/** Links handed to the browser's download manager. */
function recordDownloads() {
  const links: { href: string | null; download: string }[] = [];
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    links.push({ href: this.getAttribute('href'), download: this.download });
  });
  onTestFinished(() => click.mockRestore());
  return links;
}

const metaContent = (name: string) => document.head.querySelector(`meta[name="${name}"]`)?.getAttribute('content');

describe('The share page', () => {
  it("shows the photographer's business name and logo above the property's name", async () => {
    const business = { name: 'Bright Rooms Photography', logoUrl: 'https://photos.example/logo.large.webp' };
    fakeApi.on('GET', `/api/share/${TOKEN}`, { status: 200, body: aSharedGallery({ business }) });
    renderApp(`/share/${TOKEN}`);

    const heading = await screen.findByRole('heading', { level: 1, name: '12 Oak Street' });
    const header = screen.getByRole('group', { name: 'Photographer' });
    expect(within(header).getByText('Bright Rooms Photography')).toBeInTheDocument();
    expect(within(header).getByRole('img', { name: 'Bright Rooms Photography logo' })).toHaveAttribute(
      'src',
      business.logoUrl,
    );
    // Above the property: the business comes first in the page's order.
    expect(header.compareDocumentPosition(heading) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('shows no business header when the photographer set none', async () => {
    fakeApi.on('GET', `/api/share/${TOKEN}`, { status: 200, body: aSharedGallery() });
    renderApp(`/share/${TOKEN}`);

    await screen.findByRole('heading', { level: 1, name: '12 Oak Street' });
    expect(screen.queryByRole('group', { name: 'Photographer' })).not.toBeInTheDocument();
  });

  it('shows the property, the cover first and every photo in listing order, to a visitor with no account', async () => {
    fakeApi.on('GET', `/api/share/${TOKEN}`, { status: 200, body: aSharedGallery() });
    renderApp(`/share/${TOKEN}`);

    expect(await screen.findByRole('heading', { level: 1, name: '12 Oak Street' })).toBeInTheDocument();
    const cover = within(screen.getByRole('region', { name: 'Cover photo' }));
    expect(cover.getByRole('img')).toHaveAttribute('src', 'https://photos.example/preview-1.webp');
    const grid = within(screen.getByRole('list', { name: 'Photos in listing order' }));
    expect(grid.getAllByRole('img').map((img) => img.getAttribute('alt'))).toEqual([
      '01_12_Oak_Street_front.jpg',
      '02_12_Oak_Street_kitchen.jpg',
      '03_12_Oak_Street_garden.jpg',
    ]);
    expect(grid.getByText('Cover · 01_12_Oak_Street_front.jpg')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Full resolution (zip)' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'MLS-ready (zip)' })).toBeInTheDocument();
    expect(screen.getByText('3 photos, 2,048 px on the long edge', { exact: false })).toBeInTheDocument();
    expect(screen.getByText('This link works until Apr 4, 2025.')).toBeInTheDocument();

    // Kept out of search engines, its address never a referrer; no sign-in asked or sent.
    expect(metaContent('robots')).toBe('noindex');
    expect(metaContent('referrer')).toBe('no-referrer');
    expect(fakeApi.requestsTo('GET', `/api/share/${TOKEN}`)[0]?.headers.has('Authorization')).toBe(false);
    expect(firebaseAuthModule.getIdToken).not.toHaveBeenCalled();
    expect(fakeApi.requestsTo('GET', '/api/auth/me')).toHaveLength(0);
  });

  it('opens a photo full size from the grid', async () => {
    fakeApi.on('GET', `/api/share/${TOKEN}`, { status: 200, body: aSharedGallery() });
    const view = renderApp(`/share/${TOKEN}`);
    const grid = within(await screen.findByRole('list', { name: 'Photos in listing order' }));
    await view.user.click(grid.getByRole('button', { name: 'View 02_12_Oak_Street_kitchen.jpg full size' }));
    expect(await screen.findByRole('button', { name: 'Next photo' })).toBeInTheDocument();
    expect(document.querySelector('.yarl__slide_current img')).toHaveAttribute(
      'src',
      'https://photos.example/preview-2.webp',
    );
  });

  it("downloads the full-resolution zip through the link's own route once it is built", async () => {
    fakeApi.on('GET', `/api/share/${TOKEN}`, { status: 200, body: aSharedGallery() });
    let polls = 0;
    fakeApi.on('GET', `/api/share/${TOKEN}/downloads/full`, () =>
      ++polls < 2
        ? { status: 202, body: { status: 'building', filesDone: 1, fileCount: 3 } }
        : {
            status: 200,
            body: {
              status: 'ready',
              url: 'https://photos.example/zips/oak.zip',
              filename: '12_Oak_Street_edited_photos.zip',
              sizeBytes: 1000,
              fileCount: 3,
            },
          },
    );
    const downloads = recordDownloads();
    const view = renderApp(`/share/${TOKEN}`);
    await view.user.click(await screen.findByRole('button', { name: 'Full resolution (zip)' }));
    expect(await screen.findByText('Full-resolution photos downloaded', {}, { timeout: 8000 })).toBeInTheDocument();
    expect(downloads).toEqual([
      { href: 'https://photos.example/zips/oak.zip', download: '12_Oak_Street_edited_photos.zip' },
    ]);
    expect(fakeApi.requestsTo('GET', `/api/share/${TOKEN}/downloads/full`).length).toBe(2);
    expect(fakeApi.requestsTo('GET', `/api/share/${TOKEN}/downloads/mls`)).toHaveLength(0);
  });

  it('says the link is no longer available, and nothing more, when the server opens nothing', async () => {
    fakeApi.on('GET', `/api/share/${TOKEN}`, {
      status: 404,
      body: { error: 'LINK_UNAVAILABLE', message: 'This link is no longer available' },
    });
    renderApp(`/share/${TOKEN}`);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This link is no longer available' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /zip/ })).not.toBeInTheDocument();
    expect(metaContent('robots')).toBe('noindex');
    expect(window.location.pathname).not.toBe('/login');
  });

  it('offers to try again when the photos could not be loaded', async () => {
    // Only the first answer fails: the page shows it at once, and the click (not the data layer's
    // own retry some seconds later) is what asks again, so the test does not race that retry.
    let calls = 0;
    fakeApi.on('GET', `/api/share/${TOKEN}`, () =>
      ++calls <= 1
        ? { status: 503, body: { error: 'UNAVAILABLE', message: 'Try later' } }
        : { status: 200, body: aSharedGallery() },
    );
    const view = renderApp(`/share/${TOKEN}`);
    await view.user.click(await screen.findByRole('button', { name: 'Try again' }, { timeout: 10_000 }));
    expect(await screen.findByRole('heading', { level: 1, name: '12 Oak Street' })).toBeInTheDocument();
    expect(calls).toBe(2);
  }, 15_000);
});
