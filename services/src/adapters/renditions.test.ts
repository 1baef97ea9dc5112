import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MAX_INPUT_PIXELS, NotAPicture, orient, renderRenditions } from './renditions';

/** 64x32, four coloured quadrants: every turn and mirror of it looks different. */
const QUADRANTS = [
  { r: 255, g: 0, b: 0 },
  { r: 0, g: 255, b: 0 },
  { r: 0, g: 0, b: 255 },
  { r: 255, g: 255, b: 0 },
];
const aQuadrantPicture = () => {
  const width = 64;
  const height = 32;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const colour = QUADRANTS[(y < height / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1)]!;
      pixels.set([colour.r, colour.g, colour.b], (y * width + x) * 3);
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
};

/** The colour at the centre of each quadrant of a decoded picture. */
const quadrantColours = async (pipeline: sharp.Sharp) => {
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => {
    const i = (Math.floor(y) * info.width + Math.floor(x)) * info.channels;
    return [data[i]! > 128, data[i + 1]! > 128, data[i + 2]! > 128];
  };
  const { width: w, height: h } = info;
  return {
    size: [w, h],
    colours: [at(w / 4, h / 4), at((3 * w) / 4, h / 4), at(w / 4, (3 * h) / 4), at((3 * w) / 4, (3 * h) / 4)],
  };
};

const aJpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 30, g: 90, b: 160 } } })
    .jpeg()
    .toBuffer();

describe('turning a picture upright by an orientation it does not carry itself', () => {
  it('matches what sharp does with the same orientation in the EXIF, for all eight', async () => {
    const picture = await aQuadrantPicture();
    for (let orientation = 1; orientation <= 8; orientation++) {
      const tagged = await sharp(picture).withMetadata({ orientation }).jpeg({ quality: 100 }).toBuffer();
      const expected = await quadrantColours(sharp(tagged).autoOrient());
      const actual = await quadrantColours(orient(sharp(picture), orientation));
      expect(actual, `orientation ${orientation}`).toEqual(expected);
    }
  });
});

describe('renditions', () => {
  it('are WebP: a thumbnail 400 px and a preview 2048 px on the long side', async () => {
    const { thumbnail, preview } = await renderRenditions(await aJpeg(3000, 2000));
    expect(await sharp(thumbnail.data).metadata()).toMatchObject({ format: 'webp', width: 400, height: 267 });
    expect(await sharp(preview.data).metadata()).toMatchObject({ format: 'webp', width: 2048, height: 1365 });
  });

  it('never enlarge a small picture', async () => {
    const { thumbnail, preview } = await renderRenditions(await aJpeg(300, 500));
    expect([thumbnail.width, thumbnail.height]).toEqual([240, 400]);
    expect([preview.width, preview.height]).toEqual([300, 500]);
  });

  it("follow the picture's own orientation over the one given for pictures without it", async () => {
    const tagged = await sharp(await aJpeg(600, 300))
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const { preview } = await renderRenditions(tagged, { fallbackOrientation: 3 });
    expect([preview.width, preview.height]).toEqual([300, 600]);
    const untagged = await renderRenditions(await aJpeg(600, 300), { fallbackOrientation: 8 });
    expect([untagged.preview.width, untagged.preview.height]).toEqual([300, 600]);
  });

  it('are refused for a truncated picture, bytes that are no picture, and a header claiming too many pixels', async () => {
    const jpeg = await aJpeg(800, 600);
    const truncated = jpeg.subarray(0, Math.floor(jpeg.length / 2));
    const huge = Buffer.from(jpeg);
    const sof = huge.indexOf(Buffer.from([0xff, 0xc0]));
    huge.writeUInt16BE(60_000, sof + 5);
    huge.writeUInt16BE(60_000, sof + 7);
    expect(60_000 * 60_000).toBeGreaterThan(MAX_INPUT_PIXELS);
    for (const input of [truncated, Buffer.from('PK\u0003\u0004 not a picture'), huge]) {
      await expect(renderRenditions(input)).rejects.toBeInstanceOf(NotAPicture);
    }
  });
});
