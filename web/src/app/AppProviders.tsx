import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './global.css';
import { MantineProvider } from '@mantine/core';
import { useNotifications } from '@mantine/notifications';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { SWRConfig } from 'swr';
import { AuthProvider } from '../lib/auth-context';
import { swrConfig } from '../lib/swr-config';
import { theme } from './theme';

const TOAST_DURATION_MS = 4000;

const Notifications = lazy(() => import('@mantine/notifications').then((m) => ({ default: m.Notifications })));

/**
 * The toasts' container (with its transitions and scroll-lock class names, about 20 KB) is loaded
 * when the first toast is shown rather than with every page; a toast shown before it has loaded
 * waits in the store and appears with it.
 */
function ToastsWhenNeeded() {
  const { notifications, queue } = useNotifications();
  const [needed, setNeeded] = useState(false);
  if (!needed && notifications.length + queue.length > 0) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Notifications position="top-right" autoClose={TOAST_DURATION_MS} zIndex={1000} />
    </Suspense>
  );
}

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <ToastsWhenNeeded />
      <SWRConfig value={swrConfig}>
        <AuthProvider>{children}</AuthProvider>
      </SWRConfig>
    </MantineProvider>
  );
}
