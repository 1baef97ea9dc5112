import type { SWRConfiguration } from 'swr';
import { ApiError, apiGet } from './api-client';

const FIVE_MINUTES_MS = 5 * 60 * 1000;

/** A key is a URL, or [URL, ...scope] where the scope (e.g. the user id) keeps one user's data from another's. */
const fetchKey = (key: string | readonly [string, ...unknown[]]) => apiGet(typeof key === 'string' ? key : key[0]);

/** Data queries retry once, never refetch on window focus, and stay fresh for five minutes. */
export const swrConfig: SWRConfiguration = {
  fetcher: fetchKey,
  errorRetryCount: 1,
  // Asking again will not change a client error (bad request, no access, not found).
  shouldRetryOnError: (error: unknown) => !(error instanceof ApiError && error.status < 500),
  revalidateOnFocus: false,
  dedupingInterval: FIVE_MINUTES_MS,
  focusThrottleInterval: FIVE_MINUTES_MS,
};
