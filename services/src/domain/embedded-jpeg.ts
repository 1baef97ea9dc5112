/**
 * The JPEG previews a camera embeds in its RAW files (CR2, NEF, ARW, DNG and most others): a small
 * thumbnail in one IFD and usually a screen- or full-size preview in another. Where they sit
 * differs by maker (IFD0, IFD1, SubIFDs, maker notes), so instead of following each maker's
 * layout this walks every JPEG stream in the bytes, as most RAW tools do as their fallback: from
 * each start-of-image marker through its segments and entropy-coded data to its end-of-image
 * marker. Streams a browser-grade decoder cannot read (the lossless JPEG that holds a CR2's or
 * DNG's sensor data) are skipped, and nested thumbnails inside a preview's EXIF are never counted
 * separately because the walk steps over whole segments.
 */
export interface EmbeddedJpeg {
  /** Offset of the start-of-image marker. */
  start: number;
  /** Offset just past the end-of-image marker. */
  end: number;
  width: number;
  height: number;
}

export interface EmbeddedJpegScan {
  /** Complete baseline or progressive JPEGs, largest picture first. */
  jpegs: EmbeddedJpeg[];
  /** A JPEG with a readable frame header ran past the end of the bytes: more may lie beyond them. */
  truncated: boolean;
}

const SOI = Buffer.from([0xff, 0xd8, 0xff]);

/** Baseline, extended sequential and progressive Huffman frames: what libjpeg-turbo decodes. */
const isReadableFrame = (marker: number) => marker === 0xc0 || marker === 0xc1 || marker === 0xc2;
/** Every other start-of-frame (lossless, arithmetic, hierarchical); 0xc4 DHT, 0xc8 JPG and 0xcc DAC are not frames. */
const isOtherFrame = (marker: number) =>
  marker >= 0xc3 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
const isRestart = (marker: number) => marker >= 0xd0 && marker <= 0xd7;

type Walk =
  | { outcome: 'complete'; end: number; width: number; height: number; readable: boolean }
  | { outcome: 'truncated'; readable: boolean }
  | { outcome: 'invalid' };

/** Follows one JPEG stream from its start-of-image marker at `start`. */
const walkJpeg = (bytes: Buffer, start: number): Walk => {
  const n = bytes.length;
  let p = start + 2;
  let frame: { width: number; height: number; readable: boolean } | undefined;
  let inScan = false;
  for (;;) {
    if (inScan) {
      // Entropy-coded data: a 0xFF is either stuffed (FF 00), a restart marker, fill, or the next marker.
      const ff = bytes.indexOf(0xff, p);
      if (ff < 0 || ff + 1 >= n) return { outcome: 'truncated', readable: frame?.readable ?? false };
      const next = bytes[ff + 1]!;
      if (next === 0x00 || isRestart(next) || next === 0xff) {
        p = ff + (next === 0xff ? 1 : 2);
        continue;
      }
      inScan = false;
      p = ff;
    }
    if (p + 1 >= n) return frame ? { outcome: 'truncated', readable: frame.readable } : { outcome: 'invalid' };
    if (bytes[p] !== 0xff) return { outcome: 'invalid' };
    const marker = bytes[p + 1]!;
    if (marker === 0xff) {
      p += 1;
      continue;
    }
    if (marker === 0xd9) {
      return frame ? { outcome: 'complete', end: p + 2, ...frame } : { outcome: 'invalid' };
    }
    if (isRestart(marker) || marker === 0x01) {
      p += 2;
      continue;
    }
    if (marker === 0xd8 || marker === 0x00) return { outcome: 'invalid' };
    if (p + 3 >= n) return frame ? { outcome: 'truncated', readable: frame.readable } : { outcome: 'invalid' };
    const length = bytes.readUInt16BE(p + 2);
    if (length < 2) return { outcome: 'invalid' };
    if (isReadableFrame(marker) || isOtherFrame(marker)) {
      // One frame per picture (hierarchical JPEGs, with several, are not previews); a header cut off is no picture.
      if (frame || p + 8 >= n) return { outcome: 'invalid' };
      const height = bytes.readUInt16BE(p + 5);
      const width = bytes.readUInt16BE(p + 7);
      if (width === 0 || height === 0) return { outcome: 'invalid' };
      frame = { width, height, readable: isReadableFrame(marker) };
    }
    if (marker === 0xda) {
      // A scan before any frame header is no picture.
      if (!frame) return { outcome: 'invalid' };
      inScan = true;
    }
    p += 2 + length;
    if (p > n) return frame ? { outcome: 'truncated', readable: frame.readable } : { outcome: 'invalid' };
  }
};

/** Every complete, decodable JPEG in the bytes, largest picture first. */
export const findEmbeddedJpegs = (bytes: Buffer): EmbeddedJpegScan => {
  const jpegs: EmbeddedJpeg[] = [];
  let truncated = false;
  let from = 0;
  for (;;) {
    const start = bytes.indexOf(SOI, from);
    if (start < 0) break;
    const walk = walkJpeg(bytes, start);
    if (walk.outcome === 'complete') {
      if (walk.readable) jpegs.push({ start, end: walk.end, width: walk.width, height: walk.height });
      // Step over the whole stream (its EXIF thumbnail included), readable or not.
      from = walk.end;
    } else {
      if (walk.outcome === 'truncated' && walk.readable) truncated = true;
      from = start + 1;
    }
  }
  jpegs.sort((a, b) => b.width * b.height - a.width * a.height || b.end - b.start - (a.end - a.start));
  return { jpegs, truncated };
};

export const longSide = (jpeg: Pick<EmbeddedJpeg, 'width' | 'height'>) => Math.max(jpeg.width, jpeg.height);
