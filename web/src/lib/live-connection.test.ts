import { LIVE_PING, LIVE_PING_INTERVAL_MS } from '@marketplace/events/live-updates';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeWebSocket } from '../test/fake-websocket';
import {
  CONNECT_TIMEOUT_MS,
  DELAYED_AFTER_MS,
  type LiveConnectionOptions,
  type LiveStatus,
  liveSocketUrl,
  openLiveConnection,
  RECONNECT_BASE_DELAY_MS,
  RECONNECT_MAX_DELAY_MS,
  reconnectDelayMs,
  STABLE_CONNECTION_MS,
} from './live-connection';

const opened: { close: () => void }[] = [];

/** A connection with recording callbacks; `random` 1 (just under) makes every wait its full backoff. */
function aConnection(options: Partial<LiveConnectionOptions> = {}) {
  const statuses: LiveStatus[] = [];
  const messages: unknown[] = [];
  const tokenRequests: { forceRefresh: boolean }[] = [];
  let connects = 0;
  let tokenCount = 0;
  const connection = openLiveConnection({
    getToken: async (request) => {
      tokenRequests.push(request);
      tokenCount += 1;
      return `token-${tokenCount}`;
    },
    onMessage: (message) => messages.push(message),
    onConnected: () => {
      connects += 1;
    },
    onStatus: (status) => statuses.push(status),
    socketUrl: (token) => `ws://app.test/live?token=${token}`,
    random: () => 0.999,
    ...options,
  });
  opened.push(connection);
  return {
    connection,
    statuses,
    messages,
    tokenRequests,
    connects: () => connects,
    socket: () => {
      const socket = FakeWebSocket.latest();
      if (!socket) throw new Error('no socket was opened');
      return socket;
    },
  };
}

/** Lets the token promise settle and runs timers up to `ms` from now. */
const after = (ms = 0) => vi.advanceTimersByTimeAsync(ms);

describe('Live connection', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    for (const connection of opened.splice(0)) connection.close();
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('opens one socket on the site’s own origin with the ID token, and is live once it opens', async () => {
    const live = aConnection();
    await after();
    expect(FakeWebSocket.made).toHaveLength(1);
    expect(live.socket().token).toBe('token-1');
    expect(live.connection.status).toBe('connecting');
    live.socket().accept();
    expect(live.connection.status).toBe('live');
    expect(live.statuses).toEqual(['live']);
    expect(live.connects()).toBe(1);
    live.connection.close();
  });

  it('builds the socket URL from the page: wss on https, ws on http, the token in the query', () => {
    expect(liveSocketUrl('a.b/c', { protocol: 'https:', host: 'photos.example.com' })).toBe(
      'wss://photos.example.com/live?token=a.b%2Fc',
    );
    expect(liveSocketUrl('t', { protocol: 'http:', host: '127.0.0.1:4273' })).toBe('ws://127.0.0.1:4273/live?token=t');
  });

  it('passes on each message it knows and ignores anything else', async () => {
    const live = aConnection();
    await after();
    live.socket().accept();
    live.socket().receive({ type: 'order.changed', orderId: 'o1', status: 'completed' });
    live.socket().receive('not json');
    live.socket().receive({ type: 'order.deleted', orderId: 'o1' });
    live.socket().receive({ type: 'images.ready' });
    live.socket().receive({ type: 'order.changed', orderId: 'o1', status: 'lost' });
    live.socket().receive({ message: 'Forbidden', connectionId: 'c', requestId: 'r' });
    live.socket().receive({ type: 'pool.changed' });
    live.socket().receive({ type: 'zip.ready', orderId: 'o2', kind: 'mls' });
    expect(live.messages).toEqual([
      { type: 'order.changed', orderId: 'o1', status: 'completed' },
      { type: 'pool.changed' },
      { type: 'zip.ready', orderId: 'o2', kind: 'mls' },
    ]);
    live.connection.close();
  });

  it('pings on the interval the gateway’s idle timeout asks for', async () => {
    const live = aConnection();
    await after();
    live.socket().accept();
    await after(LIVE_PING_INTERVAL_MS - 1);
    expect(live.socket().sent).toEqual([]);
    await after(1);
    expect(live.socket().sent).toEqual([LIVE_PING]);
    await after(LIVE_PING_INTERVAL_MS);
    expect(live.socket().sent).toEqual([LIVE_PING, LIVE_PING]);
    live.connection.close();
  });

  it('waits a random time up to a doubling limit before each retry, never more than the cap', () => {
    expect(reconnectDelayMs(0, () => 0)).toBe(0);
    expect(reconnectDelayMs(0, () => 0.999)).toBeLessThan(RECONNECT_BASE_DELAY_MS);
    expect(reconnectDelayMs(1, () => 0.5)).toBe(RECONNECT_BASE_DELAY_MS);
    expect(reconnectDelayMs(3, () => 0.5)).toBe(4 * RECONNECT_BASE_DELAY_MS);
    for (const failures of [5, 10, 50]) {
      expect(reconnectDelayMs(failures, () => 0.999)).toBeLessThan(RECONNECT_MAX_DELAY_MS);
      expect(reconnectDelayMs(failures, () => 0.999)).toBeGreaterThan(0.99 * RECONNECT_MAX_DELAY_MS);
    }
    const spread = Array.from({ length: 200 }, () => reconnectDelayMs(4));
    expect(Math.min(...spread)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...spread)).toBeLessThanOrEqual(16 * RECONNECT_BASE_DELAY_MS);
    // Full jitter spreads the tabs out: not all at the limit.
    expect(new Set(spread.map(Math.round)).size).toBeGreaterThan(100);
  });

  it('reconnects after a socket that had been open a while closes, and says so to revalidate everything', async () => {
    const live = aConnection();
    await after();
    live.socket().accept();
    await after(STABLE_CONNECTION_MS);
    live.socket().drop(1001);
    await after();
    expect(live.connection.status).toBe('connecting');
    // The first retry waits less than the base delay.
    await after(RECONNECT_BASE_DELAY_MS);
    expect(FakeWebSocket.made).toHaveLength(2);
    live.socket().accept();
    expect(live.connection.status).toBe('live');
    expect(live.connects()).toBe(2);
    expect(live.statuses).toEqual(['live', 'connecting', 'live']);
    live.connection.close();
  });

  it('backs off longer after each failure in a row, with a fresh token once', async () => {
    const live = aConnection();
    await after();
    for (let failure = 1; failure <= 7; failure++) {
      live.socket().refuse();
      const before = FakeWebSocket.made.length;
      // random is 0.999: each wait is just under its limit, which doubles up to the cap.
      const wait = 0.999 * Math.min(RECONNECT_MAX_DELAY_MS, RECONNECT_BASE_DELAY_MS * 2 ** failure);
      await after(wait - 5);
      expect(FakeWebSocket.made).toHaveLength(before);
      await after(10);
      expect(FakeWebSocket.made).toHaveLength(before + 1);
    }
    expect(live.tokenRequests.map((request) => request.forceRefresh)).toEqual([
      false,
      true,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    live.connection.close();
  });

  it('counts a socket the server drops right after opening as a failure, so it does not reconnect at once', async () => {
    const live = aConnection();
    await after();
    live.socket().accept();
    live.socket().drop(1008);
    await after(RECONNECT_BASE_DELAY_MS);
    expect(FakeWebSocket.made).toHaveLength(1);
    await after(RECONNECT_BASE_DELAY_MS);
    expect(FakeWebSocket.made).toHaveLength(2);
    live.connection.close();
  });

  it('stays connecting through one failed attempt, and is delayed after the second', async () => {
    const live = aConnection({ random: () => 0 });
    await after();
    live.socket().refuse();
    await after();
    expect(live.connection.status).toBe('connecting');
    live.socket().refuse();
    await after();
    expect(live.connection.status).toBe('delayed');
    live.socket().accept();
    expect(live.connection.status).toBe('live');
    expect(live.statuses).toEqual(['delayed', 'live']);
    live.connection.close();
  });

  it('is delayed when no socket has opened for a while, even without a failure', async () => {
    const live = aConnection();
    await after(DELAYED_AFTER_MS - 1);
    expect(live.connection.status).toBe('connecting');
    await after(1);
    expect(live.connection.status).toBe('delayed');
    live.connection.close();
  });

  it('gives up a handshake that hangs and tries again', async () => {
    const live = aConnection({ random: () => 0 });
    await after();
    await after(CONNECT_TIMEOUT_MS + 1);
    expect(FakeWebSocket.made[0]?.readyState).toBe(FakeWebSocket.CLOSED);
    expect(FakeWebSocket.made).toHaveLength(2);
    live.connection.close();
  });

  it('closes its socket for good when closed (sign-out): no retry, no ping, no status after', async () => {
    const live = aConnection();
    await after();
    live.socket().accept();
    live.connection.close();
    await after();
    expect(live.socket().closedWith?.code).toBe(1000);
    await after(RECONNECT_MAX_DELAY_MS + LIVE_PING_INTERVAL_MS);
    expect(FakeWebSocket.made).toHaveLength(1);
    expect(live.socket().sent).toEqual([]);
    expect(live.statuses).toEqual(['live']);
  });

  it('does not open a socket when closed while its token was on its way', async () => {
    const live = aConnection();
    live.connection.close();
    await after(RECONNECT_MAX_DELAY_MS);
    expect(FakeWebSocket.made).toHaveLength(0);
  });

  it('closes the socket when the tab is left, and opens another if the page is shown again from the cache', async () => {
    const live = aConnection();
    await after();
    live.socket().accept();
    window.dispatchEvent(new Event('pagehide'));
    await after();
    expect(live.socket().closedWith?.code).toBe(1000);
    await after(RECONNECT_MAX_DELAY_MS);
    expect(FakeWebSocket.made).toHaveLength(1);
    window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: true }));
    await after();
    expect(FakeWebSocket.made).toHaveLength(2);
    live.socket().accept();
    expect(live.connects()).toBe(2);
    live.connection.close();
  });

  it('tries again at once when the browser comes back online', async () => {
    const live = aConnection();
    await after();
    live.socket().refuse();
    await after();
    expect(FakeWebSocket.made).toHaveLength(1);
    window.dispatchEvent(new Event('online'));
    await after();
    expect(FakeWebSocket.made).toHaveLength(2);
    live.connection.close();
  });

  it('retries when no token can be had', async () => {
    let calls = 0;
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const live = aConnection({
      random: () => 0,
      getToken: async () => {
        calls += 1;
        if (calls === 1) throw new Error('token service unavailable');
        return 'token-2';
      },
    });
    await after();
    expect(FakeWebSocket.made).toHaveLength(1);
    expect(live.socket().token).toBe('token-2');
    live.connection.close();
  });
});
