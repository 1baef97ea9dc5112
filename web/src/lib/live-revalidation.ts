import type { LiveMessage } from '@marketplace/events/live-updates';

/**
 * Which cached reads a live message makes stale. A message names what changed, never the data, so
 * the tab reads those keys again through the API. A key is a URL or [URL, uid] (swr-config.ts).
 * The paths are the features' own (their api/ hooks); lib cannot import features, so they are
 * listed here and the tests check them against the features' URL builders.
 */
export type KeyMatcher = (key: unknown) => boolean;

/** The path of a key's URL, without its query. */
const pathOf = (key: unknown): string | undefined => {
  const url = typeof key === 'string' ? key : Array.isArray(key) && typeof key[0] === 'string' ? key[0] : undefined;
  return url?.split('?')[0];
};

const orderPath = (orderId: string) => `/api/orders/${encodeURIComponent(orderId)}`;

/**
 * The pay-later page reads its order's payment only on purpose: read again while the payment it
 * started is being confirmed, it would answer 'cannot be paid' (the order is paid) under the form.
 */
const isPaymentPath = (path: string) => /^\/api\/orders\/[^/]+\/payment$/.test(path);

/** Every read of one order: the order, its files, listing order, share links, activity log. */
const isOrderPath = (path: string, orderId: string) =>
  (path === orderPath(orderId) || path.startsWith(`${orderPath(orderId)}/`)) && !isPaymentPath(path);

/** Lists, dashboards and counts that show orders, whoever is signed in. */
const ORDER_LIST_PATHS = new Set([
  // The photographer's order list and dashboard (recent orders, totals).
  '/api/orders/my',
  '/api/stats/photographer',
  // The editor's My Assignments and totals; their available orders include those assigned to them.
  '/api/orders/my-assignments',
  '/api/stats/editor',
  '/api/orders/available',
  // The admin's order list, and each editor's open and finished orders, ratings and payouts owed.
  '/api/orders/admin/all',
  '/api/admin/editors',
]);
const isEditorStatsPath = (path: string) => /^\/api\/admin\/editors\/[^/]+\/stats$/.test(path);

const AVAILABLE_ORDERS_PATH = '/api/orders/available';

const byPath =
  (test: (path: string) => boolean): KeyMatcher =>
  (key) => {
    const path = pathOf(key);
    return path !== undefined && test(path);
  };

/** The keys a message makes stale, or null when it names none (a zip is waited for by its button, not read by a key). */
export const keysChangedBy = (message: LiveMessage): KeyMatcher | null => {
  switch (message.type) {
    case 'order.changed':
      return byPath(
        (path) => isOrderPath(path, message.orderId) || ORDER_LIST_PATHS.has(path) || isEditorStatsPath(path),
      );
    case 'pool.changed':
      return byPath((path) => path === AVAILABLE_ORDERS_PATH);
    case 'images.ready':
      // The listing order shows the same thumbnails.
      return byPath(
        (path) => path === `${orderPath(message.orderId)}/images` || path === `${orderPath(message.orderId)}/sequence`,
      );
    case 'copies.ready':
      return byPath((path) => path === `${orderPath(message.orderId)}/sequence`);
    case 'zip.ready':
      return null;
  }
};

/** After a (re)connect, everything: whatever changed while no socket was open was not pushed. */
export const everythingShown: KeyMatcher = byPath((path) => !isPaymentPath(path));

/** Right after a revalidation, further ones wait this long and go together, so a burst costs one read a key. */
export const REVALIDATION_COOL_DOWN_MS = 1_000;

/**
 * A pool push reaches every connected editor at once: each tab reads the pool after a random part
 * of this, so the reads of one push are spread over it rather than landing on the pool's shards in
 * the same instant (docs/scale.md). Half a second: the push worker already tells the pool at most
 * once a second, and an editor must see a claimed order leave their list within 2 s of the claim.
 */
export const POOL_READ_SPREAD_MS = 500;

/** How long a message's reads may be spread: the pool's, which every editor hears; others at once. */
export const readSpreadMs = (message: LiveMessage) => (message.type === 'pool.changed' ? POOL_READ_SPREAD_MS : 0);

export interface BatchOptions {
  coolDownMs?: number;
  random?: () => number;
  /** Whose visibility holds the reads: a hidden tab reads what it missed when it is shown again. */
  page?: Pick<Document, 'visibilityState' | 'addEventListener' | 'removeEventListener'>;
}

/**
 * Collects the matchers of the messages that arrive together and revalidates once for all of them:
 * at once (after the current task) when nothing was revalidated lately, else when the cool-down
 * ends; never while the tab is hidden (then when it is shown). A matcher added with a spread joins
 * after a random part of it.
 */
export function batchRevalidations(
  revalidate: (matcher: KeyMatcher) => void,
  { coolDownMs = REVALIDATION_COOL_DOWN_MS, random = Math.random, page = document }: BatchOptions = {},
) {
  const pending: KeyMatcher[] = [];
  const spreading = new Set<ReturnType<typeof setTimeout>>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let coolUntil = 0;
  const hidden = () => page.visibilityState === 'hidden';
  const flush = () => {
    timer = undefined;
    if (hidden()) return;
    const matchers = pending.splice(0);
    if (!matchers.length) return;
    coolUntil = Date.now() + coolDownMs;
    revalidate((key) => matchers.some((matches) => matches(key)));
  };
  const schedule = () => {
    if (!pending.length || timer !== undefined || hidden()) return;
    timer = setTimeout(flush, Math.max(0, coolUntil - Date.now()));
  };
  page.addEventListener('visibilitychange', schedule);
  return {
    add(matcher: KeyMatcher, spreadMs = 0) {
      if (spreadMs <= 0) {
        pending.push(matcher);
        return schedule();
      }
      const joining = setTimeout(() => {
        spreading.delete(joining);
        pending.push(matcher);
        schedule();
      }, random() * spreadMs);
      spreading.add(joining);
    },
    stop() {
      clearTimeout(timer);
      timer = undefined;
      for (const joining of spreading) clearTimeout(joining);
      spreading.clear();
      pending.length = 0;
      page.removeEventListener('visibilitychange', schedule);
    },
  };
}
