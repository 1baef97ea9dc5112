import '@testing-library/jest-dom/vitest';
import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeEach, vi } from 'vitest';
import { fakeApi } from './fake-api';
import { fakeFirebase } from './fake-firebase-auth';
import { FakeWebSocket } from './fake-websocket';

// Uppy checks the connection 3 s after it is made, on a timer it never clears. A file that ends
// sooner has its environment torn down first, and the check then reads a `window` that is gone
// (an uncaught error that fails the run): such checks still pending when a file ends are cleared.
const uppyOnlineChecks = new Set<Parameters<typeof clearTimeout>[0]>();
const setTimeoutOfNode = globalThis.setTimeout;
globalThis.setTimeout = ((handler: TimerHandler, timeout?: number, ...args: unknown[]) => {
  const timer = setTimeoutOfNode(handler as () => void, timeout, ...args);
  if (typeof handler === 'function' && handler.name === 'bound updateOnlineStatus') uppyOnlineChecks.add(timer);
  return timer;
}) as typeof setTimeout;
afterAll(() => {
  for (const timer of uppyOnlineChecks) clearTimeout(timer);
});

// Files share a worker's module cache (isolate: false in vitest.config.ts): the libraries load once
// per worker, not once per file. Our own modules start afresh in each file, as they would in a new
// page: their state (the signed-in user, caches) and the page's storage and address are cleared.
afterAll(async () => {
  // A closing modal's transition (Mantine's, up to a few hundred ms) still pending when a file ends
  // would run against a page that is gone: let it finish first.
  await new Promise((resolve) => setTimeoutOfNode(resolve, 300));
  vi.resetModules();
  localStorage.clear();
  sessionStorage.clear();
  window.history.replaceState(null, '', '/');
});

// `findBy…` waits up to 5 s rather than 1 s: on a busy two-core machine a lazy page can take longer to render.
configure({ asyncUtilTimeout: 5000 });

// Firebase is faked at the SDK boundary in every component test; our own modules run for real.
vi.mock('firebase/app', () => ({ initializeApp: () => ({}) }));
vi.mock('firebase/auth', async () => (await import('./fake-firebase-auth')).firebaseAuthModule);

beforeEach(() => {
  fakeFirebase.reset();
  fakeApi.reset();
  vi.stubGlobal('fetch', fakeApi.fetch);
  // The signed-in pages open a live-updates socket; it stays connecting unless a test answers it.
  FakeWebSocket.made.length = 0;
  vi.stubGlobal('WebSocket', FakeWebSocket);
});

afterEach(() => {
  cleanup();
  notifications.clean();
  vi.unstubAllGlobals();
});
