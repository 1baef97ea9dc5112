import { notifications } from '@mantine/notifications';
import { editorUploadMessages } from '@marketplace/events/editor-orders';
import { editedPrefix } from '@marketplace/events/orders';
import { useCallback, useEffect, useRef, useState } from 'react';
import { apiErrorText } from '../../../lib/api-client';
import {
  createDirectUppy,
  type DirectUppy,
  defaultUploadTuning,
  uploadContentType,
  uploadPercentOf,
} from '../../../lib/uploads/direct-s3-upload';
import { uploadRegistrar } from '../../../lib/uploads/upload-registrar';
import { editorOrderUrls } from './use-editor-order';

export type EditedUploadStatus = 'uploading' | 'saving' | 'done' | 'failed';

export interface EditedUploadRow {
  id: string;
  filename: string;
  size: number;
  percent: number;
  status: EditedUploadStatus;
  error?: string;
}

/** The server's message when it gave one (a refused sign or complete call), else the spec's fallback. */
const failureText = (error: unknown) => {
  const cause = error instanceof Error && error.cause ? error.cause : error;
  return apiErrorText(cause, apiErrorText(error, editorUploadMessages.failed));
};

/**
 * Uploads the editor's chosen files: each file is its own upload straight to S3, recorded with the
 * API as soon as S3 has it (with others that finished meanwhile), with a toast per file and a
 * summary once the batch has settled.
 */
export function useEditedUploads(orderId: string, onUploaded: () => void) {
  const [rows, setRows] = useState<EditedUploadRow[]>([]);
  const [busy, setBusy] = useState(false);
  const uppyRef = useRef<DirectUppy | null>(null);
  const onUploadedRef = useRef(onUploaded);
  onUploadedRef.current = onUploaded;

  useEffect(() => {
    const urls = editorOrderUrls(orderId);
    const uppy = createDirectUppy({
      id: `order-edited-${orderId}`,
      signUrl: urls.editedSign,
      keyPrefix: editedPrefix(orderId),
    });
    uppyRef.current = uppy;
    return () => {
      uppy.cancelAll();
      uppy.destroy();
      uppyRef.current = null;
    };
  }, [orderId]);

  const updateRow = useCallback((id: string, change: Partial<EditedUploadRow>) => {
    setRows((current) => current.map((row) => (row.id === id ? { ...row, ...change } : row)));
  }, []);

  const upload = useCallback(
    async (files: File[]) => {
      const uppy = uppyRef.current;
      if (!uppy) return;
      if (files.length === 0) {
        notifications.show({ color: 'red', message: editorUploadMessages.noFile });
        return;
      }
      // A new batch starts with a clean list; files of an earlier batch are done with.
      uppy.cancelAll();
      const batch: EditedUploadRow[] = [];
      for (const file of files) {
        try {
          const id = uppy.addFile({ name: file.name, type: uploadContentType(file), data: file, source: 'Local' });
          batch.push({ id, filename: file.name, size: file.size, percent: 0, status: 'uploading' });
        } catch (error) {
          // Uppy refuses the very same file twice in one batch; the copy already added is uploaded.
          console.warn('Skipped a file Uppy would not add', error);
        }
      }
      setRows(batch);
      setBusy(true);

      const recordings: Promise<boolean>[] = [];
      const registerWithApi = uploadRegistrar(
        editorOrderUrls(orderId).editedComplete,
        defaultUploadTuning.registerBatchMax,
      );
      const onProgress = (file: { id: string } | undefined) => {
        if (file) updateRow(file.id, { percent: uploadPercentOf(uppy.getFile(file.id)) });
      };
      const onSuccess = (file: { id: string; name?: string } | undefined, response: { body?: { key?: string } }) => {
        const key = response.body?.key;
        const row = batch.find((candidate) => candidate.id === file?.id);
        if (!file || !row || !key) return;
        updateRow(file.id, { percent: 100, status: 'saving' });
        recordings.push(
          registerWithApi({ key, filename: row.filename }).then(
            () => {
              updateRow(file.id, { status: 'done' });
              notifications.show({ color: 'green', message: editorUploadMessages.uploaded(row.filename) });
              return true;
            },
            (error: unknown) => {
              updateRow(file.id, { status: 'failed', error: failureText(error) });
              return false;
            },
          ),
        );
      };
      const onError = (file: { id: string } | undefined, error: unknown) => {
        if (file) updateRow(file.id, { status: 'failed', error: failureText(error) });
      };
      uppy.on('upload-progress', onProgress);
      uppy.on('upload-success', onSuccess);
      uppy.on('upload-error', onError);
      try {
        await uppy.upload().catch((error: unknown) => console.error('Upload batch failed', error));
        const recorded = await Promise.all(recordings);
        const succeeded = recorded.filter(Boolean).length;
        const failed = batch.length - succeeded;
        if (succeeded > 0) {
          notifications.show({ color: 'green', message: editorUploadMessages.manyUploaded(succeeded) });
        }
        if (failed > 0) notifications.show({ color: 'red', message: editorUploadMessages.manyFailed(failed) });
        if (succeeded > 0) onUploadedRef.current();
      } finally {
        uppy.off('upload-progress', onProgress);
        uppy.off('upload-success', onSuccess);
        uppy.off('upload-error', onError);
        setBusy(false);
      }
    },
    [orderId, updateRow],
  );

  const totalBytes = rows.reduce((sum, row) => sum + row.size, 0);
  const sentBytes = rows.reduce((sum, row) => sum + (row.size * row.percent) / 100, 0);
  const overallPercent = totalBytes ? Math.round((sentBytes / totalBytes) * 100) : rows.length ? 100 : 0;
  return { rows, busy, overallPercent, upload };
}
