import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { GetObjectCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';

/**
 * Zips of photos, streamed S3 to S3: each source object is read only when its turn comes and
 * flows through the zip writer into a multipart upload, so memory stays at a few upload parts
 * whatever the zip's size. Photos are stored (STORE), not deflated: JPEG and RAW do not shrink, and
 * it is three times faster. The multipart upload only becomes an object once it is complete.
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
  const entries = sources.map((source) => ({
    name: source.name,
    size: source.size,
    lastModified: source.lastModified,
    open: async () => {
      const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: source.key }));
      return object.Body as Readable;
    },
  }));
  // A failed source (or a wrong size) ends the stream with its error; the upload then aborts its
  // parts and rejects with that error, and leaving the loop destroys the source being read.
  const body = Readable.from(storedZip(entries, onSourceDone), { objectMode: false });
  const upload = new Upload({
    client,
    params: { Bucket: bucket, Key: key, Body: body, ContentType: 'application/zip' },
    partSize: partBytes,
    queueSize: partsInFlight,
    leavePartsOnError: false,
  });
  try {
    await upload.done();
  } finally {
    // Stop reading the sources too when the upload failed: nothing will consume them any more.
    body.destroy();
  }
  // The stored object's length, not our arithmetic, is what the browser will be told.
  const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
  return { sizeBytes: head.ContentLength ?? 0 };
};

/** One file of a zip: its bytes are opened only when the writer reaches it. */
export interface ZipEntryInput {
  name: string;
  size: number;
  lastModified: Date;
  open: () => Promise<AsyncIterable<Uint8Array>>;
}

/**
 * A zip of stored (uncompressed) entries, yielded as it is written, in the layout yazl writes for
 * streamed entries (PKWARE APPNOTE 6.3): a local header without CRC or sizes, the bytes, a data
 * descriptor with both, then the central directory, in ZIP64 form where an offset or size needs
 * it. The CRC-32 is Node's zlib.crc32 (native, 10x and more the speed of a JavaScript table CRC,
 * which held the build below the speed of a plain S3 copy). Each entry's bytes must number its
 * `size`, or the zip ends with an error.
 */
export async function* storedZip(
  entries: Iterable<ZipEntryInput>,
  onEntryDone?: (done: number) => void,
): AsyncGenerator<Buffer> {
  const written: CentralEntry[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    if (name.length === 0 || name.length > 0xffff) throw new Error(`bad zip entry name: "${entry.name}"`);
    const { date, time } = dosDateTime(entry.lastModified);
    const headerOffset = offset;
    const header = localFileHeader(name, date, time);
    yield header;
    offset += header.length;
    let crc = 0;
    let size = 0;
    for await (const chunk of await entry.open()) {
      crc = crc32(chunk, crc);
      size += chunk.length;
      yield Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    }
    if (size !== entry.size) throw new Error(`${entry.name}: ${size} bytes read, ${entry.size} expected`);
    offset += size;
    const zip64 = size > ZIP32_MAX || headerOffset > ZIP32_MAX;
    written.push({ name, date, time, crc, size, headerOffset, mtime: entry.lastModified, zip64 });
    onEntryDone?.(written.length);
    const descriptor = dataDescriptor(crc, size, zip64);
    yield descriptor;
    offset += descriptor.length;
  }
  const directoryOffset = offset;
  let directorySize = 0;
  for (const entry of written) {
    const record = centralDirectoryRecord(entry);
    yield record;
    directorySize += record.length;
  }
  yield endOfCentralDirectory(written.length, directorySize, directoryOffset);
}

interface CentralEntry {
  name: Buffer;
  date: number;
  time: number;
  crc: number;
  size: number;
  headerOffset: number;
  mtime: Date;
  zip64: boolean;
}

/** Sizes and offsets above this are written as ZIP64 (0xffffffff itself means "see the ZIP64 field"). */
const ZIP32_MAX = 0xfffffffe;
const VERSION_MADE_BY_UNIX_6_3 = (3 << 8) | 63;
const VERSION_NEEDED_UTF8 = 20;
const VERSION_NEEDED_ZIP64 = 45;
const FLAG_UTF8_NAME = 1 << 11;
const FLAG_DATA_DESCRIPTOR = 1 << 3;
const STORE = 0;
/** A regular file, rw-rw-r--, in the high half (Unix attributes). */
const EXTERNAL_ATTRIBUTES = (0o100664 << 16) >>> 0;

const localFileHeader = (name: Buffer, date: number, time: number) => {
  const header = Buffer.alloc(30 + name.length);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(VERSION_NEEDED_UTF8, 4);
  header.writeUInt16LE(FLAG_UTF8_NAME | FLAG_DATA_DESCRIPTOR, 6);
  header.writeUInt16LE(STORE, 8);
  header.writeUInt16LE(time, 10);
  header.writeUInt16LE(date, 12);
  // CRC-32 and both sizes stay 0 here: the data descriptor after the bytes holds them.
  header.writeUInt16LE(name.length, 26);
  name.copy(header, 30);
  return header;
};

const dataDescriptor = (crc: number, size: number, zip64: boolean) => {
  const descriptor = Buffer.alloc(zip64 ? 24 : 16);
  // The optional signature: macOS Archive Utility needs it.
  descriptor.writeUInt32LE(0x08074b50, 0);
  descriptor.writeUInt32LE(crc, 4);
  if (zip64) {
    descriptor.writeBigUInt64LE(BigInt(size), 8);
    descriptor.writeBigUInt64LE(BigInt(size), 16);
  } else {
    descriptor.writeUInt32LE(size, 8);
    descriptor.writeUInt32LE(size, 12);
  }
  return descriptor;
};

const centralDirectoryRecord = (entry: CentralEntry) => {
  // Info-ZIP's extended timestamp ("UT"): the exact modification time in UTC, beside DOS local time.
  const timestamp = Buffer.alloc(9);
  timestamp.writeUInt16LE(0x5455, 0);
  timestamp.writeUInt16LE(5, 2);
  // Modification and access flags, as Info-ZIP sets them; the central copy holds the mtime only.
  timestamp.writeUInt8(0b11, 4);
  const seconds = Math.floor(entry.mtime.getTime() / 1000);
  timestamp.writeInt32LE(Math.min(Math.max(seconds, -0x80000000), 0x7fffffff), 5);
  const zip64 = entry.zip64 ? Buffer.alloc(28) : Buffer.alloc(0);
  if (entry.zip64) {
    zip64.writeUInt16LE(0x0001, 0);
    zip64.writeUInt16LE(24, 2);
    zip64.writeBigUInt64LE(BigInt(entry.size), 4);
    zip64.writeBigUInt64LE(BigInt(entry.size), 12);
    zip64.writeBigUInt64LE(BigInt(entry.headerOffset), 20);
  }
  const record = Buffer.alloc(46 + entry.name.length + timestamp.length + zip64.length);
  record.writeUInt32LE(0x02014b50, 0);
  record.writeUInt16LE(VERSION_MADE_BY_UNIX_6_3, 4);
  record.writeUInt16LE(entry.zip64 ? VERSION_NEEDED_ZIP64 : VERSION_NEEDED_UTF8, 6);
  record.writeUInt16LE(FLAG_UTF8_NAME | FLAG_DATA_DESCRIPTOR, 8);
  record.writeUInt16LE(STORE, 10);
  record.writeUInt16LE(entry.time, 12);
  record.writeUInt16LE(entry.date, 14);
  record.writeUInt32LE(entry.crc, 16);
  record.writeUInt32LE(entry.zip64 ? 0xffffffff : entry.size, 20);
  record.writeUInt32LE(entry.zip64 ? 0xffffffff : entry.size, 24);
  record.writeUInt16LE(entry.name.length, 28);
  record.writeUInt16LE(timestamp.length + zip64.length, 30);
  // File comment length, disk number and internal attributes stay 0.
  record.writeUInt32LE(EXTERNAL_ATTRIBUTES, 38);
  record.writeUInt32LE(entry.zip64 ? 0xffffffff : entry.headerOffset, 42);
  entry.name.copy(record, 46);
  timestamp.copy(record, 46 + entry.name.length);
  zip64.copy(record, 46 + entry.name.length + timestamp.length);
  return record;
};

const endOfCentralDirectory = (entryCount: number, directorySize: number, directoryOffset: number) => {
  const zip64 = entryCount >= 0xffff || directorySize >= 0xffffffff || directoryOffset >= 0xffffffff;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(entryCount, 0xffff), 8);
  end.writeUInt16LE(Math.min(entryCount, 0xffff), 10);
  end.writeUInt32LE(Math.min(directorySize, 0xffffffff), 12);
  end.writeUInt32LE(Math.min(directoryOffset, 0xffffffff), 16);
  if (!zip64) return end;
  const record = Buffer.alloc(56);
  record.writeUInt32LE(0x06064b50, 0);
  record.writeBigUInt64LE(44n, 4);
  record.writeUInt16LE(VERSION_MADE_BY_UNIX_6_3, 12);
  record.writeUInt16LE(VERSION_NEEDED_ZIP64, 14);
  record.writeBigUInt64LE(BigInt(entryCount), 24);
  record.writeBigUInt64LE(BigInt(entryCount), 32);
  record.writeBigUInt64LE(BigInt(directorySize), 40);
  record.writeBigUInt64LE(BigInt(directoryOffset), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  // The ZIP64 record starts right after the central directory.
  locator.writeBigUInt64LE(BigInt(directoryOffset + directorySize), 8);
  locator.writeUInt32LE(1, 16);
  return Buffer.concat([record, locator, end]);
};

/** MS-DOS date and time fields, in local time as DOS kept them (UTC on Lambda), clamped to 1980-2107. */
const dosDateTime = (when: Date) => {
  const earliest = new Date(1980, 0, 1);
  const latest = new Date(2107, 11, 31, 23, 59, 58);
  const at = when < earliest ? earliest : when > latest ? latest : when;
  return {
    date: at.getDate() | ((at.getMonth() + 1) << 5) | ((at.getFullYear() - 1980) << 9),
    time: Math.floor(at.getSeconds() / 2) | (at.getMinutes() << 5) | (at.getHours() << 11),
  };
};
