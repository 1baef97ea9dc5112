import type { CompletedDownloadView } from '@marketplace/events/orders';
import { apiRequest } from './api-client';

/** The spec's download timeout (section 9): the whole wait, every poll included. */
export const DOWNLOAD_TIMEOUT_MS = 60_000;
/** How long to wait between asking whether a zip that is still building is ready. */
export const DOWNLOAD_POLL_INTERVAL_MS = 1_500;

export type ReadyDownload = Extract<CompletedDownloadView, { status: 'ready' }>;
export type DownloadProgress = Extract<CompletedDownloadView, { status: 'building' }>;

export class DownloadTimeoutError extends Error {
  constructor() {
    super('The zip took longer than 60 seconds to prepare. Please try again.');
    this.name = 'DownloadTimeoutError';
  }
}

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', stop, { once: true });
  });

export interface WaitOptions {
  onProgress?: (progress: DownloadProgress) => void;
  /** Aborts the wait, e.g. when the page that asked is left. */
  signal?: AbortSignal;
  timeoutMs?: number;
  pollIntervalMs?: number;
  /** Resolves when the next check is due; by default after `pollIntervalMs` (a live tab waits for news instead). */
  betweenChecks?: (signal: AbortSignal) => Promise<void>;
}

/**
 * Asks a zip download route (one that answers ready, or building with progress) until the zip is
 * ready, reporting progress meanwhile; the whole wait is bounded by the spec's timeout.
 */
export async function waitForReadyZip(
  url: string,
  {
    onProgress,
    signal,
    timeoutMs = DOWNLOAD_TIMEOUT_MS,
    pollIntervalMs = DOWNLOAD_POLL_INTERVAL_MS,
    betweenChecks = (wait) => pause(pollIntervalMs, wait),
  }: WaitOptions = {},
): Promise<ReadyDownload> {
  const deadline = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([signal, deadline]) : deadline;
  try {
    for (;;) {
      const view = await apiRequest<CompletedDownloadView>(url, { signal: combined });
      if (view.status === 'ready') return view;
      onProgress?.(view);
      await betweenChecks(combined);
    }
  } catch (error) {
    if (deadline.aborted && !signal?.aborted) throw new DownloadTimeoutError();
    throw error;
  }
}

/**
 * Hands a URL to the browser's own download manager through a temporary link, so even a zip of
 * several gigabytes streams to disk and never sits in the page's memory.
 */
export function startBrowserDownload(url: string, filename: string) {
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
}
