import type { ProfilePictureKind, ProfilePictureView } from '@marketplace/events/profile';
import type { MeView } from '@marketplace/events/users';
import { imageUrls } from '../../adapters/image-urls';
import type { UserRecord } from '../../data/users';
import { pictureAttributes, pictureWithoutUrls, profilePictureSizeKeys } from '../../domain/profile-pictures';
import { toMeView } from '../../http/current-user';

/**
 * A picture with its sizes' URLs once the worker has made them. They are signed here, without a
 * call to anything (a presigned URL is a computation), and as of the start of the hour like the
 * photos' (adapters/image-urls.ts): every answer within the hour carries the same URLs, so the
 * browser's cache keeps the avatar across page loads.
 */
export const pictureView = async (user: UserRecord, kind: ProfilePictureKind): Promise<ProfilePictureView | null> => {
  const picture = pictureWithoutUrls(user, kind);
  const key = user[pictureAttributes[kind].key];
  if (!picture || picture.state !== 'ready' || !key) return picture;
  const { smallKey, largeKey } = profilePictureSizeKeys(key);
  const urls = await imageUrls({ thumbnail: 'ready', thumbnailKey: smallKey, previewKey: largeKey });
  return { state: 'ready', smallUrl: urls.thumbnailUrl, largeUrl: urls.previewUrl };
};

/** The signed-in user's own record with its pictures' URLs; the avatar is the uploaded image once it is ready. */
export const meView = async (user: UserRecord): Promise<MeView> => {
  const [profileImage, businessLogo] = await Promise.all([pictureView(user, 'image'), pictureView(user, 'logo')]);
  const view = toMeView(user);
  return { ...view, profileImage, businessLogo, profileImageUrl: profileImage?.smallUrl ?? view.profileImageUrl };
};
