import type { RegisteredUpload } from '@marketplace/events/orders';
import { ApiError, apiPost } from '../api-client';

interface Waiting {
  upload: RegisteredUpload;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Tells the API which files are in S3 (the register route), several per call: while one call is
 * out, files that finish wait and go together in the next, up to `batchMax`, so a file never waits
 * for others to finish. The API counts a batch whole or not at all; a refused batch is sent again
 * a file at a time, so each file gets its own answer (and a bad one does not hold up the rest).
 * With `batchMax` 1 every file has its own call, at once.
 */
export function uploadRegistrar(completeUrl: string, batchMax: number) {
  const waiting: Waiting[] = [];
  let sending = false;

  const send = async (batch: Waiting[]) => {
    if (batch.length === 1) {
      await apiPost(completeUrl, batch[0]!.upload);
      return;
    }
    await apiPost(completeUrl, { files: batch.map(({ upload }) => upload) });
  };

  const settleEach = async (batch: Waiting[]) => {
    await Promise.all(
      batch.map(({ upload, resolve, reject }) => apiPost(completeUrl, upload).then(() => resolve(), reject)),
    );
  };

  const drain = async () => {
    if (sending) return;
    sending = true;
    try {
      while (waiting.length) {
        const batch = waiting.splice(0, batchMax);
        try {
          await send(batch);
          for (const { resolve } of batch) resolve();
        } catch (error) {
          // A refusal names one file: ask for each on its own. A lost connection fails them all alike.
          if (batch.length > 1 && error instanceof ApiError) await settleEach(batch);
          else for (const { reject } of batch) reject(error);
        }
      }
    } finally {
      sending = false;
    }
  };

  /** Resolves once the API counts the file; rejects with the API's refusal of it. */
  return (upload: RegisteredUpload) =>
    new Promise<void>((resolve, reject) => {
      // A call per file: each goes at once, side by side.
      if (batchMax <= 1) return void settleEach([{ upload, resolve, reject }]);
      waiting.push({ upload, resolve, reject });
      void drain();
    });
}
