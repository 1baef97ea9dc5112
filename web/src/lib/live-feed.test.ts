import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LIVE_ZIP_RECHECK_MS, LiveFeed, zipReadyChecks } from './live-feed';

const POLL_MS = 1_500;

/** Whether the wait has ended after the timers ran `ms` further. */
async function settledAfter(wait: Promise<void>, ms: number) {
  let settled = false;
  void wait.then(() => {
    settled = true;
  });
  await vi.advanceTimersByTimeAsync(ms);
  return settled;
}

describe('Pacing the checks of a zip being built', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const liveFeed = () => {
    const feed = new LiveFeed();
    feed.setStatus('live');
    return feed;
  };
  const checksOf = (feed: LiveFeed) => zipReadyChecks(feed, { orderId: 'o1', kind: 'edited', pollIntervalMs: POLL_MS });

  it('waits the poll interval while the socket is not live', async () => {
    const checks = checksOf(new LiveFeed());
    const wait = checks.next(new AbortController().signal);
    expect(await settledAfter(wait, POLL_MS - 1)).toBe(false);
    expect(await settledAfter(wait, 1)).toBe(true);
    checks.stop();
  });

  it("while live, waits for this zip's zip.ready, not another's", async () => {
    const feed = liveFeed();
    const checks = checksOf(feed);
    const wait = checks.next(new AbortController().signal);
    feed.publish({ type: 'zip.ready', orderId: 'o2', kind: 'edited' });
    feed.publish({ type: 'zip.ready', orderId: 'o1', kind: 'originals' });
    feed.publish({ type: 'order.changed', orderId: 'o1' });
    expect(await settledAfter(wait, POLL_MS * 3)).toBe(false);
    feed.publish({ type: 'zip.ready', orderId: 'o1', kind: 'edited' });
    expect(await settledAfter(wait, 0)).toBe(true);
    checks.stop();
  });

  it('counts a zip.ready that arrived while a check was under way', async () => {
    const feed = liveFeed();
    const checks = checksOf(feed);
    feed.publish({ type: 'zip.ready', orderId: 'o1', kind: 'edited' });
    expect(await settledAfter(checks.next(new AbortController().signal), 0)).toBe(true);
    // Heard once, used once.
    expect(await settledAfter(checks.next(new AbortController().signal), POLL_MS * 3)).toBe(false);
    checks.stop();
  });

  it('asks again after a while without news, in case the message was lost', async () => {
    const checks = checksOf(liveFeed());
    const wait = checks.next(new AbortController().signal);
    expect(await settledAfter(wait, LIVE_ZIP_RECHECK_MS - 1)).toBe(false);
    expect(await settledAfter(wait, 1)).toBe(true);
    checks.stop();
  });

  it('asks at once when the socket is lost, then polls', async () => {
    const feed = liveFeed();
    const checks = checksOf(feed);
    const wait = checks.next(new AbortController().signal);
    feed.setStatus('connecting');
    expect(await settledAfter(wait, 0)).toBe(true);
    const polled = checks.next(new AbortController().signal);
    expect(await settledAfter(polled, POLL_MS - 1)).toBe(false);
    expect(await settledAfter(polled, 1)).toBe(true);
    checks.stop();
  });

  it('stops waiting when the page that asked is left', async () => {
    const checks = checksOf(liveFeed());
    const leave = new AbortController();
    const wait = checks.next(leave.signal);
    leave.abort(new Error('left'));
    await expect(wait).rejects.toThrow('left');
    checks.stop();
  });

  it('stops listening once the wait is over', async () => {
    const feed = liveFeed();
    const checks = checksOf(feed);
    checks.stop();
    feed.publish({ type: 'zip.ready', orderId: 'o1', kind: 'edited' });
    expect(await settledAfter(checks.next(new AbortController().signal), 0)).toBe(false);
  });
});
