import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  batchRevalidations,
  everythingShown,
  type KeyMatcher,
  keysChangedBy,
  POOL_READ_SPREAD_MS,
  readSpreadMs,
} from './live-revalidation';

const uid = 'uid-1';

describe('Keys a live message makes stale', () => {
  it("matches one order's keys by the whole id, not an id it starts with", () => {
    const matches = keysChangedBy({ type: 'images.ready', orderId: 'order-1' })!;
    expect(matches(['/api/orders/order-1/images', uid])).toBe(true);
    expect(matches(['/api/orders/order-10/images', uid])).toBe(false);
    expect(matches(['/api/orders/order-1', uid])).toBe(false);
  });

  it('matches an id the way the keys encode it', () => {
    const matches = keysChangedBy({ type: 'order.changed', orderId: 'a b/c' })!;
    expect(matches(['/api/orders/a%20b%2Fc', uid])).toBe(true);
    expect(matches(['/api/orders/a%20b%2Fc/share-links', uid])).toBe(true);
  });

  it('matches a list whatever its page, filter or sort', () => {
    const matches = keysChangedBy({ type: 'pool.changed' })!;
    expect(matches(['/api/orders/available?page=3&limit=10&filter=all&sort=oldest&cursor=x', uid])).toBe(true);
    expect(matches(['/api/orders/my-assignments', uid])).toBe(false);
  });

  it("never reads a payment page's order again, not even after a reconnect", () => {
    expect(keysChangedBy({ type: 'order.changed', orderId: 'o1' })!(['/api/orders/o1/payment', uid])).toBe(false);
    expect(everythingShown(['/api/orders/o1/payment', uid])).toBe(false);
    expect(everythingShown(['/api/orders/o1', uid])).toBe(true);
    expect(everythingShown('/api/orders/job-types')).toBe(true);
    expect(everythingShown(['my-feedback', uid])).toBe(true);
  });

  it('names no key for a zip: the button waiting for it hears the message itself', () => {
    expect(keysChangedBy({ type: 'zip.ready', orderId: 'o1', kind: 'mls' })).toBeNull();
  });
});

describe('Batching revalidations', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A tab whose visibility the test sets. */
  class Tab extends EventTarget {
    visibilityState: DocumentVisibilityState = 'visible';
    show() {
      this.visibilityState = 'visible';
      this.dispatchEvent(new Event('visibilitychange'));
    }
    hide() {
      this.visibilityState = 'hidden';
      this.dispatchEvent(new Event('visibilitychange'));
    }
  }

  const recorder = (random = () => 0.5) => {
    const calls: KeyMatcher[] = [];
    const tab = new Tab();
    const batch = batchRevalidations((matcher) => calls.push(matcher), { coolDownMs: 1_000, random, page: tab });
    return { calls, batch, tab };
  };
  const is =
    (wanted: string): KeyMatcher =>
    (key) =>
      key === wanted;

  it('revalidates at once when nothing was revalidated lately, with the messages of the same moment together', async () => {
    const { calls, batch } = recorder();
    batch.add(is('a'));
    batch.add(is('b'));
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
    expect([calls[0]!('a'), calls[0]!('b'), calls[0]!('c')]).toEqual([true, true, false]);
  });

  it('holds what comes during the cool-down and revalidates it once when it ends', async () => {
    const { calls, batch } = recorder();
    batch.add(is('a'));
    await vi.advanceTimersByTimeAsync(0);
    batch.add(is('b'));
    await vi.advanceTimersByTimeAsync(500);
    batch.add(is('c'));
    await vi.advanceTimersByTimeAsync(499);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    expect([calls[1]!('a'), calls[1]!('b'), calls[1]!('c')]).toEqual([false, true, true]);
  });

  it("spreads a pool push's read over a random part of its window", async () => {
    expect(readSpreadMs({ type: 'pool.changed' })).toBe(POOL_READ_SPREAD_MS);
    expect(readSpreadMs({ type: 'order.changed', orderId: 'o1' })).toBe(0);
    const { calls, batch } = recorder(() => 0.25);
    batch.add(is('pool'), POOL_READ_SPREAD_MS);
    await vi.advanceTimersByTimeAsync(POOL_READ_SPREAD_MS / 4 - 1);
    expect(calls).toHaveLength(0);
    // The read itself goes after the task that let the message in.
    await vi.advanceTimersByTimeAsync(2);
    expect(calls).toHaveLength(1);
  });

  it('holds the reads of a hidden tab until it is shown again, then reads once', async () => {
    const { calls, batch, tab } = recorder();
    tab.hide();
    batch.add(is('a'));
    batch.add(is('b'), POOL_READ_SPREAD_MS);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toHaveLength(0);
    tab.show();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
    expect([calls[0]!('a'), calls[0]!('b')]).toEqual([true, true]);
  });

  it('holds a read planned just before the tab was hidden', async () => {
    const { calls, batch, tab } = recorder();
    batch.add(is('a'));
    tab.hide();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(calls).toHaveLength(0);
    tab.show();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
  });

  it('drops what is pending when stopped', async () => {
    const { calls, batch, tab } = recorder();
    batch.add(is('a'));
    batch.add(is('b'), POOL_READ_SPREAD_MS);
    batch.stop();
    await vi.advanceTimersByTimeAsync(2_000);
    tab.hide();
    tab.show();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(calls).toHaveLength(0);
  });
});
