import type { LiveMessage } from '@marketplace/events/live-updates';
import { createContext, type ReactNode, useContext, useEffect, useState, useSyncExternalStore } from 'react';
import { useSWRConfig } from 'swr';
import { getIdToken } from './auth';
import { DOWNLOAD_POLL_INTERVAL_MS, type ReadyDownload, type WaitOptions, waitForReadyZip } from './download-completed';
import { type LiveStatus, openLiveConnection } from './live-connection';
import { LiveFeed, zipReadyChecks } from './live-feed';
import { batchRevalidations, everythingShown, keysChangedBy, readSpreadMs } from './live-revalidation';

const LiveFeedContext = createContext<LiveFeed | null>(null);

/**
 * Live updates for the signed-in pages: one socket for the tab while `uid` is signed in, closed on
 * sign-out (this provider leaves with the signed-in layout) and when the tab is closed. Each
 * message revalidates the keys it names; each (re)connect revalidates everything shown; a hidden
 * tab does both when it is shown again.
 */
export function LiveUpdatesProvider({ uid, children }: { uid: string; children: ReactNode }) {
  const { mutate } = useSWRConfig();
  const [feed] = useState(() => new LiveFeed());

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new user gets a socket of their own
  useEffect(() => {
    const revalidations = batchRevalidations((matcher) => void mutate(matcher));
    const connection = openLiveConnection({
      getToken: getIdToken,
      onStatus: (status) => feed.setStatus(status),
      onConnected: () => revalidations.add(everythingShown),
      onMessage: (message) => {
        const matcher = keysChangedBy(message);
        if (matcher) revalidations.add(matcher, readSpreadMs(message));
        feed.publish(message);
      },
    });
    return () => {
      connection.close();
      revalidations.stop();
      feed.setStatus('connecting');
    };
  }, [uid, feed, mutate]);

  return <LiveFeedContext.Provider value={feed}>{children}</LiveFeedContext.Provider>;
}

const noSubscription = () => () => {};
/** Outside the signed-in pages (a shared gallery) there is no socket: never live, so screens poll as before. */
const notLive = (): LiveStatus => 'connecting';

/** The socket's status; screens poll only while it is not 'live'. */
export function useLiveStatus(): LiveStatus {
  const feed = useContext(LiveFeedContext);
  return useSyncExternalStore(feed?.onStatus ?? noSubscription, feed ? () => feed.status : notLive);
}

type ZipKind = Extract<LiveMessage, { type: 'zip.ready' }>['kind'];

/**
 * Waits for one of an order's zips: polling its route as before while the socket is not live; while
 * it is, asking again when the zip's zip.ready arrives (see zipReadyChecks).
 */
export function useOrderZipWait() {
  const feed = useContext(LiveFeedContext);
  return (url: string, zip: { orderId: string; kind: ZipKind }, options: WaitOptions): Promise<ReadyDownload> => {
    if (!feed) return waitForReadyZip(url, options);
    const checks = zipReadyChecks(feed, {
      ...zip,
      pollIntervalMs: options.pollIntervalMs ?? DOWNLOAD_POLL_INTERVAL_MS,
    });
    return waitForReadyZip(url, { ...options, betweenChecks: checks.next }).finally(checks.stop);
  };
}
