import { GET_OBJECT_QUERY, type S3Requests } from './s3-requests';

/**
 * What the download routes need of a zip: the names its entries get, and a link to the built zip.
 * The zip itself is written by the worker (zip-archive.ts), with the S3 client the routes do
 * without.
 */

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
  storage: S3Requests,
  { bucket, key, filename }: { bucket: string; key: string; filename: string },
) =>
  storage.presignedUrl({
    bucket,
    method: 'GET',
    key,
    query: { ...GET_OBJECT_QUERY, 'response-content-disposition': attachmentDisposition(filename) },
    expiresIn: ZIP_LINK_SECONDS,
  });
