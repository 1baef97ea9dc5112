import { signUploadInput } from '@marketplace/events/orders';
import {
  acceptedProfilePictureTypes,
  type ProfilePictureKind,
  profilePictureMessages,
  saveProfilePictureInput,
} from '@marketplace/events/profile';
import { deleteObject } from '../../adapters/presigned-uploads';
import { removeProfilePicture, setProfilePicture } from '../../data/users';
import { profilePictureObjects, profilePictureUploads } from '../../domain/profile-pictures';
import { BadRequest } from '../../http/errors';
import { http } from '../../http/http';
import { ok } from '../../http/responses';
import { meView } from '../auth/me-view';
import { signUploadRequests, verifyUploaded } from '../uploads/direct-upload';

/**
 * The three routes of each profile picture (the image, a photographer's logo): sign its upload
 * straight to S3, save what arrived, remove it. Signing and checking are the order photos' own
 * (handlers/uploads/direct-upload.ts) with the user's folder for the kind; the sizes are the
 * thumbnail worker's. A picture replaced or removed is deleted from S3 with its sizes.
 */

/** The upload and the sizes of a picture the user no longer has. */
const deletePicture = async (key: string | null) => {
  if (!key) return;
  await Promise.all(profilePictureObjects(key).map((each) => deleteObject(each)));
};

/** Signs the S3 requests of the upload (one PUT, as a picture is small), only under the user's own folder. */
export const signPictureHandler = (kind: ProfilePictureKind) =>
  http({ body: signUploadInput }, async ({ body, user }) =>
    ok(await signUploadRequests(profilePictureUploads[kind], user.userId, body)),
  );

/**
 * Saves an uploaded picture once the server has seen it in S3: under the user's folder for the
 * kind, within the cap, stored as a JPEG, PNG or WebP (the type was signed with the upload). A
 * refused object is deleted. The picture the user had before is deleted once the new one is saved.
 */
export const savePictureHandler = (kind: ProfilePictureKind) =>
  http({ body: saveProfilePictureInput }, async ({ body, user }) => {
    const target = profilePictureUploads[kind];
    const stored = await verifyUploaded(target, user.userId, { key: body.key, filename: body.filename });
    if (!(acceptedProfilePictureTypes as readonly string[]).includes(stored.contentType ?? '')) {
      await deleteObject(body.key);
      throw new BadRequest(profilePictureMessages.fileType);
    }
    const { user: saved, replaced } = await setProfilePicture(user.userId, kind, body.key);
    await deletePicture(replaced);
    return ok(await meView(saved));
  });

/** Removes the picture and deletes it from S3 with its sizes; removing none is no error. */
export const removePictureHandler = (kind: ProfilePictureKind) =>
  http({}, async ({ user }) => {
    const { user: saved, removed } = await removeProfilePicture(user.userId, kind);
    await deletePicture(removed);
    return ok(await meView(saved));
  });
