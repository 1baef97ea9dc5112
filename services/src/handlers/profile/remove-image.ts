import { removePictureHandler } from './profile-pictures';

/** Removes the profile image and deletes it from S3 with its sizes (see profile-pictures.ts). */
export const handler = removePictureHandler('image');
