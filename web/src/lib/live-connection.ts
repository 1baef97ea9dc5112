import {
  LIVE_PATH,
  LIVE_PING,
  LIVE_PING_INTERVAL_MS,
  LIVE_TOKEN_PARAMETER,
  type LiveMessage,
  liveMessage,
} from '@marketplace/events/live-updates';

/**
 * The tab's one WebSocket to the live-update service: opened with the signed-in user's ID token,
 * kept open with a ping, opened again after every close with exponential backoff and full jitter.
 * Plain TypeScript with no React, so its timing can be tested with fake timers and a fake socket.
 */

/** 'connecting' while a first or renewed socket is on its way; 'delayed' once that has failed for a while. */
export type LiveStatus = 'connecting' | 'live' | 'delayed';

/** The first retry waits up to this long; each failure in a row doubles it, up to the cap. */
export const RECONNECT_BASE_DELAY_MS = 1_000;
export const RECONNECT_MAX_DELAY_MS = 30_000;
/** 'delayed' after this many failed attempts in a row, or this long without a socket, whichever comes first. */
export const DELAYED_AFTER_FAILED_ATTEMPTS = 2;
export const DELAYED_AFTER_MS = 10_000;
/** A handshake that has not finished by then is given up and counted as a failure. */
export const CONNECT_TIMEOUT_MS = 10_000;
/**
 * A socket that closes sooner than this after opening counts as a failed attempt too, so a server
 * that accepts a tab and drops it at once is not asked again at once, over and over.
 */
export const STABLE_CONNECTION_MS = 30_000;

/**
 * Full jitter: anywhere between nothing and the capped exponential delay, so the tabs a restart
 * dropped together do not all come back in the same instant. `failures` counts the failed attempts
 * in a row (0 after a socket that had been open a while closed).
 */
export const reconnectDelayMs = (failures: number, random: () => number = Math.random) =>
  random() * Math.min(RECONNECT_MAX_DELAY_MS, RECONNECT_BASE_DELAY_MS * 2 ** failures);

/** A message the tab can act on, or null for anything else (not JSON, an unknown type, missing ids). */
export const parseLiveMessage = (data: unknown): LiveMessage | null => {
  if (typeof data !== 'string') return null;
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return null;
  }
  const parsed = liveMessage.safeParse(json);
  return parsed.success ? parsed.data : null;
};

/** The site's own origin, ws: or wss: as the page itself is served. */
export const liveSocketUrl = (token: string, location: Pick<Location, 'protocol' | 'host'> = window.location) =>
  `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${LIVE_PATH}?${new URLSearchParams({
    [LIVE_TOKEN_PARAMETER]: token,
  })}`;

export interface LiveConnectionOptions {
  /** The ID token the API client uses; `forceRefresh` after a refused handshake, in case the kept one was stale. */
  getToken: (options: { forceRefresh: boolean }) => Promise<string | null>;
  onMessage: (message: LiveMessage) => void;
  /** Each time a socket opens: nothing is pushed while there is none, so what is shown must be read again. */
  onConnected: () => void;
  onStatus: (status: LiveStatus) => void;
  socketUrl?: (token: string) => string;
  random?: () => number;
}

export interface LiveConnection {
  readonly status: LiveStatus;
  /** Closes the socket for good (sign-out, the signed-in pages left). */
  close: () => void;
}

export function openLiveConnection({
  getToken,
  onMessage,
  onConnected,
  onStatus,
  socketUrl = liveSocketUrl,
  random = Math.random,
}: LiveConnectionOptions): LiveConnection {
  let status: LiveStatus = 'connecting';
  let socket: WebSocket | null = null;
  let stopped = false;
  /** Failed attempts in a row since a socket was last open for a while. */
  let failures = 0;
  let freshTokenNext = false;
  let freshTokenTried = false;
  /** Bumped by every attempt and by suspending, so the answer of an abandoned token request is ignored. */
  let attempt = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let delayedTimer: ReturnType<typeof setTimeout> | undefined;

  const setStatus = (next: LiveStatus) => {
    if (next === status) return;
    status = next;
    onStatus(next);
  };

  const startDelayedClock = () => {
    if (delayedTimer !== undefined) return;
    delayedTimer = setTimeout(() => {
      delayedTimer = undefined;
      if (status !== 'live') setStatus('delayed');
    }, DELAYED_AFTER_MS);
  };

  const stopDelayedClock = () => {
    clearTimeout(delayedTimer);
    delayedTimer = undefined;
  };

  const scheduleRetry = () => {
    clearTimeout(retryTimer);
    retryTimer = setTimeout(() => void connect(), reconnectDelayMs(failures, random));
  };

  /** What happens after an attempt failed or a socket closed; `openedAt` is 0 for a socket that never opened. */
  const afterClose = (openedAt: number) => {
    const stable = openedAt > 0 && Date.now() - openedAt >= STABLE_CONNECTION_MS;
    if (stable) {
      failures = 0;
      freshTokenTried = false;
    } else {
      failures += 1;
      // A refused handshake looks like any other failure to a browser: one fresh token per run of failures.
      if (openedAt === 0 && !freshTokenTried) {
        freshTokenNext = true;
        freshTokenTried = true;
      }
    }
    setStatus(failures >= DELAYED_AFTER_FAILED_ATTEMPTS || status === 'delayed' ? 'delayed' : 'connecting');
    startDelayedClock();
    scheduleRetry();
  };

  const connect = async () => {
    retryTimer = undefined;
    const thisAttempt = ++attempt;
    const forceRefresh = freshTokenNext;
    freshTokenNext = false;
    let token: string | null = null;
    try {
      token = await getToken({ forceRefresh });
    } catch (error) {
      console.warn('Could not get an ID token for live updates', error);
    }
    if (stopped || thisAttempt !== attempt) return;
    if (!token) return afterClose(0);

    let ws: WebSocket;
    try {
      ws = new WebSocket(socketUrl(token));
    } catch (error) {
      console.warn('Could not open the live-updates socket', error);
      return afterClose(0);
    }
    socket = ws;
    let openedAt = 0;
    let pingTimer: ReturnType<typeof setInterval> | undefined;
    const connectTimer = setTimeout(() => ws.close(), CONNECT_TIMEOUT_MS);

    ws.addEventListener('open', () => {
      if (socket !== ws) return;
      clearTimeout(connectTimer);
      openedAt = Date.now();
      stopDelayedClock();
      setStatus('live');
      pingTimer = setInterval(() => {
        if (ws.readyState === WebSocket.OPEN) ws.send(LIVE_PING);
      }, LIVE_PING_INTERVAL_MS);
      onConnected();
    });
    ws.addEventListener('message', (event) => {
      if (socket !== ws) return;
      const message = parseLiveMessage(event.data);
      if (message) onMessage(message);
    });
    // An error is always followed by a close, which is where a retry is planned.
    ws.addEventListener('close', () => {
      clearTimeout(connectTimer);
      clearInterval(pingTimer);
      if (socket !== ws) return;
      socket = null;
      afterClose(openedAt);
    });
  };

  /** Closes the socket and every timer, without giving up: `resume` starts again. */
  const suspend = () => {
    attempt += 1;
    clearTimeout(retryTimer);
    retryTimer = undefined;
    stopDelayedClock();
    const open = socket;
    socket = null;
    open?.close(1000, 'Tab closed');
  };

  const resume = () => {
    if (stopped || socket || retryTimer !== undefined) return;
    failures = 0;
    freshTokenTried = false;
    setStatus('connecting');
    startDelayedClock();
    void connect();
  };

  // A page put in the back-forward cache must not keep a socket; it opens another when shown again.
  const onPageHide = () => suspend();
  const onPageShow = (event: PageTransitionEvent) => {
    if (event.persisted) resume();
  };
  // Back online: try now rather than after the rest of the backoff.
  const onOnline = () => {
    if (stopped || socket || retryTimer === undefined) return;
    clearTimeout(retryTimer);
    void connect();
  };
  window.addEventListener('pagehide', onPageHide);
  window.addEventListener('pageshow', onPageShow);
  window.addEventListener('online', onOnline);

  startDelayedClock();
  void connect();

  return {
    get status() {
      return status;
    },
    close: () => {
      if (stopped) return;
      stopped = true;
      window.removeEventListener('pagehide', onPageHide);
      window.removeEventListener('pageshow', onPageShow);
      window.removeEventListener('online', onOnline);
      suspend();
    },
  };
}
