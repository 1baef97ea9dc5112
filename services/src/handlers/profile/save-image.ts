import { savePictureHandler } from './profile-pictures';

/** Saves the uploaded profile image and deletes the one it replaces (see profile-pictures.ts). */
export const handler = savePictureHandler('image');
