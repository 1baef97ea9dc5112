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
  waitForReadyZip,
} from '../lib/download-completed';

/** One of an order's zips: the route under /api/orders/{id}/ that builds it, its name, and what the toasts say. */
export interface OrderZip {
  /** e.g. 'download-completed'; the route answers ready with a link, or building with progress. */
  route: string;
  /** Saved under this name when the server names no file. */
  filename: string;
  successMessage: string;
  /** Shown when the download fails and neither the server nor the timeout says why. */
  failureMessage: string;
}

/** The photographer's edited photos at full resolution (the dashboard and the order page offer it). */
export const editedPhotosZip = (order: { name: string | null; orderNumber: number }): OrderZip => ({
  route: 'download-completed',
  filename: editedZipFilename(order),
  successMessage: 'Completed photos downloaded successfully!',
  failureMessage: 'Failed to download photos',
});

const preparingText = (progress: DownloadProgress | null) =>
  progress ? `Preparing your zip… ${progress.filesDone} of ${progress.fileCount} files` : 'Preparing your zip…';

/** The server's reason or the timeout's, after 'Download failed: '; the screen's own text when there is none. */
const failureText = (error: unknown, fallback: string) => {
  const reason =
    error instanceof DownloadTimeoutError ? error.message : error instanceof ApiError ? error.serverMessage : undefined;
  return reason ? `Download failed: ${reason}` : fallback;
};

interface OrderZipDownloadButtonProps extends Pick<ButtonProps, 'size' | 'variant' | 'fullWidth' | 'disabled'> {
  orderId: string;
  zip: OrderZip;
  label: string;
  /** Where the button and its progress line sit in their column. */
  align?: 'flex-start' | 'flex-end';
}

/**
 * Downloads one of an order's zips (edited photos, MLS-ready copies, originals): shows how far the
 * server's build is while it waits, then lets the browser's download manager fetch the zip from
 * storage, so even a zip of several gigabytes never sits in the page's memory.
 */
export function OrderZipDownloadButton({
  orderId,
  zip,
  label,
  align = 'flex-start',
  size = 'sm',
  variant = 'filled',
  fullWidth,
  disabled,
}: OrderZipDownloadButtonProps) {
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
      const ready = await waitForReadyZip(`/api/orders/${encodeURIComponent(orderId)}/${zip.route}`, {
        onProgress: setProgress,
        signal: controller.signal,
      });
      startBrowserDownload(ready.url, ready.filename || zip.filename);
      notifications.show({ color: 'green', message: zip.successMessage });
    } catch (error) {
      if (controller.signal.aborted) return;
      notifications.show({ color: 'red', message: failureText(error, zip.failureMessage) });
    } finally {
      if (!controller.signal.aborted) {
        setBusy(false);
        setProgress(null);
      }
    }
  };

  return (
    <Stack gap={4} align={fullWidth ? 'stretch' : align}>
      <Button
        size={size}
        variant={variant}
        fullWidth={fullWidth}
        loading={busy}
        disabled={disabled}
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
