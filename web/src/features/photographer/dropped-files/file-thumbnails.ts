import { extensionOf } from '@marketplace/events/orders';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { taskQueue } from './task-queue';

/** The width thumbnails are drawn at: crisp in a 64 px tile on a high-density screen. */
export const THUMBNAIL_WIDTH = 192;

export type FileThumbnail =
  | { state: 'loading' }
  | { state: 'ready'; url: string }
  /** Nothing the browser can show: a tile with the file type instead of a broken image. */
  | { state: 'placeholder' };

/** Types the browser decodes itself; the others (RAW, TIFF) only through their embedded preview. */
const browserDecodes = new Set(['jpg', 'jpeg', 'png']);

/** The image downscaled to THUMBNAIL_WIDTH (decoding happens off the main thread), as a WebP blob. */
async function downscale(image: Blob): Promise<Blob | null> {
  if (typeof createImageBitmap !== 'function') return null;
  const bitmap = await createImageBitmap(image, { resizeWidth: THUMBNAIL_WIDTH, resizeQuality: 'medium' });
  try {
    const canvas = document.createElement('canvas');
    canvas.width = bitmap.width;
    canvas.height = bitmap.height;
    const context = canvas.getContext('2d');
    if (!context) return null;
    context.drawImage(bitmap, 0, 0);
    return await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/webp', 0.8));
  } finally {
    bitmap.close();
  }
}

/** The JPEG preview a RAW or TIFF file (or a camera JPEG) carries in its EXIF, if any. */
async function embeddedPreview(file: File): Promise<Blob | null> {
  const { default: exifr } = await import('exifr');
  const bytes = await exifr.thumbnail(file);
  return bytes?.length ? new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }) : null;
}

const attempt = async (make: () => Promise<Blob | null>) => {
  try {
    return await make();
  } catch {
    return null;
  }
};

/** A small image of a dropped file, made in the browser; null when there is nothing to show. */
export async function makeThumbnail(file: File): Promise<Blob | null> {
  if (browserDecodes.has(extensionOf(file.name))) {
    const scaled = await attempt(() => downscale(file));
    if (scaled) return scaled;
  }
  const preview = await attempt(() => embeddedPreview(file));
  if (!preview) return null;
  return (await attempt(() => downscale(preview))) ?? preview;
}

/** Decoding is the heavy part: two at a time keeps a hundred 25 MB files from freezing the page. */
const thumbnailQueue = taskQueue(2);

/**
 * The thumbnails of a changing list of files. Each file's thumbnail is made once, a few at a
 * time; its object URL is revoked when the file leaves the list or the list is disposed.
 */
export class ThumbnailStore {
  private readonly entries = new Map<File, { token: object; thumbnail: FileThumbnail }>();
  private readonly listeners = new Set<() => void>();
  private snapshot: ReadonlyMap<File, FileThumbnail> = new Map();

  sync(files: readonly File[]) {
    const wanted = new Set(files);
    for (const [file, entry] of this.entries) {
      if (!wanted.has(file)) {
        this.release(entry.thumbnail);
        this.entries.delete(file);
      }
    }
    for (const file of files) {
      if (!this.entries.has(file)) this.start(file);
    }
    this.emit();
  }

  dispose() {
    for (const entry of this.entries.values()) this.release(entry.thumbnail);
    this.entries.clear();
    this.emit();
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  getSnapshot = () => this.snapshot;

  private start(file: File) {
    const token = {};
    this.entries.set(file, { token, thumbnail: { state: 'loading' } });
    const stillWanted = () => this.entries.get(file)?.token === token;
    void thumbnailQueue(async () => (stillWanted() ? makeThumbnail(file) : null)).then((blob) => {
      if (!stillWanted()) return;
      const thumbnail: FileThumbnail = blob
        ? { state: 'ready', url: URL.createObjectURL(blob) }
        : { state: 'placeholder' };
      this.entries.set(file, { token, thumbnail });
      this.emit();
    });
  }

  private release(thumbnail: FileThumbnail) {
    if (thumbnail.state === 'ready') URL.revokeObjectURL(thumbnail.url);
  }

  private emit() {
    this.snapshot = new Map([...this.entries].map(([file, entry]) => [file, entry.thumbnail]));
    for (const listener of this.listeners) listener();
  }
}

/** Thumbnails of the files, kept while they are listed; every object URL is revoked on unmount. */
export function useFileThumbnails(files: readonly File[]) {
  const [store] = useState(() => new ThumbnailStore());
  useEffect(() => {
    store.sync(files);
  }, [store, files]);
  useEffect(() => () => store.dispose(), [store]);
  return useSyncExternalStore(store.subscribe, store.getSnapshot);
}
