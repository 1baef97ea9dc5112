import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './global.css';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';
import { SWRConfig } from 'swr';
import { AuthProvider } from '../lib/auth-context';
import { swrConfig } from '../lib/swr-config';
import { theme } from './theme';

const TOAST_DURATION_MS = 4000;

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <Notifications position="top-right" autoClose={TOAST_DURATION_MS} zIndex={1000} />
      <SWRConfig value={swrConfig}>
        <AuthProvider>{children}</AuthProvider>
      </SWRConfig>
    </MantineProvider>
  );
}
