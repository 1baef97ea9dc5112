import { signPictureHandler } from './profile-pictures';

/** Signs the S3 request of the business logo's upload (see profile-pictures.ts). */
export const handler = signPictureHandler('logo');
