import { MAX_ORIGINAL_BYTES, originalsPrefix, photoContentType } from '@marketplace/events/orders';
import { apiErrorText } from '../../../lib/api-client';
import {
  createDirectUppy,
  type DirectUploadFile,
  type DirectUppy,
  defaultUploadTuning,
  type UploadTuning,
  uploadPercentOf,
} from '../../../lib/uploads/direct-s3-upload';
import { uploadRegistrar } from '../../../lib/uploads/upload-registrar';
import { type PendingOrder, writePendingOrder } from './pending-order';

const REGISTER_RETRY_DELAYS_MS = [1000, 3000];
/** How long to wait for the upload state of a previous page load before calling files lost. */
const RESTORE_WAIT_MS = 10_000;
/**
 * Copies of the chosen files kept in IndexedDB so a reload can resume them. Golden Retriever's
 * own default skips files over 10 MB (every RAW file).
 */
const resumableCopies = { maxFileSize: MAX_ORIGINAL_BYTES, maxTotalSize: 4 * 1024 * 1024 * 1024 };

export type UploadRowStatus = 'waiting' | 'uploading' | 'registering' | 'done' | 'failed' | 'missing';

export interface UploadRow {
  id: string;
  filename: string;
  size: number;
  percent: number;
  status: UploadRowStatus;
  error?: string;
}

export interface UploadSnapshot {
  rows: UploadRow[];
  total: number;
  doneCount: number;
  failedCount: number;
  /** Files a reload could not bring back (their data was not kept): they must be chosen again. */
  missingCount: number;
  overallPercent: number;
  allDone: boolean;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The upload of one order's originals: Uppy puts every file straight into S3 (multipart for big
 * files, its requests signed by our API), Golden Retriever keeps the state across a reload, and
 * each file is registered with the API once S3 has it (with others that finished meanwhile).
 */
export class OriginalsUpload {
  private readonly uppy: DirectUppy;
  private readonly listeners = new Set<() => void>();
  private readonly registrationErrors = new Map<string, string>();
  private readonly registerWithApi: ReturnType<typeof uploadRegistrar>;
  private restoreSettled: boolean;
  private snapshot: UploadSnapshot;

  constructor(
    private pending: PendingOrder,
    tuning: UploadTuning = defaultUploadTuning,
    /** Copies of the files in IndexedDB, for a reload (off: measured without them). */
    keepCopies = true,
  ) {
    const orderId = pending.order.id;
    const uppyId = `order-originals-${orderId}`;
    this.restoreSettled = localStorage.getItem(`uppyState:${uppyId}`) === null;
    this.uppy = createDirectUppy({
      id: uppyId,
      signUrl: `/api/orders/${encodeURIComponent(orderId)}/uploads/sign`,
      keyPrefix: originalsPrefix(orderId),
      resumable: keepCopies ? resumableCopies : undefined,
      tuning,
    });
    this.registerWithApi = uploadRegistrar(
      `/api/orders/${encodeURIComponent(orderId)}/uploads/complete`,
      tuning.registerBatchMax,
    );

    this.uppy.on('state-update', () => this.refresh());
    this.uppy.on('upload-success', (file, response) => {
      const key = response.body?.key;
      if (!file || !key) return;
      this.updateUpload(file.id, { key });
      void this.register(file.id);
    });
    this.uppy.on('restored', () => this.resumeRestoredFiles());
    if (!this.restoreSettled) {
      setTimeout(() => {
        this.restoreSettled = true;
        this.refresh();
      }, RESTORE_WAIT_MS);
    }
    // Files S3 already had before a reload, but the API had not yet counted.
    for (const [id, upload] of Object.entries(pending.uploads)) {
      if (upload.key && !upload.registered) void this.register(id);
    }
    this.snapshot = this.computeSnapshot();
  }

  /** Adds the chosen files, with the scene of each when the grouping found one, and starts sending them. */
  start(files: File[], scenes?: ReadonlyMap<File, number> | null) {
    const uploads = { ...this.pending.uploads };
    for (const file of files) {
      try {
        const id = this.uppy.addFile({
          name: file.name,
          type: file.type || photoContentType(file.name),
          data: file,
          source: 'Local',
        });
        const scene = scenes?.get(file);
        uploads[id] = { filename: file.name, size: file.size, registered: false, ...(scene ? { scene } : {}) };
      } catch (error) {
        // Uppy refuses the very same file twice; the copy already in the list is uploaded.
        console.warn('Skipped a file Uppy would not add', error);
      }
    }
    this.pending = { ...this.pending, uploads };
    writePendingOrder(this.pending);
    this.refresh();
    this.uppy.upload().catch((error: unknown) => console.error('Upload batch failed', error));
  }

  /** 'Retry failed uploads': S3 uploads that failed, and files S3 has but the API has not counted. */
  retryFailed() {
    for (const id of [...this.registrationErrors.keys()]) void this.register(id);
    if (this.uppy.getFiles().some((file) => file.error)) {
      this.uppy.retryAll().catch((error: unknown) => console.error('Retry failed', error));
    }
  }

  /** Gives up on files a reload could not bring back, so the order can go on with the rest. */
  dropMissing() {
    const uploads = Object.fromEntries(
      Object.entries(this.pending.uploads).filter(([id]) => this.rowFor(id).status !== 'missing'),
    );
    this.pending = { ...this.pending, uploads };
    writePendingOrder(this.pending);
    this.refresh();
  }

  /** Stops everything and forgets the saved upload state (after payment opens, or on Cancel). */
  dispose() {
    this.uppy.cancelAll();
    this.uppy.destroy();
    this.listeners.clear();
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  getSnapshot = () => this.snapshot;

  private resumeRestoredFiles() {
    // A file whose data the browser did not keep cannot be resumed; it shows as missing instead.
    const ghosts = this.uppy.getFiles().filter((file) => file.isGhost || !this.pending.uploads[file.id]);
    if (ghosts.length) this.uppy.removeFiles(ghosts.map((file) => file.id));
    this.restoreSettled = true;
    if (this.uppy.getFiles().some((file) => !file.progress.uploadComplete)) this.uppy.emit('restore-confirmed');
    this.refresh();
  }

  private async register(id: string) {
    const upload = this.pending.uploads[id];
    if (!upload?.key || upload.registered) return;
    this.registrationErrors.delete(id);
    this.refresh();
    for (let attempt = 0; ; attempt++) {
      try {
        await this.registerWithApi({
          key: upload.key,
          filename: upload.filename,
          ...(upload.scene ? { scene: upload.scene } : {}),
        });
        this.updateUpload(id, { registered: true });
        return;
      } catch (error) {
        const delay = REGISTER_RETRY_DELAYS_MS[attempt];
        if (delay === undefined) {
          this.registrationErrors.set(id, apiErrorText(error, 'The upload could not be recorded'));
          this.refresh();
          return;
        }
        await wait(delay);
      }
    }
  }

  private updateUpload(id: string, change: { key?: string; registered?: boolean }) {
    const upload = this.pending.uploads[id];
    if (!upload) return;
    this.pending = { ...this.pending, uploads: { ...this.pending.uploads, [id]: { ...upload, ...change } } };
    writePendingOrder(this.pending);
    this.refresh();
  }

  private rowFor(id: string): UploadRow {
    const upload = this.pending.uploads[id]!;
    const base = { id, filename: upload.filename, size: upload.size };
    if (upload.registered) return { ...base, percent: 100, status: 'done' };
    const registrationError = this.registrationErrors.get(id);
    if (registrationError) return { ...base, percent: 100, status: 'failed', error: registrationError };
    if (upload.key) return { ...base, percent: 100, status: 'registering' };
    const file = this.uppy.getFile(id) as DirectUploadFile | undefined;
    if (!file) return { ...base, percent: 0, status: this.restoreSettled ? 'missing' : 'waiting' };
    if (file.error) return { ...base, percent: uploadPercentOf(file), status: 'failed', error: String(file.error) };
    if (file.progress.uploadStarted) return { ...base, percent: uploadPercentOf(file), status: 'uploading' };
    return { ...base, percent: 0, status: 'waiting' };
  }

  private computeSnapshot(): UploadSnapshot {
    const rows = Object.keys(this.pending.uploads).map((id) => this.rowFor(id));
    const totalBytes = rows.reduce((sum, row) => sum + row.size, 0);
    const sentBytes = rows.reduce((sum, row) => sum + (row.size * row.percent) / 100, 0);
    const doneCount = rows.filter((row) => row.status === 'done').length;
    return {
      rows,
      total: rows.length,
      doneCount,
      failedCount: rows.filter((row) => row.status === 'failed').length,
      missingCount: rows.filter((row) => row.status === 'missing').length,
      overallPercent: totalBytes ? Math.round((sentBytes / totalBytes) * 100) : 0,
      allDone: rows.length > 0 && doneCount === rows.length,
    };
  }

  private refresh() {
    this.snapshot = this.computeSnapshot();
    for (const listener of this.listeners) listener();
  }
}

const uploadsByOrder = new Map<string, OriginalsUpload>();

/**
 * One upload per order for the life of the page, so it outlives a remount of the page (and
 * React's development double mount) instead of starting over.
 */
export function originalsUploadFor(pending: PendingOrder) {
  let upload = uploadsByOrder.get(pending.order.id);
  if (!upload) {
    upload = new OriginalsUpload(pending);
    uploadsByOrder.set(pending.order.id, upload);
  }
  return upload;
}

export function endOriginalsUpload(orderId: string) {
  uploadsByOrder.get(orderId)?.dispose();
  uploadsByOrder.delete(orderId);
}
