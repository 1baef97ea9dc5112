import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { findEmbeddedJpegs } from './embedded-jpeg';

const aJpeg = (width: number, height: number, options: { progressive?: boolean } = {}) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } } })
    .jpeg({ quality: 80, progressive: options.progressive ?? false })
    .toBuffer();

/** Bytes a RAW might hold between its previews: sensor data, here a pattern with no 0xFF in it. */
const filler = (length: number) => Buffer.from(Array.from({ length }, (_, i) => i % 200));

/** A JPEG whose EXIF segment (APP1) carries another, smaller JPEG, as cameras' previews often do. */
const withExifThumbnail = (outer: Buffer, inner: Buffer) => {
  const payload = Buffer.concat([Buffer.from('Exif\0\0'), inner]);
  const length = Buffer.alloc(2);
  length.writeUInt16BE(payload.length + 2);
  return Buffer.concat([outer.subarray(0, 2), Buffer.from([0xff, 0xe1]), length, payload, outer.subarray(2)]);
};

/** The same JPEG with its frame marker changed to another kind (0xc3: lossless, as RAW sensor data is stored). */
const withFrameMarker = (jpeg: Buffer, marker: number) => {
  const copy = Buffer.from(jpeg);
  const sof = copy.indexOf(Buffer.from([0xff, 0xc0]));
  copy[sof + 1] = marker;
  return copy;
};

describe('finding the JPEG previews embedded in a RAW file', () => {
  it('finds every complete JPEG, largest picture first, with its place and size', async () => {
    const thumbnail = await aJpeg(160, 120);
    const preview = await aJpeg(1200, 800);
    const bytes = Buffer.concat([filler(1000), thumbnail, filler(5000), preview, filler(300)]);
    const { jpegs, truncated } = findEmbeddedJpegs(bytes);
    expect(truncated).toBe(false);
    expect(jpegs).toEqual([
      {
        start: 1000 + thumbnail.length + 5000,
        end: 1000 + thumbnail.length + 5000 + preview.length,
        width: 1200,
        height: 800,
      },
      { start: 1000, end: 1000 + thumbnail.length, width: 160, height: 120 },
    ]);
    expect(bytes.subarray(jpegs[0]!.start, jpegs[0]!.end).equals(preview)).toBe(true);
  });

  it('reads progressive JPEGs through all their scans', async () => {
    const preview = await aJpeg(900, 600, { progressive: true });
    const { jpegs } = findEmbeddedJpegs(Buffer.concat([filler(64), preview]));
    expect(jpegs).toEqual([{ start: 64, end: 64 + preview.length, width: 900, height: 600 }]);
  });

  it('does not count the thumbnail inside a preview on its own', async () => {
    const preview = withExifThumbnail(await aJpeg(1000, 700), await aJpeg(160, 120));
    const { jpegs } = findEmbeddedJpegs(Buffer.concat([filler(10), preview]));
    expect(jpegs).toEqual([{ start: 10, end: 10 + preview.length, width: 1000, height: 700 }]);
  });

  it('skips streams a browser decoder cannot read, such as the lossless JPEG of sensor data', async () => {
    const sensorData = withFrameMarker(await aJpeg(2000, 1500), 0xc3);
    const preview = await aJpeg(800, 600);
    const { jpegs } = findEmbeddedJpegs(Buffer.concat([sensorData, preview]));
    expect(jpegs).toEqual([
      { start: sensorData.length, end: sensorData.length + preview.length, width: 800, height: 600 },
    ]);
  });

  it('says when a preview runs past the end of the bytes read, and keeps the complete ones', async () => {
    const thumbnail = await aJpeg(160, 120);
    const preview = await aJpeg(1600, 1200);
    const bytes = Buffer.concat([thumbnail, filler(100), preview.subarray(0, preview.length - 200)]);
    const { jpegs, truncated } = findEmbeddedJpegs(bytes);
    expect(truncated).toBe(true);
    expect(jpegs.map((j) => [j.width, j.height])).toEqual([[160, 120]]);
  });

  it('finds nothing in bytes that only look like the start of a JPEG', () => {
    const bytes = Buffer.concat([filler(50), Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00]), filler(50)]);
    expect(findEmbeddedJpegs(bytes)).toEqual({ jpegs: [], truncated: false });
    expect(findEmbeddedJpegs(Buffer.from([0xff, 0xd8, 0xff]))).toEqual({ jpegs: [], truncated: false });
  });
});
