import { Box, Paper, Text } from '@mantine/core';
import { IconClockPause } from '@tabler/icons-react';
import { useLiveStatus } from '../lib/live-updates';

export const LIVE_UPDATES_DELAYED_TEXT = 'Live updates are delayed. Reload to see the latest.';

/**
 * Says, in words, that the live socket cannot connect: thumbnails, MLS copies and zips go back to
 * checking every few seconds, but lists and statuses change only on a reload. It floats over the
 * bottom of the page, so showing it moves nothing on the page; the status region is always there
 * (and empty while connecting or live), so screen readers announce the words when they appear.
 */
export function LiveUpdatesNotice() {
  const status = useLiveStatus();
  const delayed = status === 'delayed';
  return (
    <Box
      role="status"
      // For the browser tests, which wait for the socket to be live before they change anything.
      data-live-status={status}
      pos="fixed"
      bottom="calc(12px + env(safe-area-inset-bottom, 0px))"
      right={0}
      px="sm"
      style={{
        left: 'var(--app-shell-navbar-offset, 0px)',
        zIndex: 150,
        display: 'flex',
        justifyContent: 'center',
        pointerEvents: 'none',
      }}
    >
      {delayed && (
        <Paper
          withBorder
          shadow="sm"
          radius="xl"
          px="md"
          py={6}
          bg="yellow.0"
          maw="100%"
          style={{ pointerEvents: 'auto', display: 'flex', alignItems: 'center', gap: 8 }}
        >
          <IconClockPause size={16} stroke={1.8} aria-hidden="true" style={{ flexShrink: 0 }} />
          <Text fz="sm" c="gray.9" style={{ minWidth: 0 }}>
            {LIVE_UPDATES_DELAYED_TEXT}
          </Text>
        </Paper>
      )}
    </Box>
  );
}

/** Room after the page's end while the notice shows, so it never hides the last lines; nothing above moves. */
export function LiveUpdatesNoticeRoom() {
  return useLiveStatus() === 'delayed' ? <Box h={64} aria-hidden="true" /> : null;
}
