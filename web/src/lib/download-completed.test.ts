import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { fakeApi } from '../test/fake-api';
import { DownloadTimeoutError, startBrowserDownload, waitForReadyZip } from './download-completed';

const zipRoute = '/api/orders/o-1/download-completed';
const building = { status: 202, body: { status: 'building', filesDone: 0, fileCount: 2 } };

describe('waitForReadyZip', () => {
  it('asks again while the zip builds and reports each step of progress', async () => {
    let polls = 0;
    fakeApi.on('GET', '/api/orders/o-1/download-completed', () =>
      ++polls < 3
        ? { status: 202, body: { status: 'building', filesDone: polls, fileCount: 2 } }
        : {
            status: 200,
            body: { status: 'ready', url: 'https://s3/z.zip', filename: 'z.zip', sizeBytes: 1, fileCount: 2 },
          },
    );
    const progress: number[] = [];
    const ready = await waitForReadyZip(zipRoute, {
      pollIntervalMs: 5,
      onProgress: (p) => progress.push(p.filesDone),
    });
    expect(ready.url).toBe('https://s3/z.zip');
    expect(progress).toEqual([1, 2]);
  });

  it('gives up with a timeout once the overall time has passed', async () => {
    fakeApi.on('GET', '/api/orders/o-1/download-completed', building);
    await expect(waitForReadyZip(zipRoute, { timeoutMs: 60, pollIntervalMs: 10 })).rejects.toBeInstanceOf(
      DownloadTimeoutError,
    );
  });

  it('stops asking when the caller aborts, without calling it a timeout', async () => {
    fakeApi.on('GET', '/api/orders/o-1/download-completed', building);
    const leave = new AbortController();
    const waiting = waitForReadyZip(zipRoute, { signal: leave.signal, pollIntervalMs: 10 });
    setTimeout(() => leave.abort(), 30);
    await expect(waiting).rejects.not.toBeInstanceOf(DownloadTimeoutError);
    const asked = fakeApi.requestsTo('GET', '/api/orders/o-1/download-completed').length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fakeApi.requestsTo('GET', '/api/orders/o-1/download-completed')).toHaveLength(asked);
  });
});

describe('startBrowserDownload', () => {
  it('clicks a temporary link carrying the url and file name, then removes it', () => {
    const clicked: { href: string | null; download: string; attached: boolean }[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.getAttribute('href'), download: this.download, attached: this.isConnected });
    });
    onTestFinished(() => click.mockRestore());
    startBrowserDownload('https://s3/z.zip?sig=1', 'Harbour_edited_photos.zip');
    expect(clicked).toEqual([
      { href: 'https://s3/z.zip?sig=1', download: 'Harbour_edited_photos.zip', attached: true },
    ]);
    expect(document.querySelector('a[download]')).toBeNull();
  });
});
