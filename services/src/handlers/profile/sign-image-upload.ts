import { signPictureHandler } from './profile-pictures';

/** Signs the S3 request of the profile image's upload (see profile-pictures.ts). */
export const handler = signPictureHandler('image');
