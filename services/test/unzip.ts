import yauzl from 'yauzl';

/** One entry of a zip: its name, its bytes, and yauzl's record of it (CRC, method, offsets). */
export interface UnzippedEntry {
  name: string;
  bytes: Buffer;
  entry: yauzl.Entry;
}

/** Every entry of a zip in the order the zip holds them, read with yauzl from its central directory. */
export const unzipEntries = (zip: Buffer) =>
  new Promise<UnzippedEntry[]>((resolve, reject) => {
    const entries: UnzippedEntry[] = [];
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, zipfile) => {
      if (error || !zipfile) return reject(error);
      zipfile.on('entry', (entry: yauzl.Entry) => {
        zipfile.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            entries.push({ name: entry.fileName, bytes: Buffer.concat(chunks), entry });
            zipfile.readEntry();
          });
          stream.on('error', reject);
        });
      });
      zipfile.on('end', () => resolve(entries));
      zipfile.on('error', reject);
      zipfile.readEntry();
    });
  });

/** The same entries by name (in the zip's order when iterated). */
export const unzipByName = async (zip: Buffer) => new Map((await unzipEntries(zip)).map((e) => [e.name, e]));
