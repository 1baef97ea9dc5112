import { GET_OBJECT_QUERY, presignedUrl } from './s3-requests';

/**
 * Presigned GETs of an image's thumbnail and preview. A URL signed afresh on every request would
 * never hit the browser's cache, so URLs are signed as of the start of the current hour with a
 * lifetime that covers the rest of that hour and a margin: every answer within the hour carries
 * the same URL (the renditions never change under their keys and are stored immutable), and a
 * URL handed out at 59 minutes past still works for an hour after.
 */
const HOUR_MS = 60 * 60 * 1000;
export const IMAGE_URL_LIFETIME_SECONDS = 2 * 60 * 60;

export interface RenditionRecord {
  thumbnail?: 'ready' | 'placeholder' | undefined;
  thumbnailKey?: string | undefined;
  previewKey?: string | undefined;
}

export const signingHourOf = (now: Date) => new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS);

const presignedGet = (key: string, signingDate: Date) =>
  presignedUrl({ method: 'GET', key, query: GET_OBJECT_QUERY, expiresIn: IMAGE_URL_LIFETIME_SECONDS, signingDate });

/** Null URLs unless the renditions are ready (pending, or a placeholder the browser draws itself). */
export const imageUrls = async (image: RenditionRecord, now = new Date()) => {
  if (image.thumbnail !== 'ready' || !image.thumbnailKey || !image.previewKey) {
    return { thumbnailUrl: null, previewUrl: null };
  }
  const signingDate = signingHourOf(now);
  const [thumbnailUrl, previewUrl] = await Promise.all([
    presignedGet(image.thumbnailKey, signingDate),
    presignedGet(image.previewKey, signingDate),
  ]);
  return { thumbnailUrl, previewUrl };
};
