import { createHash } from 'node:crypto';
import {
  isAcceptedProfilePicture,
  MAX_PROFILE_PICTURE_BYTES,
  type ProfilePictureKind,
  type ProfilePictureView,
  profilePictureMessages,
  profilePicturePrefix,
} from '@marketplace/events/profile';
import type { UploadTarget } from './upload-rules';

/**
 * A profile's pictures as direct uploads: the same signing and checking as order photos
 * (handlers/uploads/direct-upload.ts), under the user's own folder for the kind instead of an
 * order's. The folder is named by the signed-in user's id, never by the request.
 */
export const profilePictureUploads: Record<ProfilePictureKind, UploadTarget> = {
  image: {
    prefix: (userId) => profilePicturePrefix(userId, 'image'),
    isAccepted: isAcceptedProfilePicture,
    fileTypeMessage: profilePictureMessages.fileType,
    folderMessage: 'A profile image can only be uploaded to your own profile folder',
    noun: 'profile image',
    maxBytes: MAX_PROFILE_PICTURE_BYTES,
  },
  logo: {
    prefix: (userId) => profilePicturePrefix(userId, 'logo'),
    isAccepted: isAcceptedProfilePicture,
    fileTypeMessage: profilePictureMessages.fileType,
    folderMessage: 'A logo can only be uploaded to your own profile folder',
    noun: 'logo',
    maxBytes: MAX_PROFILE_PICTURE_BYTES,
  },
};

/** Where the worker puts pictures' sizes: beside the uploads, in a folder the browser may not write. */
export const PROFILE_SIZES_PREFIX = 'profiles/sizes/';

/**
 * The two sizes of an uploaded picture, derived from its key so that a redelivered event writes
 * the same objects and a removal knows what to delete without having recorded them. Named by a
 * hash of the key, so a logo's URL on a share page names neither the user nor the file.
 */
export const profilePictureSizeKeys = (key: string) => {
  const name = createHash('sha256').update(key).digest('base64url');
  return {
    smallKey: `${PROFILE_SIZES_PREFIX}${name}.small.webp`,
    largeKey: `${PROFILE_SIZES_PREFIX}${name}.large.webp`,
  };
};

/** Every object a picture is: the upload and its sizes (removed together). */
export const profilePictureObjects = (key: string) => {
  const { smallKey, largeKey } = profilePictureSizeKeys(key);
  return [key, smallKey, largeKey];
};

/** The user record's attributes that hold each kind, and the outbox event a new one sends. */
export const pictureAttributes = {
  image: { key: 'profileImageKey', state: 'profileImageState', event: 'profile_image_uploaded' },
  logo: { key: 'logoKey', state: 'logoState', event: 'business_logo_uploaded' },
} as const satisfies Record<ProfilePictureKind, { key: string; state: string; event: string }>;

export const kindOfPictureEvent = (eventType: string): ProfilePictureKind | null =>
  eventType === 'profile_image_uploaded' ? 'image' : eventType === 'business_logo_uploaded' ? 'logo' : null;

/** A picture's state as the record holds it, before its URLs are signed; null when there is none. */
export const pictureWithoutUrls = (
  user: Partial<Record<(typeof pictureAttributes)[ProfilePictureKind]['key' | 'state'], string>>,
  kind: ProfilePictureKind,
): ProfilePictureView | null => {
  const attributes = pictureAttributes[kind];
  if (!user[attributes.key]) return null;
  const state = (user[attributes.state] as ProfilePictureView['state'] | undefined) ?? 'processing';
  return { state, smallUrl: null, largeUrl: null };
};
