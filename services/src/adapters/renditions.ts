import sharp, { type Sharp } from 'sharp';

/**
 * The two WebP renditions of an uploaded picture: a thumbnail for grids and a screen-sized
 * preview for the lightbox and the before/after slider. Both keep the picture's proportions,
 * are turned upright by its EXIF orientation, and are never larger than the picture itself.
 */
export const THUMBNAIL_LONG_SIDE = 400;
export const PREVIEW_LONG_SIDE = 2048;

/**
 * Pictures with more pixels than this are refused before they are decoded, so a hostile header
 * (a few bytes claiming a gigapixel) cannot exhaust the worker's memory. Medium-format cameras
 * make about 150 megapixels.
 */
export const MAX_INPUT_PIXELS = 200_000_000;

/** The input is no picture sharp can read (an archive, a truncated or corrupt file, too many pixels). */
export class NotAPicture extends Error {
  constructor(cause: unknown) {
    super(`not a readable picture: ${(cause as Error)?.message ?? cause}`, { cause });
    this.name = 'NotAPicture';
  }
}

export interface Rendition {
  data: Buffer;
  width: number;
  height: number;
}

export interface Renditions {
  thumbnail: Rendition;
  preview: Rendition;
}

/**
 * Turns a picture upright by an EXIF orientation value (1-8) sharp cannot read from the picture
 * itself: a RAW's embedded preview often carries none, while the RAW's own IFD0 does. sharp
 * mirrors before it rotates.
 */
export const orient = (pipeline: Sharp, orientation: number): Sharp => {
  switch (orientation) {
    case 2:
      return pipeline.flop();
    case 3:
      return pipeline.rotate(180);
    case 4:
      return pipeline.flip();
    case 5:
      return pipeline.flip().rotate(90);
    case 6:
      return pipeline.rotate(90);
    case 7:
      return pipeline.flop().rotate(90);
    case 8:
      return pipeline.rotate(270);
    default:
      return pipeline;
  }
};

const within = (longSide: number) => ({
  width: longSide,
  height: longSide,
  fit: 'inside' as const,
  withoutEnlargement: true,
});

/**
 * Decodes the picture once, at preview size, and encodes both renditions from those pixels.
 * `input` is a file path (read as it decodes) or the bytes; `fallbackOrientation` applies only
 * when the picture has no orientation of its own.
 */
export const renderRenditions = async (
  input: string | Buffer,
  { fallbackOrientation }: { fallbackOrientation?: number | undefined } = {},
): Promise<Renditions> => {
  let pixels: { data: Buffer; info: sharp.OutputInfo };
  try {
    // failOn 'error' refuses truncated and corrupt data instead of drawing grey where it ends.
    const source = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', sequentialRead: true });
    const { orientation } = await source.metadata();
    const upright = orientation || !fallbackOrientation ? source.autoOrient() : orient(source, fallbackOrientation);
    pixels = await upright
      .resize(within(PREVIEW_LONG_SIDE))
      .toColourspace('srgb')
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw new NotAPicture(error);
  }
  const { width, height, channels } = pixels.info;
  const fromPixels = () => sharp(pixels.data, { raw: { width, height, channels } });
  const encode = async (pipeline: Sharp, quality: number): Promise<Rendition> => {
    const { data, info } = await pipeline.webp({ quality }).toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  };
  return {
    preview: await encode(fromPixels(), 82),
    thumbnail: await encode(fromPixels().resize(within(THUMBNAIL_LONG_SIDE)), 78),
  };
};
