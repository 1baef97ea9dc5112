import { savePictureHandler } from './profile-pictures';

/** Saves the uploaded business logo and deletes the one it replaces (see profile-pictures.ts). */
export const handler = savePictureHandler('logo');
