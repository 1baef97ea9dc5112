import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { crc32 as zlibCrc32 } from 'node:zlib';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { ulid } from 'ulid';
import { afterAll, describe, expect, it } from 'vitest';
import { ZipFile } from 'yazl';
import { storedZip, writeZipToS3, type ZipEntryInput, type ZipSource } from '../src/adapters/zip-archive';
import { unzipEntries } from './unzip';

/**
 * The zip writer: byte for byte what yazl (the writer it replaced) writes for the same streamed
 * entries, ZIP64 included; and the zips it streams to S3 read back with yauzl, every entry's CRC-32
 * checked against its source with a table CRC written here (not zlib's, which the writer uses),
 * and the data descriptors checked as a streaming unzipper reads them.
 */
const MiB = 1024 * 1024;
const s3 = new S3Client({ region: 'us-east-1', endpoint: process.env.S3_ENDPOINT, forcePathStyle: true });
const bucket = () => process.env.PHOTOS_BUCKET!;

/** CRC-32 (IEEE, as zip uses it), one byte a step: slow and plain, so it can judge zlib's. */
const CRC_TABLE = Int32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});
const tableCrc32 = (bytes: Uint8Array) => {
  let crc = -1;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return ~crc >>> 0;
};

/** The bytes of an entry in chunks of at most 64 KiB, as an S3 body arrives. */
async function* inChunks(bytes: Buffer) {
  for (let at = 0; at < bytes.length; at += 64 * 1024) yield bytes.subarray(at, at + 64 * 1024);
}

const concat = async (chunks: AsyncIterable<Uint8Array>) => {
  const all: Uint8Array[] = [];
  for await (const chunk of chunks) all.push(chunk);
  return Buffer.concat(all);
};

/** What yazl writes for the same entries, each added as the worker used to add S3 bodies. */
const yazlZip = (entries: ZipEntryInput[]) => {
  const zip = new ZipFile();
  for (const entry of entries) {
    zip.addReadStreamLazy(entry.name, { compress: false, size: entry.size, mtime: entry.lastModified }, (deliver) => {
      entry.open().then((chunks) => deliver(null, Readable.from(chunks)));
    });
  }
  zip.end();
  return zip.outputStream as Readable;
};

/** The length and CRC-32 of a stream, and its last bytes (the central directory's end), read in constant memory. */
const fingerprint = async (chunks: AsyncIterable<Uint8Array>) => {
  let length = 0;
  let crc = 0;
  let tail = Buffer.alloc(0);
  for await (const chunk of chunks) {
    length += chunk.length;
    crc = zlibCrc32(chunk, crc);
    tail = Buffer.concat([tail, chunk]).subarray(-1024);
  }
  return { length, crc, tail: tail.toString('hex') };
};

describe('the zip writer', () => {
  it('writes byte for byte what yazl writes: names, times, attributes, CRCs, data descriptors', async () => {
    const files = [
      {
        name: 'Maple Street Café – front.jpg',
        bytes: randomBytes(300_000),
        lastModified: new Date(2026, 10, 21, 9, 41, 7),
      },
      { name: 'empty.txt', bytes: Buffer.alloc(0), lastModified: new Date('2024-02-29T23:59:59Z') },
      { name: 'one byte', bytes: Buffer.from([0x5a]), lastModified: new Date('1970-01-01T00:00:00Z') },
      { name: 'room (2).JPG', bytes: randomBytes(65_537), lastModified: new Date('2107-12-31T23:59:59Z') },
      { name: '写真.dng', bytes: randomBytes(1_000_003), lastModified: new Date() },
    ];
    const entries = files.map((file) => ({
      name: file.name,
      size: file.bytes.length,
      lastModified: file.lastModified,
      open: async () => inChunks(file.bytes),
    }));
    const ours = await concat(storedZip(entries));
    const theirs = await concat(yazlZip(entries));
    expect(ours.length).toBe(theirs.length);
    expect(ours.equals(theirs)).toBe(true);
  });

  it('writes ZIP64 as yazl does past 4 GiB: an entry larger than 4 GiB and one that starts beyond it', async () => {
    const block = randomBytes(MiB);
    const repeated = (size: number) =>
      async function* () {
        for (let left = size; left > 0; left -= block.length)
          yield left >= block.length ? block : block.subarray(0, left);
      };
    const huge = 4 * 1024 * MiB + 12_345;
    const entries = [
      { name: 'huge.raw', size: huge, lastModified: new Date(2026, 0, 2, 3, 4, 6), open: async () => repeated(huge)() },
      { name: 'after.jpg', size: 3 * MiB, lastModified: new Date(2026, 0, 2), open: async () => repeated(3 * MiB)() },
    ];
    const [ours, theirs] = await Promise.all([fingerprint(storedZip(entries)), fingerprint(yazlZip(entries))]);
    expect(ours.length).toBeGreaterThan(huge + 3 * MiB);
    expect(ours.tail).toBe(theirs.tail);
    expect(ours).toEqual(theirs);
  }, 180_000);

  it('fails when an entry has more or fewer bytes than its size says', async () => {
    const short = [{ name: 'a.jpg', size: 11, lastModified: new Date(), open: async () => inChunks(randomBytes(10)) }];
    const long = [{ name: 'a.jpg', size: 9, lastModified: new Date(), open: async () => inChunks(randomBytes(10)) }];
    await expect(concat(storedZip(short))).rejects.toThrow('a.jpg: 10 bytes read, 11 expected');
    await expect(concat(storedZip(long))).rejects.toThrow('a.jpg: 10 bytes read, 9 expected');
  });
});

interface ReadBack {
  name: string;
  bytes: Buffer;
  storedCrc: number;
  compressionMethod: number;
  /** The data descriptor after the entry's bytes, as a streaming unzipper reads it. */
  descriptor: { signature: number; crc: number; compressedSize: number; size: number };
}

/** Every entry of a zip, read with yauzl from its central directory, with the descriptor that follows its bytes. */
const readZip = async (zip: Buffer): Promise<ReadBack[]> =>
  (await unzipEntries(zip)).map(({ name, bytes, entry }) => {
    const header = entry.relativeOffsetOfLocalHeader;
    const dataStart = header + 30 + zip.readUInt16LE(header + 26) + zip.readUInt16LE(header + 28);
    const at = dataStart + entry.compressedSize;
    return {
      name,
      bytes,
      storedCrc: entry.crc32,
      compressionMethod: entry.compressionMethod,
      descriptor: {
        signature: zip.readUInt32LE(at),
        crc: zip.readUInt32LE(at + 4),
        compressedSize: zip.readUInt32LE(at + 8),
        size: zip.readUInt32LE(at + 12),
      },
    };
  });

/** Upload ids of the multipart uploads this client starts, to see afterwards whether they were aborted. */
const uploadIdsSeen: string[] = [];
s3.middlewareStack.add(
  (next, context) => async (args) => {
    const result = await next(args);
    if (context.commandName === 'CreateMultipartUploadCommand') {
      uploadIdsSeen.push((result.output as { UploadId: string }).UploadId);
    }
    return result;
  },
  { step: 'initialize', name: 'noteUploadIds' },
);

describe('a zip streamed from S3 to S3', () => {
  const prefix = `orders/${ulid()}/edited/`;
  const zipPrefix = `zips/${ulid()}/`;

  afterAll(async () => {
    for (const under of [prefix, zipPrefix]) {
      const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket(), Prefix: under }));
      const keys = (listed.Contents ?? []).map((object) => ({ Key: object.Key! }));
      if (keys.length) await s3.send(new DeleteObjectsCommand({ Bucket: bucket(), Delete: { Objects: keys } }));
    }
  });

  const put = async (filename: string, bytes: Buffer) => {
    const key = `${prefix}${filename}`;
    await s3.send(new PutObjectCommand({ Bucket: bucket(), Key: key, Body: bytes }));
    return { key, name: filename, size: bytes.length, lastModified: new Date(), bytes };
  };

  it('holds every file byte for byte, with right CRCs in the central directory and in each data descriptor', async () => {
    // More than one 8 MiB upload part in all, so the zip goes up as a multipart upload.
    const sources = [
      await put('Maple Street Café – front.jpg', randomBytes(9 * MiB + 7)),
      await put('empty.txt', Buffer.alloc(0)),
      await put('room (2).jpg', randomBytes(300_001)),
    ];
    const key = `${zipPrefix}good.zip`;
    const progress: number[] = [];
    const { sizeBytes } = await writeZipToS3({
      client: s3,
      bucket: bucket(),
      key,
      sources,
      onSourceDone: (done) => progress.push(done),
    });
    const object = await s3.send(new GetObjectCommand({ Bucket: bucket(), Key: key }));
    const zip = Buffer.from(await object.Body!.transformToByteArray());
    expect(sizeBytes).toBe(zip.length);
    expect(progress).toEqual([1, 2, 3]);

    const entries = await readZip(zip);
    expect(entries.map((entry) => entry.name)).toEqual(sources.map((source) => source.name));
    for (const [i, entry] of entries.entries()) {
      const source = sources[i]!;
      const crc = tableCrc32(source.bytes);
      expect(entry.compressionMethod, entry.name).toBe(0);
      expect(entry.bytes.equals(source.bytes), entry.name).toBe(true);
      expect(entry.storedCrc, entry.name).toBe(crc);
      expect(entry.descriptor, entry.name).toEqual({
        signature: 0x08074b50,
        crc,
        compressedSize: source.size,
        size: source.size,
      });
    }
  }, 60_000);

  const expectNoZipAndUploadAborted = async (key: string, uploadId: string | undefined) => {
    await expect(s3.send(new HeadObjectCommand({ Bucket: bucket(), Key: key }))).rejects.toMatchObject({
      $metadata: { httpStatusCode: 404 },
    });
    expect(uploadId).toBeDefined();
    await expect(
      s3.send(new ListPartsCommand({ Bucket: bucket(), Key: key, UploadId: uploadId })),
    ).rejects.toMatchObject({ name: 'NoSuchUpload' });
  };

  it('fails, leaving no zip and no parts, when a file is shorter than its record says', async () => {
    const first = await put('first.jpg', randomBytes(9 * MiB));
    const second = await put('second.jpg', randomBytes(1000));
    const key = `${zipPrefix}short.zip`;
    const seenBefore = uploadIdsSeen.length;
    await expect(
      writeZipToS3({ client: s3, bucket: bucket(), key, sources: [first, { ...second, size: 1001 }] }),
    ).rejects.toThrow('second.jpg: 1000 bytes read, 1001 expected');
    await expectNoZipAndUploadAborted(key, uploadIdsSeen[seenBefore]);
  }, 60_000);

  it('fails, leaving no zip and no parts, when a file is missing from S3', async () => {
    const first = await put('present.jpg', randomBytes(9 * MiB));
    const missing: ZipSource = { key: `${prefix}gone.jpg`, name: 'gone.jpg', size: 10, lastModified: new Date() };
    const key = `${zipPrefix}missing.zip`;
    const seenBefore = uploadIdsSeen.length;
    await expect(writeZipToS3({ client: s3, bucket: bucket(), key, sources: [first, missing] })).rejects.toMatchObject({
      name: 'NoSuchKey',
    });
    await expectNoZipAndUploadAborted(key, uploadIdsSeen[seenBefore]);
  }, 60_000);
});
