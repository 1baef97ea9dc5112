import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { AppProviders } from '../app/AppProviders';
import { fakeApi } from '../test/fake-api';
import { editedPhotosZip, type OrderZip, OrderZipDownloadButton } from './OrderZipDownloadButton';

const mlsZip: OrderZip = {
  route: 'download-mls',
  kind: 'mls',
  filename: 'Oak_Street_MLS_ready.zip',
  successMessage: 'MLS-ready photos downloaded successfully!',
  failureMessage: 'Failed to download MLS-ready photos',
};

/** Links handed to the browser's download manager. */
function recordDownloads() {
  const links: { href: string | null; download: string }[] = [];
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    links.push({ href: this.getAttribute('href'), download: this.download });
  });
  onTestFinished(() => click.mockRestore());
  return links;
}

const renderButton = (zip: OrderZip, label: string) => {
  render(
    <AppProviders>
      <OrderZipDownloadButton orderId="order 7" zip={zip} label={label} />
    </AppProviders>,
  );
  return userEvent.setup();
};

describe('Order zip download button', () => {
  it("asks the zip's own route of the order, shows the build's progress, then hands the link to the browser", async () => {
    let polls = 0;
    fakeApi.on('GET', '/api/orders/order%207/download-mls', () =>
      ++polls < 2
        ? { status: 202, body: { status: 'building', filesDone: 3, fileCount: 8 } }
        : {
            status: 200,
            body: {
              status: 'ready',
              url: 'https://s3/mls.zip',
              filename: 'Oak_Street_MLS_ready.zip',
              sizeBytes: 5,
              fileCount: 8,
            },
          },
    );
    const links = recordDownloads();
    const user = renderButton(mlsZip, 'MLS-ready (zip)');
    await user.click(screen.getByRole('button', { name: 'MLS-ready (zip)' }));
    expect(await screen.findByText('Preparing your zip… 3 of 8 files')).toBeInTheDocument();
    expect(
      await screen.findByText('MLS-ready photos downloaded successfully!', {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(links).toEqual([{ href: 'https://s3/mls.zip', download: 'Oak_Street_MLS_ready.zip' }]);
    expect(screen.queryByText(/Preparing your zip/)).not.toBeInTheDocument();
  });

  it("says why a download failed in the server's words", async () => {
    fakeApi.on('GET', '/api/orders/order%207/download-completed', {
      status: 409,
      body: { error: 'CONFLICT', message: 'Only completed orders can be downloaded' },
    });
    const user = renderButton(editedPhotosZip({ name: 'Oak Street', orderNumber: 7 }), 'Full resolution (zip)');
    await user.click(screen.getByRole('button', { name: 'Full resolution (zip)' }));
    expect(await screen.findByText('Download failed: Only completed orders can be downloaded')).toBeInTheDocument();
  });

  it("falls back to the zip's own failure text when the server gives no reason", async () => {
    fakeApi.on('GET', '/api/orders/order%207/download-mls', { status: 503 });
    const user = renderButton(mlsZip, 'MLS-ready (zip)');
    await user.click(screen.getByRole('button', { name: 'MLS-ready (zip)' }));
    expect(await screen.findByText('Failed to download MLS-ready photos')).toBeInTheDocument();
  });

  it("names the edited photos' zip as the spec does", () => {
    expect(editedPhotosZip({ name: 'Oak Street', orderNumber: 7 })).toMatchObject({
      route: 'download-completed',
      filename: 'Oak_Street_edited_photos.zip',
    });
    expect(editedPhotosZip({ name: null, orderNumber: 7 }).filename).toBe('Order_#7_edited_photos.zip');
  });
});
