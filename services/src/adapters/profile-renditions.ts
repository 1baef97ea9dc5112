import type { ProfilePictureKind } from '@marketplace/events/profile';
import sharp, { type ResizeOptions } from 'sharp';
import { MAX_INPUT_PIXELS, NotAPicture } from './renditions';

/**
 * The sizes of a profile's pictures (WebP), turned upright by their EXIF orientation. An avatar is
 * a square cut from the middle (96 px for the navigation, 256 px for the profile page); a logo keeps
 * its proportions and its transparency, within 240 x 80 and twice that for sharp screens, and is
 * never enlarged.
 */
const sizes: Record<ProfilePictureKind, { small: ResizeOptions; large: ResizeOptions }> = {
  image: {
    small: { width: 96, height: 96, fit: 'cover' },
    large: { width: 256, height: 256, fit: 'cover' },
  },
  logo: {
    small: { width: 240, height: 80, fit: 'inside', withoutEnlargement: true },
    large: { width: 480, height: 160, fit: 'inside', withoutEnlargement: true },
  },
};

export interface ProfileRenditions {
  small: Buffer;
  large: Buffer;
}

export const renderProfilePicture = async (input: Buffer, kind: ProfilePictureKind): Promise<ProfileRenditions> => {
  try {
    // failOn 'error' refuses truncated and corrupt data; the pixel limit, a header claiming a gigapixel.
    const source = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).autoOrient();
    const encode = (resize: ResizeOptions) => source.clone().resize(resize).webp({ quality: 85 }).toBuffer();
    const [small, large] = await Promise.all([encode(sizes[kind].small), encode(sizes[kind].large)]);
    return { small, large };
  } catch (error) {
    throw new NotAPicture(error);
  }
};
