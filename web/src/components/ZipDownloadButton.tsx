import { Button, type ButtonProps, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../lib/api-client';
import {
  type DownloadProgress,
  DownloadTimeoutError,
  type ReadyDownload,
  startBrowserDownload,
  type WaitOptions,
} from '../lib/download-completed';

const preparingText = (progress: DownloadProgress | null) =>
  progress ? `Preparing your zip… ${progress.filesDone} of ${progress.fileCount} files` : 'Preparing your zip…';

/** The server's reason or the timeout's, after 'Download failed: '; the screen's own text when there is none. */
const failureText = (error: unknown, fallback: string) => {
  const reason =
    error instanceof DownloadTimeoutError ? error.message : error instanceof ApiError ? error.serverMessage : undefined;
  return reason ? `Download failed: ${reason}` : fallback;
};

export interface ZipDownloadButtonProps extends Pick<ButtonProps, 'size' | 'variant' | 'fullWidth' | 'disabled'> {
  label: string;
  /** Asks the server for the zip until it is ready, reporting progress (a `waitForReadyZip` call). */
  waitForZip: (options: WaitOptions) => Promise<ReadyDownload>;
  /** Saved under this name when the server names no file. */
  filename: string;
  successMessage: string;
  /** Shown when the download fails and neither the server nor the timeout says why. */
  failureMessage: string;
  /** Where the button and its progress line sit in their column. */
  align?: 'flex-start' | 'flex-end';
}

/**
 * Downloads a zip the server builds (an order's edited photos, its MLS-ready copies, its originals,
 * a shared gallery's): shows how far the build is while it waits, then lets the browser's download
 * manager fetch the zip from storage, so even a zip of several gigabytes never sits in the page's memory.
 */
export function ZipDownloadButton({
  label,
  waitForZip,
  filename,
  successMessage,
  failureMessage,
  align = 'flex-start',
  size = 'sm',
  variant = 'filled',
  fullWidth,
  disabled,
}: ZipDownloadButtonProps) {
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
      const ready = await waitForZip({ onProgress: setProgress, signal: controller.signal });
      startBrowserDownload(ready.url, ready.filename || filename);
      notifications.show({ color: 'green', message: successMessage });
    } catch (error) {
      if (controller.signal.aborted) return;
      notifications.show({ color: 'red', message: failureText(error, failureMessage) });
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
