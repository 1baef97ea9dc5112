import {
  acceptedProfilePictureTypes,
  isAcceptedProfilePicture,
  MAX_PROFILE_PICTURE_BYTES,
  type ProfilePictureKind,
  profilePictureMessages,
  profilePicturePrefix,
} from '@marketplace/events/profile';
import type { MeView, UpdateProfileInput } from '@marketplace/events/users';
import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import { ApiError, apiDelete, apiPatch, apiPut } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';
import { currentUserKey } from '../../../lib/current-user';
import { uploadContentType, uploadOneFile } from '../../../lib/uploads/direct-s3-upload';

export const PROFILE_URL = '/api/auth/profile';
export const profilePictureUrl = (kind: ProfilePictureKind) => `/api/profile/${kind}`;

/** The field a refusal names (`body.phone` -> phone), with its message; the form shows each by its field. */
export const fieldErrorsOf = (error: unknown): Record<string, string> => {
  if (!(error instanceof ApiError) || !Array.isArray(error.details)) return {};
  const errors: Record<string, string> = {};
  for (const detail of error.details as { path?: string; message?: string }[]) {
    const field = detail.path?.split('.')[1];
    if (field && detail.message && !errors[field]) errors[field] = detail.message;
  }
  return errors;
};

/** Why a chosen file cannot be a picture, before anything is sent (the server checks the same and more). */
export const pictureFileRefusal = (file: File) => {
  const typeAccepted = (acceptedProfilePictureTypes as readonly string[]).includes(uploadContentType(file));
  if (!isAcceptedProfilePicture(file.name) || !typeAccepted) return profilePictureMessages.fileType;
  if (file.size > MAX_PROFILE_PICTURE_BYTES) return profilePictureMessages.tooLarge;
  return null;
};

/**
 * Sends a picture straight to S3 as order photos go (the API signs the request, under the user's
 * own folder for the kind), then saves it; the answer is the user's record with the picture
 * 'processing' until the thumbnail worker has made its sizes.
 */
const uploadPicture = async (uid: string, kind: ProfilePictureKind, file: File) => {
  const key = await uploadOneFile(
    { id: `profile-${kind}`, signUrl: `${profilePictureUrl(kind)}/sign`, keyPrefix: profilePicturePrefix(uid, kind) },
    file,
  );
  return apiPut<MeView>(profilePictureUrl(kind), { key, filename: file.name });
};

/** Saving the profile's fields and pictures; each answer is the user's record, kept as the current user. */
export function useProfileActions() {
  const { user } = useAuth();
  const { mutate } = useSWRConfig();
  const uid = user?.uid ?? '';
  const keep = useCallback(
    (me: MeView) => mutate(currentUserKey(uid), me, { revalidate: false }).then(() => me),
    [mutate, uid],
  );
  return {
    save: useCallback(
      async (changes: UpdateProfileInput) => keep(await apiPatch<MeView>(PROFILE_URL, changes)),
      [keep],
    ),
    upload: useCallback(
      async (kind: ProfilePictureKind, file: File) => keep(await uploadPicture(uid, kind, file)),
      [keep, uid],
    ),
    remove: useCallback(
      async (kind: ProfilePictureKind) => keep(await apiDelete<MeView>(profilePictureUrl(kind))),
      [keep],
    ),
    /** Reads the record again (while a picture's sizes are being made). */
    refresh: useCallback(() => mutate(currentUserKey(uid)), [mutate, uid]),
  };
}
