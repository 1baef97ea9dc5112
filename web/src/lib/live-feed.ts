import type { LiveMessage } from '@marketplace/events/live-updates';
import type { LiveStatus } from './live-connection';

type ZipKind = Extract<LiveMessage, { type: 'zip.ready' }>['kind'];

/**
 * What the signed-in pages hear from the live connection: its status, and each message. It
 * outlives the connections behind it (a new one after a change of user), so a screen subscribes once.
 */
export class LiveFeed {
  #status: LiveStatus = 'connecting';
  readonly #statusListeners = new Set<() => void>();
  readonly #messageListeners = new Set<(message: LiveMessage) => void>();

  get status() {
    return this.#status;
  }

  setStatus(status: LiveStatus) {
    if (status === this.#status) return;
    this.#status = status;
    for (const listener of [...this.#statusListeners]) listener();
  }

  publish(message: LiveMessage) {
    for (const listener of [...this.#messageListeners]) listener(message);
  }

  /** Arrow functions, so React's useSyncExternalStore can take them as they are. */
  onStatus = (listener: () => void) => {
    this.#statusListeners.add(listener);
    return () => void this.#statusListeners.delete(listener);
  };

  onMessage = (listener: (message: LiveMessage) => void) => {
    this.#messageListeners.add(listener);
    return () => void this.#messageListeners.delete(listener);
  };
}

/**
 * While live, a zip being built is asked for again when its zip.ready arrives, not on a timer; this
 * long without one it is asked for anyway, in case the message was lost (a zip must not time out
 * for want of one) and to move the progress line.
 */
export const LIVE_ZIP_RECHECK_MS = 10_000;

export interface ZipChecks {
  /** Resolves when the next check is due. */
  next: (signal: AbortSignal) => Promise<void>;
  stop: () => void;
}

const pause = (ms: number, signal: AbortSignal, wake?: (resolve: () => void) => void) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', abort);
      resolve();
    };
    const abort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', abort, { once: true });
    wake?.(done);
  });

/**
 * Paces the checks of one of an order's zips: on the poll interval while the socket is not live;
 * while it is, when the zip's zip.ready arrives, when the socket's status changes (a reconnect
 * may have missed the message; a socket lost means polling again), or after LIVE_ZIP_RECHECK_MS.
 * It listens from the moment it is made, so a message arriving while a check is under way counts.
 */
export function zipReadyChecks(
  feed: LiveFeed,
  { orderId, kind, pollIntervalMs }: { orderId: string; kind: ZipKind; pollIntervalMs: number },
): ZipChecks {
  let heard = false;
  let wake: (() => void) | null = null;
  const news = () => {
    heard = true;
    wake?.();
  };
  const stopMessages = feed.onMessage((message) => {
    if (message.type === 'zip.ready' && message.orderId === orderId && message.kind === kind) news();
  });
  const stopStatus = feed.onStatus(news);
  return {
    next: async (signal) => {
      if (feed.status !== 'live') {
        heard = false;
        return pause(pollIntervalMs, signal);
      }
      if (heard) {
        heard = false;
        return;
      }
      try {
        await pause(LIVE_ZIP_RECHECK_MS, signal, (done) => {
          wake = done;
        });
      } finally {
        wake = null;
        heard = false;
      }
    },
    stop: () => {
      stopMessages();
      stopStatus();
      wake = null;
    },
  };
}
