import { Button, type ButtonProps, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { editedZipFilename } from '@marketplace/events/orders';
import { IconDownload } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../lib/api-client';
import {
  type DownloadProgress,
  DownloadTimeoutError,
  startBrowserDownload,
  waitForCompletedZip,
} from '../lib/download-completed';

const DOWNLOAD_SUCCESS = 'Completed photos downloaded successfully!';
const DOWNLOAD_FAILURE = 'Failed to download photos';

const preparingText = (progress: DownloadProgress | null) =>
  progress ? `Preparing your zip… ${progress.filesDone} of ${progress.fileCount} files` : 'Preparing your zip…';

const failureText = (error: unknown) => {
  if (error instanceof DownloadTimeoutError) return `Download failed: ${error.message}`;
  if (error instanceof ApiError && error.serverMessage) return `Download failed: ${error.serverMessage}`;
  return DOWNLOAD_FAILURE;
};

interface DownloadEditedPhotosButtonProps extends Pick<ButtonProps, 'size' | 'variant' | 'fullWidth'> {
  order: { id: string; name: string | null; orderNumber: number };
  label?: string;
}

/**
 * Downloads a completed order's edited photos: waits while the server builds the zip, showing how
 * far along it is, then lets the browser download it straight from storage.
 */
export function DownloadEditedPhotosButton({
  order,
  label = 'Download',
  size = 'sm',
  variant = 'filled',
  fullWidth,
}: DownloadEditedPhotosButtonProps) {
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<DownloadProgress | null>(null);
  const leavePage = useRef<AbortController | null>(null);

  // Leaving the page stops the polling; the zip keeps building on the server for next time.
  useEffect(() => () => leavePage.current?.abort(), []);

  const download = async () => {
    const controller = new AbortController();
    leavePage.current = controller;
    setBusy(true);
    try {
      const ready = await waitForCompletedZip(order.id, { onProgress: setProgress, signal: controller.signal });
      startBrowserDownload(ready.url, ready.filename || editedZipFilename(order));
      notifications.show({ color: 'green', message: DOWNLOAD_SUCCESS });
    } catch (error) {
      if (controller.signal.aborted) return;
      notifications.show({ color: 'red', message: failureText(error) });
    } finally {
      if (!controller.signal.aborted) {
        setBusy(false);
        setProgress(null);
      }
    }
  };

  return (
    <Stack gap={4} align={fullWidth ? 'stretch' : 'flex-start'}>
      <Button
        size={size}
        variant={variant}
        fullWidth={fullWidth}
        loading={busy}
        onClick={download}
        leftSection={<IconDownload size={16} aria-hidden="true" />}
      >
        {label}
      </Button>
      <Text role="status" fz="xs" c="gray.7" aria-live="polite">
        {busy ? preparingText(progress) : ''}
      </Text>
    </Stack>
  );
}
