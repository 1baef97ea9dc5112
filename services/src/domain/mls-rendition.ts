import { MLS_MAX_BYTES, MLS_MIN_QUALITY, MLS_START_QUALITY } from '@marketplace/events/delivery';
import exifr from 'exifr';
import sharp from 'sharp';

/**
 * The MLS-ready copy of an edited photo: a JPEG at most `longEdge` pixels on its long side (never
 * enlarged), upright, in sRGB with the profile embedded, under a byte cap, carrying no metadata
 * but its orientation (upright) and the source's EXIF copyright. MLS boards re-compress and strip
 * what they are sent; a copy made to their rules is shown as the photographer delivered it.
 */

/**
 * Pictures with more pixels than this are refused before they are decoded, so a hostile header
 * cannot exhaust the worker's memory (the thumbnail worker's limit; medium-format cameras make about 150 MP).
 */
export const MLS_MAX_INPUT_PIXELS = 200_000_000;
/** Each shrink aims this far under the cap, so one more encode usually fits. */
const SHRINK_MARGIN = 0.95;
/** A copy is never made smaller than this on its long side: past it something else is wrong. */
const MIN_SHRUNK_LONG_EDGE = 256;

export interface MlsCopy {
  data: Buffer;
  width: number;
  height: number;
  bytes: number;
  quality: number;
  /** The source's EXIF copyright, kept in the copy; null when it had none. */
  copyright: string | null;
  /** How many JPEG encodes it took to fit under the cap. */
  encodes: number;
}

export type MlsRendition = { readable: true; copy: MlsCopy } | { readable: false; reason: string };

export interface MlsRenditionOptions {
  longEdge: number;
  maxBytes?: number;
  startQuality?: number;
  minQuality?: number;
}

/** What a photographer reads beside a file left out of the MLS-ready set. */
export const mlsSkipReasons = {
  unreadable: 'This file could not be read as a photo (it may be damaged or in a format we cannot convert)',
  tooManyPixels: `This photo has more than ${MLS_MAX_INPUT_PIXELS / 1_000_000} megapixels, too large to convert`,
} as const;

const within = (longEdge: number) => ({
  width: longEdge,
  height: longEdge,
  fit: 'inside' as const,
  withoutEnlargement: true,
});

/** The EXIF block sharp hands over starts with "Exif\0\0" in JPEG and WebP, with the TIFF header in PNG. */
const tiffHeaderOf = (exif: Buffer) =>
  exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? exif.subarray(6) : exif;

/**
 * The source's EXIF Copyright (IFD0), or null. A TIFF keeps its tags in its own IFD0, which sharp
 * does not hand over as EXIF, so a TIFF is read by exifr itself.
 */
const copyrightOf = async (input: string | Buffer, metadata: sharp.Metadata) => {
  const source = metadata.exif ? tiffHeaderOf(metadata.exif) : metadata.format === 'tiff' ? input : null;
  if (!source) return null;
  try {
    const tags = (await exifr.parse(source, { pick: ['Copyright'] })) as { Copyright?: unknown } | undefined;
    const copyright = typeof tags?.Copyright === 'string' ? tags.Copyright.trim() : '';
    return copyright || null;
  } catch {
    // Unreadable EXIF costs the copy its copyright line, never the copy.
    return null;
  }
};

interface Pixels {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

/** Decodes once: upright, resized, alpha flattened on white, converted to 8-bit sRGB. */
const decode = async (input: string | Buffer, longEdge: number) => {
  // failOn 'error' refuses truncated and corrupt data instead of drawing grey where it ends.
  const source = sharp(input, { limitInputPixels: MLS_MAX_INPUT_PIXELS, failOn: 'error', sequentialRead: true });
  const metadata = await source.metadata();
  const { data, info } = await source
    .autoOrient()
    .resize(within(longEdge))
    .flatten({ background: '#ffffff' })
    // From the embedded profile when there is one (Adobe RGB, Display P3, CMYK), and 16-bit to 8.
    .toColourspace('srgb')
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  return { metadata, pixels: { data, width: info.width, height: info.height, channels: info.channels } as Pixels };
};

const encoder = (pixels: Pixels, copyright: string | null) => async (quality: number, fitLongEdge?: number) => {
  let pipeline = sharp(pixels.data, { raw: { width: pixels.width, height: pixels.height, channels: pixels.channels } });
  if (fitLongEdge) pipeline = pipeline.resize(within(fitLongEdge));
  // The only EXIF written: libvips adds Orientation 1 (the pixels are upright) and the resolution.
  if (copyright) pipeline = pipeline.withExif({ IFD0: { Copyright: copyright } });
  // Full-resolution colour (no chroma subsampling): coloured edges, trim against a wall or sky,
  // stay sharp, and boards that re-compress start from a copy that lost no colour yet.
  const { data, info } = await pipeline
    .withIccProfile('srgb')
    .jpeg({ quality, chromaSubsampling: '4:4:4' })
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, quality };
};

const isTooManyPixels = (error: unknown) => /pixel limit/i.test((error as Error)?.message ?? '');

/**
 * Makes the MLS-ready copy of a picture sharp reads (JPEG, PNG, TIFF, WebP, ...). `input` is a
 * file path (read as it decodes, so a large file is never held whole) or the bytes. A file sharp
 * cannot read is answered `readable: false` with the reason to show, never thrown.
 *
 * The quality is searched down from `startQuality`: the start itself when it fits, else the
 * highest quality that fits, by bisection down to `minQuality`. When even that is over the cap,
 * the copy is shrunk at `minQuality` in proportion to the excess until it fits.
 */
export const renderMlsCopy = async (
  input: string | Buffer,
  {
    longEdge,
    maxBytes = MLS_MAX_BYTES,
    startQuality = MLS_START_QUALITY,
    minQuality = MLS_MIN_QUALITY,
  }: MlsRenditionOptions,
): Promise<MlsRendition> => {
  let decoded: Awaited<ReturnType<typeof decode>>;
  try {
    decoded = await decode(input, longEdge);
  } catch (error) {
    return {
      readable: false,
      reason: isTooManyPixels(error) ? mlsSkipReasons.tooManyPixels : mlsSkipReasons.unreadable,
    };
  }
  const copyright = await copyrightOf(input, decoded.metadata);
  const encode = encoder(decoded.pixels, copyright);
  let encodes = 0;
  const counted = async (quality: number, fitLongEdge?: number) => {
    encodes += 1;
    return encode(quality, fitLongEdge);
  };
  const done = (copy: Awaited<ReturnType<typeof encode>>): MlsRendition => ({
    readable: true,
    copy: { ...copy, bytes: copy.data.length, copyright, encodes },
  });

  const first = await counted(startQuality);
  if (first.data.length <= maxBytes) return done(first);

  // Size grows with quality, so bisection finds the highest quality under the cap in about five encodes.
  let low = minQuality;
  let high = startQuality - 1;
  let fitting: Awaited<ReturnType<typeof encode>> | null = null;
  let atMinimum: Awaited<ReturnType<typeof encode>> | null = null;
  while (low <= high) {
    const quality = Math.floor((low + high) / 2);
    const attempt = await counted(quality);
    if (quality === minQuality) atMinimum = attempt;
    if (attempt.data.length <= maxBytes) {
      fitting = attempt;
      low = quality + 1;
    } else {
      high = quality - 1;
    }
  }
  if (fitting) return done(fitting);

  // Even the lowest quality is over: fewer pixels, in proportion to the bytes over the cap.
  let last = atMinimum ?? (await counted(minQuality));
  while (last.data.length > maxBytes) {
    const currentLongEdge = Math.max(last.width, last.height);
    const scale = Math.sqrt(maxBytes / last.data.length) * SHRINK_MARGIN;
    const nextLongEdge = Math.min(currentLongEdge - 1, Math.floor(currentLongEdge * scale));
    if (nextLongEdge < MIN_SHRUNK_LONG_EDGE) {
      throw new Error(`an MLS copy under ${maxBytes} bytes would be under ${MIN_SHRUNK_LONG_EDGE} px`);
    }
    last = await counted(minQuality, nextLongEdge);
  }
  return done(last);
};
