import type { Readable } from 'node:stream';
import { GetObjectCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { ZipFile } from 'yazl';

/**
 * Zips of photos, streamed S3 to S3: each source object is read only when its turn comes and
 * piped through yazl into a multipart upload, so memory stays at a few upload parts whatever the
 * zip's size. Photos are stored (STORE), not deflated: JPEG and RAW do not shrink, and it is
 * three times faster. The multipart upload only becomes an object once it is complete.
 */
export interface ZipSource {
  key: string;
  /** The entry's name inside the zip. */
  name: string;
  size: number;
  lastModified: Date;
}

/** Parts of 8 MiB, four in flight: about 32 MiB of buffers, far from S3's 10,000-part limit at 80 GB. */
export const ZIP_PART_BYTES = 8 * 1024 * 1024;
export const ZIP_PARTS_IN_FLIGHT = 4;

export const writeZipToS3 = async ({
  client,
  bucket,
  key,
  sources,
  onSourceDone,
  partBytes = ZIP_PART_BYTES,
  partsInFlight = ZIP_PARTS_IN_FLIGHT,
}: {
  client: S3Client;
  bucket: string;
  key: string;
  sources: readonly ZipSource[];
  /** Called with the number of sources fully read so far (for a progress bar). */
  onSourceDone?: (done: number) => void;
  partBytes?: number;
  partsInFlight?: number;
}): Promise<{ sizeBytes: number }> => {
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  const upload = new Upload({
    client,
    params: { Bucket: bucket, Key: key, Body: output, ContentType: 'application/zip' },
    partSize: partBytes,
    queueSize: partsInFlight,
    leavePartsOnError: false,
  });
  let reading: Readable | undefined;
  let done = 0;

  const failed = new Promise<never>((_, reject) => {
    zip.on('error', (error: Error) => {
      reading?.destroy();
      output.destroy(error);
      void upload.abort().catch(() => {});
      reject(error);
    });
  });
  // The upload's own failure is the one reported; this only keeps the rejection handled.
  failed.catch(() => {});

  for (const source of sources) {
    zip.addReadStreamLazy(
      source.name,
      { compress: false, size: source.size, mtime: source.lastModified },
      (deliver) => {
        client
          .send(new GetObjectCommand({ Bucket: bucket, Key: source.key }))
          .then((object) => {
            reading = object.Body as Readable;
            reading.once('end', () => onSourceDone?.(++done));
            deliver(null, reading);
          })
          .catch((error) => deliver(error, undefined as never));
      },
    );
  }
  zip.end();

  try {
    await Promise.race([upload.done(), failed]);
  } catch (error) {
    // Stop reading the sources too: nothing will consume them any more.
    reading?.destroy();
    output.destroy();
    throw error;
  }
  // The stored object's length, not our arithmetic, is what the browser will be told.
  const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
  return { sizeBytes: head.ContentLength ?? 0 };
};

/** S3 keys and browser-given names become safe, distinct zip entry names ("a.jpg", "a (2).jpg"). */
export const zipEntryNames = (filenames: readonly string[]) => {
  const taken = new Set<string>();
  return filenames.map((filename) => {
    const name = safeEntryName(filename);
    const dot = name.lastIndexOf('.');
    const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    let candidate = name;
    // Case-insensitive: Windows and macOS would overwrite "A.jpg" with "a.jpg" on extraction.
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${extension}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  });
};

const safeEntryName = (filename: string) => {
  // Only the last path segment: an entry must never extract outside the folder it is unzipped in.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const base = (filename.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return base && base !== '.' && base !== '..' ? base : 'photo';
};

/** `attachment` with an ASCII fallback name and the exact name in RFC 5987 form, for every browser. */
export const attachmentDisposition = (filename: string) => {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
};

/** Links to a finished zip last five minutes: long enough to start the download, short if shared. */
export const ZIP_LINK_SECONDS = 5 * 60;

export const zipDownloadUrl = (
  client: S3Client,
  { bucket, key, filename }: { bucket: string; key: string; filename: string },
) =>
  getSignedUrl(
    client,
    new GetObjectCommand({ Bucket: bucket, Key: key, ResponseContentDisposition: attachmentDisposition(filename) }),
    { expiresIn: ZIP_LINK_SECONDS },
  );
