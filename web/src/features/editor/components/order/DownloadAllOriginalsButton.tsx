import { Button, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { originalsZipFilename } from '@marketplace/events/editor-orders';
import { IconDownload } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../../lib/api-client';
import { type DownloadProgress, startBrowserDownload } from '../../../../lib/download-completed';
import { waitForOriginalsZip } from '../../api/use-editor-order';

const DOWNLOAD_SUCCESS = 'Images downloaded successfully!';
const DOWNLOAD_FAILURE = 'Failed to download images';

const failureText = (error: unknown) => {
  const reason = error instanceof ApiError ? error.serverMessage : error instanceof Error ? error.message : undefined;
  return `Download failed: ${reason || DOWNLOAD_FAILURE}`;
};

const preparingText = (progress: DownloadProgress | null) =>
  progress ? `Preparing your zip… ${progress.filesDone} of ${progress.fileCount} files` : 'Preparing your zip…';

/** 'Download All': the originals as one zip, built on the server, then fetched by the browser's download manager. */
export function DownloadAllOriginalsButton({
  order,
  disabled,
}: {
  order: { id: string; name: string | null; orderNumber: number };
  disabled?: boolean;
}) {
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
      const ready = await waitForOriginalsZip(order.id, { onProgress: setProgress, signal: controller.signal });
      startBrowserDownload(ready.url, ready.filename || originalsZipFilename(order));
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
    <Stack gap={4} align="flex-end">
      <Button
        size="sm"
        loading={busy}
        disabled={disabled}
        onClick={download}
        leftSection={<IconDownload size={16} aria-hidden="true" />}
      >
        Download All
      </Button>
      <Text role="status" fz="xs" c="gray.7" aria-live="polite">
        {busy ? preparingText(progress) : ''}
      </Text>
    </Stack>
  );
}
