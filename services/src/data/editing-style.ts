import {
  acceptedStyleReferenceTypes,
  defaultEditingStyle,
  type EditingStyle,
  type EditingStyleView,
  editingStyleMessages,
} from '@marketplace/events/editing-style';
import { IMAGE_URL_LIFETIME_SECONDS } from '../adapters/image-urls';
import { deleteObject, GET_OBJECT_QUERY, presignedUrl } from '../adapters/s3-requests';
import { styleReferenceUploads } from '../domain/editing-style';
import { verifyUploaded } from '../handlers/uploads/direct-upload';
import { BadRequest } from '../http/errors';
import { writers } from './direct-writes';
import { getUser } from './users';

/**
 * The saved editing style on the photographer's user record, and the style an order takes from it
 * (docs/decisions/0107-editing-style-snapshot.md). Reference photos stay in S3 when the
 * photographer replaces or removes them from their profile: orders made before point at them.
 */
export const getSavedEditingStyle = async (userId: string) => {
  const user = (await getUser(userId, { consistent: true })) as { editingStyle?: EditingStyle } | null;
  return user?.editingStyle ?? null;
};

/**
 * Saves the style. A reference photo not saved before must be in S3 under the photographer's own
 * style folder, within the cap, as a JPEG, PNG or WebP; a refused object is deleted.
 */
export const saveEditingStyle = async (userId: string, style: EditingStyle) => {
  const saved = await getSavedEditingStyle(userId);
  const known = new Set(saved?.referencePhotos.map((photo) => photo.key) ?? []);
  for (const photo of style.referencePhotos) {
    if (known.has(photo.key)) continue;
    const stored = await verifyUploaded(styleReferenceUploads, userId, photo);
    if (!(acceptedStyleReferenceTypes as readonly string[]).includes(stored.contentType ?? '')) {
      await deleteObject(photo.key);
      throw new BadRequest(editingStyleMessages.fileType);
    }
  }
  await writers().user.patch({ userId }).set({ editingStyle: style }).go();
  return style;
};

/**
 * The style a new order keeps: the one sent with it, else the saved one, else the default. Its
 * reference photos can only be ones the photographer saved in their style (checked, so an order
 * can never point at someone else's objects).
 */
export const editingStyleForOrder = async (userId: string, requested: EditingStyle | undefined) => {
  const saved = await getSavedEditingStyle(userId);
  if (!requested) return saved ?? defaultEditingStyle;
  const known = new Set(saved?.referencePhotos.map((photo) => photo.key) ?? []);
  if (requested.referencePhotos.some((photo) => !known.has(photo.key))) {
    throw new BadRequest(editingStyleMessages.notYours, [
      { path: 'body.editingStyle.referencePhotos', message: editingStyleMessages.notYours },
    ]);
  }
  return requested;
};

/** A style as the API shows it, each reference photo with a short-lived presigned GET. */
export const editingStyleView = async (style: EditingStyle | null | undefined): Promise<EditingStyleView> => {
  const shown = style ?? defaultEditingStyle;
  const referencePhotos = await Promise.all(
    shown.referencePhotos.map(async (photo) => ({
      ...photo,
      url: await presignedUrl({
        method: 'GET',
        key: photo.key,
        query: GET_OBJECT_QUERY,
        expiresIn: IMAGE_URL_LIFETIME_SECONDS,
      }),
    })),
  );
  return { style: shown, referencePhotos, saved: !!style };
};
