import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { MAX_PROFILE_PICTURE_BYTES, profilePictureMessages } from '@marketplace/events/profile';
import { type MeView, profileMessages } from '@marketplace/events/users';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { profilePictureSizeKeys } from '../src/domain/profile-pictures';
import { aPng, aSavedPicture, objectExists, pictureKeyFor, sendToS3, uploadPicture } from './profile-pictures';
import { anEditor, aPhotographer, as, db, waitFor } from './support';

const storage = () => new S3Client({ region: 'us-east-1', endpoint: process.env.S3_ENDPOINT, forcePathStyle: true });

const sizeOf = async (key: string) => {
  const object = await storage().send(new GetObjectCommand({ Bucket: process.env.PHOTOS_BUCKET!, Key: key }));
  const meta = await sharp(Buffer.from(await object.Body!.transformToByteArray())).metadata();
  return { width: meta.width, height: meta.height, format: meta.format, cacheControl: object.CacheControl };
};

const userRecord = async (userId: string) => (await db().user.get({ userId }).go({ consistent: true })).data;

describe('PATCH /api/auth/profile', () => {
  it('changes the display name and profile image', async () => {
    const account = await aPhotographer({ displayName: 'Old Name' });

    const response = await as(account).patch('/api/auth/profile', {
      displayName: '  Jordan Wide  ',
      profileImageUrl: 'https://images.example.com/jordan.png',
    });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      displayName: 'Jordan Wide',
      profileImageUrl: 'https://images.example.com/jordan.png',
    });
    expect((await as(account).get('/api/auth/me')).body.displayName).toBe('Jordan Wide');
  });

  it('removes the profile image when sent null', async () => {
    const account = await aPhotographer();
    await as(account).patch('/api/auth/profile', { profileImageUrl: 'https://images.example.com/a.png' });

    const response = await as(account).patch('/api/auth/profile', { profileImageUrl: null });

    expect(response.status).toBe(200);
    expect(response.body.profileImageUrl).toBeNull();
  });

  it("keeps a phone as E.164 and a photographer's business name; null removes them", async () => {
    const account = await aPhotographer();

    const saved = await as(account).patch('/api/auth/profile', {
      phone: ' +1 (555) 123-4567 ',
      businessName: '  Bright Rooms Photography ',
    });

    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({ phone: '+15551234567', businessName: 'Bright Rooms Photography' });
    const me = (await as(account).get('/api/auth/me')).body as MeView;
    expect(me).toMatchObject({ phone: '+15551234567', businessName: 'Bright Rooms Photography' });
    expect(me.profileImage).toBeNull();
    expect(me.businessLogo).toBeNull();

    const cleared = await as(account).patch('/api/auth/profile', { phone: null, businessName: null });
    expect(cleared.body).toMatchObject({ phone: null, businessName: null });
    const record = await userRecord(account.uid);
    expect(record?.phone).toBeUndefined();
    expect(record?.businessName).toBeUndefined();
  });

  it('rejects bad fields with 400, a clear message and changes nothing', async () => {
    const account = await aPhotographer({ displayName: 'Kept Name' });
    await as(account).patch('/api/auth/profile', { phone: '+44 20 7946 0958', businessName: 'Kept Business' });
    const before = await userRecord(account.uid);

    for (const [body, message] of [
      [{ displayName: '   ' }, profileMessages.displayNameEmpty],
      [{ displayName: 'x'.repeat(101) }, profileMessages.displayNameTooLong],
      [{ displayName: 'Line\nbreak' }, profileMessages.controlCharacters],
      [{ phone: '555 123 4567' }, profileMessages.phone],
      [{ phone: '+0 555 123 4567' }, profileMessages.phone],
      [{ phone: '+1 555 CALL NOW' }, profileMessages.phone],
      [{ phone: '+123' }, profileMessages.phone],
      [{ phone: `+1${'2'.repeat(40)}` }, profileMessages.phoneTooLong],
      [{ phone: 15551234567 }, undefined],
      [{ businessName: '' }, profileMessages.businessNameEmpty],
      [{ businessName: 'b'.repeat(101) }, profileMessages.businessNameTooLong],
      [{ profileImageUrl: 'javascript:alert(1)' }, undefined],
      [{ profileImageUrl: 'not a url' }, undefined],
      [{ roles: ['admin'] }, undefined],
      [{ phone: '+15551234567', displayName: '' }, profileMessages.displayNameEmpty],
      [{}, profileMessages.nothing],
    ] as const) {
      const response = await as(account).patch('/api/auth/profile', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error).toBe('VALIDATION_FAILED');
      if (message) expect(JSON.stringify(response.body), JSON.stringify(body)).toContain(message);
    }

    expect(await userRecord(account.uid)).toEqual(before);
  });

  it('refuses a business name from someone who is not a photographer, and writes nothing', async () => {
    const editor = await anEditor();
    const before = await userRecord(editor.uid);

    const response = await as(editor).patch('/api/auth/profile', { businessName: 'Edits Inc', phone: '+15550001111' });

    expect(response.status).toBe(403);
    expect(response.body.message).toBe(profileMessages.businessNameRole);
    expect(await userRecord(editor.uid)).toEqual(before);
  });
});

describe('the profile image', () => {
  it('goes straight to S3, gets its avatar sizes from the worker, and becomes the avatar', async () => {
    const account = await aPhotographer();
    const { key, me } = await aSavedPicture(account, 'image', await aPng(900, 600));

    const { smallKey, largeKey } = profilePictureSizeKeys(key);
    expect(await sizeOf(smallKey)).toMatchObject({ width: 96, height: 96, format: 'webp' });
    expect(await sizeOf(largeKey)).toMatchObject({ width: 256, height: 256, format: 'webp' });
    // The avatar is the small size, presigned; the sizes' keys name neither the user nor the file.
    expect(me.profileImageUrl).toBe(me.profileImage?.smallUrl);
    expect(new URL(me.profileImage!.smallUrl!).pathname).toContain(smallKey);
    expect(smallKey).not.toContain(account.uid);
    const fetched = await sendToS3(me.profileImage!.smallUrl!, { method: 'GET' });
    expect(fetched.status).toBe(200);
    // The same URL on every answer within the hour, so the browser's cache holds the avatar.
    expect(((await as(account).get('/api/auth/me')).body as MeView).profileImageUrl).toBe(me.profileImageUrl);
  });

  it('replacing it deletes the old upload and its sizes; removing it deletes the new ones', async () => {
    const account = await aPhotographer();
    const first = await aSavedPicture(account, 'image');
    const firstObjects = [first.key, ...Object.values(profilePictureSizeKeys(first.key))];
    for (const key of firstObjects) expect(await objectExists(key), key).toBe(true);

    const second = await aSavedPicture(account, 'image', await aPng(300, 300, { r: 10, g: 200, b: 10 }));
    for (const key of firstObjects) expect(await objectExists(key), key).toBe(false);
    const secondObjects = [second.key, ...Object.values(profilePictureSizeKeys(second.key))];
    for (const key of secondObjects) expect(await objectExists(key), key).toBe(true);

    const removed = await as(account).delete('/api/profile/image');
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ profileImage: null, profileImageUrl: null });
    for (const key of secondObjects) expect(await objectExists(key), key).toBe(false);
    const record = await userRecord(account.uid);
    expect(record?.profileImageKey).toBeUndefined();
    expect(record?.profileImageState).toBeUndefined();
    // Removing nothing is no error.
    expect((await as(account).delete('/api/profile/image')).status).toBe(200);
  });

  it('saving the same upload twice changes nothing and deletes nothing', async () => {
    const account = await aPhotographer();
    const { key } = await aSavedPicture(account, 'image');
    const again = await as(account).put('/api/profile/image', { key, filename: 'picture.png' });
    expect(again.status).toBe(200);
    expect(again.body.profileImage.state).toBe('ready');
    expect(await objectExists(key)).toBe(true);
  });

  it("signs only the user's own folder, pictures of an accepted type and within the cap", async () => {
    const account = await aPhotographer();
    const other = await aPhotographer();
    const sign = (body: object) => as(account).post('/api/profile/image/sign', body);

    const othersFolder = await sign({ method: 'PUT', key: pictureKeyFor(other, 'image', 'a.png'), size: 10 });
    expect(othersFolder.status).toBe(403);
    const logoFolder = await sign({ method: 'PUT', key: pictureKeyFor(account, 'logo', 'a.png'), size: 10 });
    expect(logoFolder.status).toBe(403);
    const sizesFolder = await sign({ method: 'PUT', key: `profiles/sizes/${account.uid}.small.webp`, size: 10 });
    expect(sizesFolder.status).toBe(403);
    const gif = await sign({ method: 'PUT', key: pictureKeyFor(account, 'image', 'a.gif'), size: 10 });
    expect(gif.status).toBe(400);
    expect(gif.body.message).toBe(profilePictureMessages.fileType);
    const tooLarge = await sign({
      method: 'PUT',
      key: pictureKeyFor(account, 'image', 'a.jpg'),
      contentType: 'image/jpeg',
      size: MAX_PROFILE_PICTURE_BYTES + 1,
    });
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body.message).toContain('at most 5 MB');
    const nested = await sign({ method: 'PUT', key: `${pictureKeyFor(account, 'image', '')}x/../a.png`, size: 10 });
    expect(nested.status).toBe(400);
  });

  it('refuses to save what S3 does not hold, or holds as another type, and writes nothing', async () => {
    const account = await aPhotographer();
    const before = await userRecord(account.uid);

    const missing = await as(account).put('/api/profile/image', {
      key: pictureKeyFor(account, 'image', 'never-sent.png'),
      filename: 'never-sent.png',
    });
    expect(missing.status).toBe(404);

    // Signed as a PDF under a .png name: S3 holds it as a PDF, so it is refused and deleted.
    const pdfKey = await uploadPicture(account, 'image', Buffer.from('%PDF-1.4 not a picture'), {
      contentType: 'application/pdf',
    });
    const wrongType = await as(account).put('/api/profile/image', { key: pdfKey, filename: 'picture.png' });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.message).toBe(profilePictureMessages.fileType);
    expect(await objectExists(pdfKey)).toBe(false);

    const othersKey = await as(account).put('/api/profile/image', {
      key: pictureKeyFor(await aPhotographer(), 'image', 'a.png'),
      filename: 'a.png',
    });
    expect(othersKey.status).toBe(403);
    for (const body of [{}, { key: '' }, { key: 'a', filename: 'a.png', extra: 1 }]) {
      const response = await as(account).put('/api/profile/image', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
    }

    expect(await userRecord(account.uid)).toEqual(before);
  });

  it("marks a file that is no picture as failed, and the avatar stays the initials' until another", async () => {
    const account = await aPhotographer();
    const key = await uploadPicture(account, 'image', Buffer.from('not really a png at all'));
    const saved = await as(account).put('/api/profile/image', { key, filename: 'picture.png' });
    expect(saved.status).toBe(200);
    expect(saved.body.profileImage).toEqual({ state: 'processing', smallUrl: null, largeUrl: null });
    const me = await waitFor(
      async () => (await as(account).get('/api/auth/me')).body as MeView,
      (view) => view.profileImage?.state !== 'processing',
      30_000,
    );
    expect(me.profileImage).toEqual({ state: 'failed', smallUrl: null, largeUrl: null });
    expect(me.profileImageUrl).toBeNull();
  });
});

describe('the business logo', () => {
  it('is a photographer’s: its sizes keep its proportions and are never enlarged', async () => {
    const photographer = await aPhotographer();
    const { key, me } = await aSavedPicture(photographer, 'logo', await aPng(1200, 300));
    const { smallKey, largeKey } = profilePictureSizeKeys(key);
    expect(await sizeOf(smallKey)).toMatchObject({ width: 240, height: 60, format: 'webp' });
    expect(await sizeOf(largeKey)).toMatchObject({ width: 480, height: 120, format: 'webp' });
    expect(me.businessLogo?.largeUrl).toContain(largeKey);
    // The avatar is not the logo.
    expect(me.profileImage).toBeNull();

    const removed = await as(photographer).delete('/api/profile/logo');
    expect(removed.body.businessLogo).toBeNull();
    for (const each of [key, smallKey, largeKey]) expect(await objectExists(each), each).toBe(false);
  });

  it('is refused to an editor', async () => {
    const editor = await anEditor();
    const key = pictureKeyFor(editor, 'logo', 'logo.png');
    expect((await as(editor).post('/api/profile/logo/sign', { method: 'PUT', key, size: 10 })).status).toBe(403);
    expect((await as(editor).put('/api/profile/logo', { key, filename: 'logo.png' })).status).toBe(403);
    expect((await as(editor).delete('/api/profile/logo')).status).toBe(403);
  });
});
