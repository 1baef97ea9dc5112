import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand } from '@aws-sdk/client-s3';
import { acceptedArchiveExtensions } from '@marketplace/events/editor-orders';
import type { OrderEventMessage } from '@marketplace/events/order-events';
import { extensionOf } from '@marketplace/events/orders';
import type { UserEventMessage } from '@marketplace/events/user-events';
import exifr from 'exifr';
import { announce } from '../adapters/live-updates';
import { logger } from '../adapters/logger';
import { recordMetrics } from '../adapters/metrics';
import { renderProfilePicture } from '../adapters/profile-renditions';
import { NotAPicture, PREVIEW_LONG_SIDE, type Renditions, renderRenditions } from '../adapters/renditions';
import { photosBucket, s3 } from '../adapters/s3';
import { getImage, type ImageRef, recordThumbnail, type ThumbnailResult } from '../data/thumbnails';
import { getUser, recordProfilePictureState } from '../data/users';
import { findEmbeddedJpegs, longSide } from '../domain/embedded-jpeg';
import { kindOfPictureEvent, pictureAttributes, profilePictureSizeKeys } from '../domain/profile-pictures';
import { outboxConsumer } from './outbox-message';

/**
 * Makes the thumbnail (about 400 px on the long side) and the preview (about 2048 px) of every
 * uploaded original and edited file, from the outbox's image_uploaded and edited_image_uploaded
 * records the event log forwards. RAW files are drawn from the largest JPEG preview the camera
 * embedded; archives, anything that cannot be read and an original no longer in storage get a
 * placeholder. An image whose
 * thumbnail is already recorded is skipped, so a redelivered event makes nothing twice.
 * It also makes the sizes of a profile's pictures (the avatar, a photographer's logo) from the
 * user events profile_image_uploaded and business_logo_uploaded (makeProfilePictureSizes).
 */

/** Thumbnails live beside, never inside, the originals and edited folders the zips are built from. */
export const thumbnailsPrefix = (orderId: string) => `orders/${orderId}/thumbnails/`;

/** The renditions' keys, derived from the image's key so every delivery writes the same two objects. */
export const renditionKeys = ({ orderId, key }: Pick<ImageRef, 'orderId' | 'key'>) => {
  const orderPrefix = `orders/${orderId}/`;
  const name = key.startsWith(orderPrefix) ? key.slice(orderPrefix.length) : key.replaceAll('/', '_');
  return {
    thumbnailKey: `${thumbnailsPrefix(orderId)}${name}.thumb.webp`,
    previewKey: `${thumbnailsPrefix(orderId)}${name}.preview.webp`,
  };
};

/** A rendition's key never names other content, so browsers may keep it for good. */
export const RENDITION_CACHE_CONTROL = 'private, max-age=31536000, immutable';

const RAW_EXTENSIONS = new Set(['raw', 'cr2', 'nef', 'arw', 'dng']);
const ARCHIVE_EXTENSIONS = new Set<string>(acceptedArchiveExtensions);

/** A RAW's previews usually sit in its first megabytes; the whole file is read only when they do not. */
export const RAW_HEAD_BYTES = 8 * 1024 * 1024;
/**
 * Files larger than this are not decoded (a placeholder instead): every original is smaller, and
 * the worker's temporary disk holds one such file.
 */
export const MAX_PICTURE_BYTES = 400 * 1024 * 1024;

const imageOf = (event: OrderEventMessage): ImageRef | null => {
  const key = event.metadata.key;
  if (typeof key !== 'string') return null;
  if (event.eventType === 'image_uploaded') return { orderId: event.orderId, kind: 'original', key };
  if (event.eventType === 'edited_image_uploaded') return { orderId: event.orderId, kind: 'edited', key };
  return null;
};

const getObject = async (key: string, range?: string) => {
  const object = await s3().send(new GetObjectCommand({ Bucket: photosBucket(), Key: key, Range: range }));
  const size = Number(object.ContentRange?.split('/')[1] ?? object.ContentLength ?? 0);
  return { body: object.Body as Readable & { transformToByteArray(): Promise<Uint8Array> }, size };
};

const discard = (body: Readable) => body.destroy();

/** Renders a picture sharp reads itself (JPEG, PNG, TIFF, WebP, ...) from a temporary file, read as it decodes. */
const renderPicture = async (key: string): Promise<Renditions | null> => {
  const { body, size } = await getObject(key);
  if (size > MAX_PICTURE_BYTES) {
    discard(body);
    return null;
  }
  const dir = await mkdtemp(join(tmpdir(), 'thumbnail-'));
  try {
    const file = join(dir, 'source');
    await pipeline(body, createWriteStream(file));
    return await renderRenditions(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

/** The largest embedded JPEG of a RAW file that decodes, turned upright by the RAW's own orientation. */
const renderRawPreview = async (key: string): Promise<Renditions | null> => {
  const head = await getObject(key, `bytes=0-${RAW_HEAD_BYTES - 1}`);
  let bytes = Buffer.from(await head.body.transformToByteArray());
  let scan = findEmbeddedJpegs(bytes);
  const wholeFileRead = bytes.length >= head.size;
  const best = scan.jpegs[0];
  // A preview cut off at the end of the head, or none of preview size, may mean a larger one lies further on.
  if (!wholeFileRead && (scan.truncated || !best || longSide(best) < PREVIEW_LONG_SIDE)) {
    if (head.size <= MAX_PICTURE_BYTES) {
      const whole = await getObject(key);
      bytes = Buffer.from(await whole.body.transformToByteArray());
      scan = findEmbeddedJpegs(bytes);
    }
  }
  const orientation = await rawOrientation(bytes);
  for (const jpeg of scan.jpegs) {
    try {
      return await renderRenditions(bytes.subarray(jpeg.start, jpeg.end), { fallbackOrientation: orientation });
    } catch (error) {
      if (!(error instanceof NotAPicture)) throw error;
      logger.warn('an embedded preview did not decode; trying the next', { key, start: jpeg.start });
    }
  }
  return null;
};

/** The orientation in a RAW's IFD0 (they are TIFF files), which its embedded previews often lack. */
const rawOrientation = async (bytes: Buffer) => {
  try {
    const orientation = await exifr.orientation(bytes);
    return typeof orientation === 'number' ? orientation : undefined;
  } catch {
    return undefined;
  }
};

/** Archives hold no picture of their own; an empty file has none either (and no first byte to read). */
const holdsNoPicture = (image: { filename: string; size: number }) =>
  ARCHIVE_EXTENSIONS.has(extensionOf(image.filename)) || image.size === 0;

const render = async (image: ImageRef & { filename: string; size: number }) => {
  const extension = extensionOf(image.filename);
  if (holdsNoPicture(image)) return null;
  try {
    return RAW_EXTENSIONS.has(extension) ? await renderRawPreview(image.key) : await renderPicture(image.key);
  } catch (error) {
    if (error instanceof NotAPicture) return null;
    // The image is recorded only once its upload has finished and S3 reads after writes, so a missing
    // object was deleted since: a retry would fail the same way until the dead-letter queue.
    if (error instanceof NoSuchKey) {
      logger.warn('the uploaded file is no longer in storage; a placeholder instead', { key: image.key });
      return null;
    }
    throw error;
  }
};

const putRendition = (key: string, data: Buffer) =>
  s3().send(
    new PutObjectCommand({
      Bucket: photosBucket(),
      Key: key,
      Body: data,
      ContentType: 'image/webp',
      CacheControl: RENDITION_CACHE_CONTROL,
    }),
  );

export const makeThumbnails = async (ref: ImageRef) => {
  const image = await getImage(ref);
  // The event is written with the image record, so a missing one was deleted since: nothing to draw.
  if (!image) return 'no-such-image' as const;
  if (image.thumbnail) return 'already-made' as const;

  const renditions = await render(image);
  let result: ThumbnailResult;
  if (renditions) {
    const keys = renditionKeys(ref);
    await putRendition(keys.previewKey, renditions.preview.data);
    await putRendition(keys.thumbnailKey, renditions.thumbnail.data);
    result = { thumbnail: 'ready', ...keys };
  } else {
    result = { thumbnail: 'placeholder' };
    if (!holdsNoPicture(image)) recordMetrics({ ThumbnailFailures: 1 });
  }
  // Only now that the objects exist is the image marked ready, so no URL ever points at nothing.
  return (await recordThumbnail(ref, result)) ? result.thumbnail : ('already-made' as const);
};

/** A profile picture is at most 5 MB when saved; anything much larger is not read (it was replaced in S3 since). */
const MAX_PROFILE_SOURCE_BYTES = 16 * 1024 * 1024;

const deleteKeys = (keys: string[]) =>
  Promise.all(keys.map((Key) => s3().send(new DeleteObjectCommand({ Bucket: photosBucket(), Key }))));

/**
 * The sizes of the user's current picture of the kind the event names. As the identity worker does,
 * it follows the record rather than the event: the picture the user has now, if it still waits for
 * its sizes. The state is recorded on the condition that the picture is still that one; if it was
 * replaced or removed meanwhile, the sizes just made are deleted, since nothing points at them.
 */
export const makeProfilePictureSizes = async (event: Pick<UserEventMessage, 'userId' | 'eventType'>) => {
  const kind = kindOfPictureEvent(event.eventType);
  if (!kind) return 'not-a-picture-event' as const;
  const attributes = pictureAttributes[kind];
  const user = await getUser(event.userId, { consistent: true });
  const key = user?.[attributes.key];
  if (!user || !key) return 'no-picture' as const;
  if (user[attributes.state] !== 'processing') return 'already-made' as const;

  let bytes: Buffer;
  try {
    const { body, size } = await getObject(key);
    if (size > MAX_PROFILE_SOURCE_BYTES) {
      discard(body);
      return (await recordProfilePictureState(user.userId, kind, key, 'failed')) ? 'failed' : 'replaced';
    }
    bytes = Buffer.from(await body.transformToByteArray());
  } catch (error) {
    // Removed or replaced since the record was read: the newer state has its own event.
    if (error instanceof NoSuchKey) return 'replaced' as const;
    throw error;
  }
  let renditions: Awaited<ReturnType<typeof renderProfilePicture>>;
  try {
    renditions = await renderProfilePicture(bytes, kind);
  } catch (error) {
    if (!(error instanceof NotAPicture)) throw error;
    recordMetrics({ ThumbnailFailures: 1 });
    return (await recordProfilePictureState(user.userId, kind, key, 'failed')) ? 'failed' : 'replaced';
  }
  const { smallKey, largeKey } = profilePictureSizeKeys(key);
  await putRendition(smallKey, renditions.small);
  await putRendition(largeKey, renditions.large);
  if (await recordProfilePictureState(user.userId, kind, key, 'ready')) return 'ready' as const;
  await deleteKeys([smallKey, largeKey]);
  return 'replaced' as const;
};

export const handler = outboxConsumer('making a thumbnail', {
  order: async (orderEvent, record) => {
    const image = imageOf(orderEvent);
    if (!image) {
      // Not an upload event: it will never succeed, so it is logged rather than retried.
      logger.error('dropping a message that is not an upload event', { messageId: record.messageId });
      return;
    }
    const outcome = await makeThumbnails(image).catch((error: unknown) => {
      recordMetrics({ ThumbnailFailures: 1 });
      throw error;
    });
    // Told again on a redelivery ('already-made'): the delivery before may have failed to tell.
    if (outcome !== 'no-such-image') await announce({ type: 'images.ready', orderId: image.orderId });
    logger.info('thumbnail request handled', { ...image, outcome, messageId: record.messageId });
  },
  user: async (userEvent, record) => {
    const outcome = await makeProfilePictureSizes(userEvent);
    logger.info('profile picture handled', {
      userId: userEvent.userId,
      eventType: userEvent.eventType,
      outcome,
      messageId: record.messageId,
    });
  },
});
