import { extensionOf } from './orders';
import * as z from './zod';

/**
 * The pictures of a profile: everyone's profile image (the avatar), and a photographer's business
 * logo (shown on their share pages). Both go from the browser straight to S3 with requests the API
 * signs, like order photos; the thumbnail worker makes their sizes.
 */
export const profilePictureKinds = ['image', 'logo'] as const;
export type ProfilePictureKind = (typeof profilePictureKinds)[number];

/** A picture may be at most this large: a phone photo fits, and the worker reads it whole. */
export const MAX_PROFILE_PICTURE_BYTES = 5 * 1024 * 1024;
export const acceptedProfilePictureExtensions = ['jpg', 'jpeg', 'png', 'webp'] as const;
/** What S3 must hold for a picture to count: the browser states the type when the upload is signed. */
export const acceptedProfilePictureTypes = ['image/jpeg', 'image/png', 'image/webp'] as const;

export const isAcceptedProfilePicture = (filename: string) =>
  (acceptedProfilePictureExtensions as readonly string[]).includes(extensionOf(filename));

export const profilePictureContentType = (filename: string) => {
  switch (extensionOf(filename)) {
    case 'jpg':
    case 'jpeg':
      return 'image/jpeg';
    case 'png':
      return 'image/png';
    case 'webp':
      return 'image/webp';
    default:
      return 'application/octet-stream';
  }
};

/** Where the browser may write a picture of this user: one name directly under this folder. */
export const profilePicturePrefix = (userId: string, kind: ProfilePictureKind) => `profiles/${userId}/${kind}/`;

export const profilePictureMessages = {
  fileType: 'The picture must be a JPEG, PNG or WebP image',
  tooLarge: `The picture may be at most ${MAX_PROFILE_PICTURE_BYTES / (1024 * 1024)} MB`,
  notAPicture: 'This file could not be read as a picture. Please choose another.',
} as const;

/** PUT /api/profile/image and /api/profile/logo: the key the signed upload wrote, and the file's name. */
export const saveProfilePictureInput = /* @__PURE__ */ z.schema(() =>
  z.strictObject({
    key: z.string().check(z.minLength(1), z.maxLength(1024)),
    filename: z.string().check(z.trim(), z.minLength(1, 'The file name is missing'), z.maxLength(255)),
  }),
);
export type SaveProfilePictureInput = z.infer<typeof saveProfilePictureInput>;

/**
 * A picture as the web shows it. 'processing' until the thumbnail worker has made its sizes;
 * 'failed' when the file was no picture it could read. URLs are presigned and short-lived.
 */
export interface ProfilePictureView {
  state: 'processing' | 'ready' | 'failed';
  /** The avatar (96 px square), or the logo at 1x (at most 240 x 80). */
  smallUrl: string | null;
  /** The avatar at 256 px, or the logo at 2x. */
  largeUrl: string | null;
}

/** The business a share page names above the property: never more than these two. */
export interface SharedBusinessView {
  name: string | null;
  logoUrl: string | null;
}
