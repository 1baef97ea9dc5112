/**
 * A small DNG as cameras and converters lay it out: a little-endian TIFF whose IFD0 is a
 * reduced-resolution image (a small JPEG thumbnail, the RAW's orientation, DNGVersion) with one
 * SubIFD for a larger JPEG preview, and sensor data between them. Made here rather than shipped,
 * so the sample's layout is stated in code: the preview can be put past the first megabytes.
 */
interface Entry {
  tag: number;
  type: 1 | 3 | 4;
  count: number;
  value: number | number[];
}

const TYPE_SIZE = { 1: 1, 3: 2, 4: 4 } as const;

const ifd = (entries: Entry[], at: number) => {
  const sorted = [...entries].sort((a, b) => a.tag - b.tag);
  const bytes = Buffer.alloc(2 + sorted.length * 12 + 4);
  bytes.writeUInt16LE(sorted.length, 0);
  sorted.forEach((entry, i) => {
    const p = 2 + i * 12;
    bytes.writeUInt16LE(entry.tag, p);
    bytes.writeUInt16LE(entry.type, p + 2);
    bytes.writeUInt32LE(entry.count, p + 4);
    const values = Array.isArray(entry.value) ? entry.value : [entry.value];
    if (entry.count * TYPE_SIZE[entry.type] > 4) throw new Error('only values that fit in an entry');
    values.forEach((value, j) => {
      if (entry.type === 1) bytes.writeUInt8(value, p + 8 + j);
      else if (entry.type === 3) bytes.writeUInt16LE(value, p + 8 + j * 2);
      else bytes.writeUInt32LE(value, p + 8);
    });
  });
  // No next IFD.
  bytes.writeUInt32LE(0, bytes.length - 4);
  return { bytes, at };
};

const jpegImage = (jpeg: { bytes: Buffer; width: number; height: number }, offset: number) => [
  { tag: 0x00fe, type: 4 as const, count: 1, value: 1 }, // NewSubfileType: reduced resolution
  { tag: 0x0100, type: 4 as const, count: 1, value: jpeg.width },
  { tag: 0x0101, type: 4 as const, count: 1, value: jpeg.height },
  { tag: 0x0103, type: 3 as const, count: 1, value: 7 }, // Compression: JPEG
  { tag: 0x0106, type: 3 as const, count: 1, value: 6 }, // PhotometricInterpretation: YCbCr
  { tag: 0x0111, type: 4 as const, count: 1, value: offset }, // StripOffsets
  { tag: 0x0117, type: 4 as const, count: 1, value: jpeg.bytes.length }, // StripByteCounts
];

/** Sensor data stand-in: a pattern without 0xFF, so it holds no accidental JPEG marker. */
const sensorData = (length: number) => {
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i++) bytes[i] = (i * 7) % 251;
  return bytes;
};

export const aDng = ({
  thumbnail,
  preview,
  orientation = 1,
  sensorBytes = 4096,
}: {
  thumbnail: { bytes: Buffer; width: number; height: number };
  preview: { bytes: Buffer; width: number; height: number };
  orientation?: number;
  sensorBytes?: number;
}) => {
  const headerSize = 8;
  const ifd0Size = 2 + 10 * 12 + 4;
  const subIfdSize = 2 + 7 * 12 + 4;
  const subIfdAt = headerSize + ifd0Size;
  const thumbnailAt = subIfdAt + subIfdSize;
  const sensorAt = thumbnailAt + thumbnail.bytes.length;
  const previewAt = sensorAt + sensorBytes;

  const header = Buffer.from([0x49, 0x49, 0x2a, 0x00, 0, 0, 0, 0]);
  header.writeUInt32LE(headerSize, 4);
  const ifd0 = ifd(
    [
      ...jpegImage(thumbnail, thumbnailAt),
      { tag: 0x0112, type: 3, count: 1, value: orientation },
      { tag: 0x014a, type: 4, count: 1, value: subIfdAt }, // SubIFDs
      { tag: 0xc612, type: 1, count: 4, value: [1, 4, 0, 0] }, // DNGVersion 1.4
    ],
    headerSize,
  );
  const subIfd = ifd(jpegImage(preview, previewAt), subIfdAt);
  if (ifd0.bytes.length !== ifd0Size || subIfd.bytes.length !== subIfdSize) throw new Error('IFD sizes changed');
  return Buffer.concat([header, ifd0.bytes, subIfd.bytes, thumbnail.bytes, sensorData(sensorBytes), preview.bytes]);
};
