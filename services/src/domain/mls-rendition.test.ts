import { randomBytes } from 'node:crypto';
import { MLS_MIN_QUALITY, MLS_START_QUALITY } from '@marketplace/events/delivery';
import exifr from 'exifr';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { mlsSkipReasons, renderMlsCopy } from './mls-rendition';

/** Random pixels: the most bytes a JPEG of this size can take, so small caps bite. */
const noise = (width: number, height: number) =>
  sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } });

/**
 * The same TIFF with a Copyright tag (IFD0, tag 0x8298) added, as photo editors write it: sharp
 * writes no EXIF into a TIFF, so IFD0 is copied to the end of the file with the tag added.
 */
const withTiffCopyright = (tiff: Buffer, copyright: string) => {
  if (tiff.toString('latin1', 0, 2) !== 'II') throw new Error('a little-endian TIFF is expected');
  const ifd0At = tiff.readUInt32LE(4);
  const count = tiff.readUInt16LE(ifd0At);
  const entries = Array.from({ length: count }, (_, i) => tiff.subarray(ifd0At + 2 + i * 12, ifd0At + 14 + i * 12));
  const nextIfd = tiff.readUInt32LE(ifd0At + 2 + count * 12);
  const text = Buffer.from(`${copyright}\0`, 'latin1');
  const newIfdAt = tiff.length + (tiff.length % 2);
  const newIfdSize = 2 + (count + 1) * 12 + 4;
  const entry = Buffer.alloc(12);
  entry.writeUInt16LE(0x8298, 0);
  entry.writeUInt16LE(2, 2); // ASCII
  entry.writeUInt32LE(text.length, 4);
  entry.writeUInt32LE(newIfdAt + newIfdSize, 8);
  const sorted = [...entries, entry].sort((a, b) => a.readUInt16LE(0) - b.readUInt16LE(0));
  const ifd = Buffer.alloc(newIfdSize);
  ifd.writeUInt16LE(count + 1, 0);
  sorted.forEach((e, i) => {
    e.copy(ifd, 2 + i * 12);
  });
  ifd.writeUInt32LE(nextIfd, newIfdSize - 4);
  const out = Buffer.concat([tiff, Buffer.alloc(newIfdAt - tiff.length), ifd, text]);
  out.writeUInt32LE(newIfdAt, 4);
  return out;
};

describe('an MLS-ready copy', () => {
  it('is never enlarged, and keeps the start quality when it fits', async () => {
    const result = await renderMlsCopy(await noise(600, 400).png().toBuffer(), { longEdge: 2048 });
    expect(result).toMatchObject({ readable: true, copy: { width: 600, height: 400, quality: MLS_START_QUALITY } });
  });

  it('takes the highest quality under the cap, searched down from the start', async () => {
    const picture = await noise(1200, 800).png().toBuffer();
    const atStart = await renderMlsCopy(picture, { longEdge: 1200 });
    const atMinimum = await renderMlsCopy(picture, { longEdge: 1200, startQuality: MLS_MIN_QUALITY });
    if (!atStart.readable || !atMinimum.readable) throw new Error('unreadable');
    const cap = Math.round((atStart.copy.bytes + atMinimum.copy.bytes) / 2);

    const result = await renderMlsCopy(picture, { longEdge: 1200, maxBytes: cap });
    if (!result.readable) throw new Error('unreadable');
    expect(result.copy.bytes).toBeLessThanOrEqual(cap);
    expect(result.copy.quality).toBeGreaterThan(MLS_MIN_QUALITY);
    expect(result.copy.quality).toBeLessThan(MLS_START_QUALITY);
    expect([result.copy.width, result.copy.height]).toEqual([1200, 800]);
    // One quality higher would not have fitted.
    const higher = await renderMlsCopy(picture, {
      longEdge: 1200,
      maxBytes: cap,
      startQuality: result.copy.quality + 1,
    });
    expect(higher.readable && higher.copy.quality).toBe(result.copy.quality);
    // About five encodes: the start, then a bisection of the thirty qualities below it.
    expect(result.copy.encodes).toBeLessThanOrEqual(6);
  });

  it('is shrunk at the lowest quality when that is still over the cap', async () => {
    const picture = await noise(1600, 1200).png().toBuffer();
    const cap = 150 * 1024;
    const result = await renderMlsCopy(picture, { longEdge: 1600, maxBytes: cap });
    if (!result.readable) throw new Error('unreadable');
    expect(result.copy.bytes).toBeLessThanOrEqual(cap);
    expect(result.copy.quality).toBe(MLS_MIN_QUALITY);
    expect(result.copy.width).toBeLessThan(1600);
    expect(result.copy.width / result.copy.height).toBeCloseTo(4 / 3, 1);
    expect(result.copy.data.length).toBe(result.copy.bytes);
  });

  it("keeps a TIFF's own Copyright tag", async () => {
    const tiff = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#6080a0' } })
      .tiff({ compression: 'lzw' })
      .toBuffer();
    const signed = withTiffCopyright(tiff, 'Oak Street Photo LLC');
    expect(await exifr.parse(signed, { pick: ['Copyright'] })).toEqual({ Copyright: 'Oak Street Photo LLC' });

    const result = await renderMlsCopy(signed, { longEdge: 2048 });
    if (!result.readable) throw new Error('unreadable');
    expect(result.copy.copyright).toBe('Oak Street Photo LLC');
    expect(await exifr.parse(result.copy.data, { pick: ['Copyright'] })).toEqual({ Copyright: 'Oak Street Photo LLC' });
  });

  it('is refused, with the reason, for what is no picture and for a header claiming too many pixels', async () => {
    expect(await renderMlsCopy(randomBytes(2048), { longEdge: 2048 })).toEqual({
      readable: false,
      reason: mlsSkipReasons.unreadable,
    });
    const bomb = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#fff' } })
      .jpeg()
      .toBuffer();
    const frame = bomb.indexOf(Buffer.from([0xff, 0xc0]));
    bomb.writeUInt16BE(65_000, frame + 5);
    bomb.writeUInt16BE(65_000, frame + 7);
    expect(await renderMlsCopy(bomb, { longEdge: 2048 })).toEqual({
      readable: false,
      reason: mlsSkipReasons.tooManyPixels,
    });
  });
});
