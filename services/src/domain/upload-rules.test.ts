import { MAX_EDITED_BYTES } from '@marketplace/events/editor-orders';
import { editedPrefix, MAX_ORIGINAL_BYTES, orderFormMessages, originalsPrefix } from '@marketplace/events/orders';
import { describe, expect, it } from 'vitest';
import {
  baseFilename,
  EDITED_FILE_TYPE,
  editedContentType,
  editedUploads,
  exceedsOriginalCap,
  keyRefusal,
  MAX_ORIGINAL_PARTS,
  orderAcceptsOriginals,
  originalKeyFor,
  originalKeyRefusal,
  statedSizeRefusal,
  uploadStepFor,
} from './upload-rules';

const orderId = '01JORDERAAAAAAAAAAAAAAAAAA';
const key = `${originalsPrefix(orderId)}6f1c2d3e-0000-4000-8000-000000000000-front.jpg`;

describe('originalKeyRefusal', () => {
  it('accepts one accepted photo directly under the order originals', () => {
    expect(originalKeyRefusal(orderId, key)).toBeNull();
    expect(originalKeyRefusal(orderId, `${originalsPrefix(orderId)}a-IMG_0001.CR2`)).toBeNull();
  });

  it("forbids keys under another order's prefix or outside the originals", () => {
    expect(originalKeyRefusal(orderId, `${originalsPrefix('01JOTHERAAAAAAAAAAAAAAAAAA')}a.jpg`)?.kind).toBe(
      'forbidden',
    );
    expect(originalKeyRefusal(orderId, `orders/${orderId}/edited/a.jpg`)?.kind).toBe('forbidden');
    expect(originalKeyRefusal(orderId, 'a.jpg')?.kind).toBe('forbidden');
  });

  it('refuses dot-dot tricks, nested folders and control characters', () => {
    for (const trick of [
      `${originalsPrefix(orderId)}../../other/originals/a.jpg`,
      `${originalsPrefix(orderId)}..`,
      `${originalsPrefix(orderId)}nested/a.jpg`,
      `${originalsPrefix(orderId)}a..jpg`,
      `${originalsPrefix(orderId)}a\u0000.jpg`,
      `${originalsPrefix(orderId)}a\\b.jpg`,
      `${originalsPrefix(orderId)}`,
    ]) {
      expect(originalKeyRefusal(orderId, trick)?.kind, trick).toBe('invalid');
    }
  });

  it('refuses file types the spec does not accept with the form message', () => {
    for (const name of ['a.exe', 'a.gif', 'a', 'a.jpg.exe']) {
      expect(originalKeyRefusal(orderId, `${originalsPrefix(orderId)}${name}`)).toEqual({
        kind: 'invalid',
        message: orderFormMessages.fileType,
      });
    }
  });
});

describe('the size cap', () => {
  it('needs a stated size to start an upload and refuses one above the cap', () => {
    expect(statedSizeRefusal(undefined)?.kind).toBe('invalid');
    expect(statedSizeRefusal(MAX_ORIGINAL_BYTES)).toBeNull();
    expect(statedSizeRefusal(MAX_ORIGINAL_BYTES + 1)?.message).toMatch(/at most 200 MB/);
  });

  it('finds a stored object over a cap, and one at the cap within it', () => {
    expect(exceedsOriginalCap(1024, 1023)).toBe(true);
    expect(exceedsOriginalCap(1023, 1023)).toBe(false);
    expect(exceedsOriginalCap(MAX_ORIGINAL_BYTES + 1)).toBe(true);
  });
});

describe('uploadStepFor', () => {
  it('reads each of the S3 requests Uppy signs', () => {
    expect(uploadStepFor({ method: 'PUT', key, contentType: 'image/jpeg', size: 10 })).toEqual({
      step: 'put-object',
      contentType: 'image/jpeg',
      size: 10,
    });
    expect(uploadStepFor({ method: 'POST', key, size: 10 })).toEqual({
      step: 'create-multipart',
      contentType: 'application/octet-stream',
      size: 10,
    });
    expect(uploadStepFor({ method: 'PUT', key, uploadId: 'u', partNumber: 2 })).toEqual({
      step: 'upload-part',
      uploadId: 'u',
      partNumber: 2,
    });
    expect(uploadStepFor({ method: 'GET', key, uploadId: 'u' })).toEqual({ step: 'list-parts', uploadId: 'u' });
    expect(uploadStepFor({ method: 'POST', key, uploadId: 'u' })).toEqual({
      step: 'complete-multipart',
      uploadId: 'u',
    });
    expect(uploadStepFor({ method: 'DELETE', key, uploadId: 'u' })).toEqual({ step: 'abort-multipart', uploadId: 'u' });
  });

  it('refuses a start without a size, and any request it cannot place', () => {
    expect(uploadStepFor({ method: 'PUT', key })).toMatchObject({ kind: 'invalid' });
    expect(uploadStepFor({ method: 'POST', key })).toMatchObject({ kind: 'invalid' });
    expect(uploadStepFor({ method: 'DELETE', key })).toMatchObject({ kind: 'invalid' });
    expect(uploadStepFor({ method: 'GET', key })).toMatchObject({ kind: 'invalid' });
    expect(uploadStepFor({ method: 'PUT', key, uploadId: 'u' })).toMatchObject({ kind: 'invalid' });
    expect(uploadStepFor({ method: 'PUT', key, partNumber: 1, size: 1 })).toMatchObject({ kind: 'invalid' });
  });

  it('refuses part numbers a file within the cap never needs', () => {
    expect(uploadStepFor({ method: 'PUT', key, uploadId: 'u', partNumber: MAX_ORIGINAL_PARTS })).toMatchObject({
      step: 'upload-part',
    });
    expect(uploadStepFor({ method: 'PUT', key, uploadId: 'u', partNumber: MAX_ORIGINAL_PARTS + 1 })).toMatchObject({
      kind: 'invalid',
    });
  });
});

describe('orders and keys', () => {
  it('takes originals only while the order awaits payment', () => {
    expect(orderAcceptsOriginals({ status: 'pending_payment' })).toBeNull();
    expect(orderAcceptsOriginals({ status: 'paid' })?.kind).toBe('conflict');
  });

  it('keys a sent file by its last path segment under the originals', () => {
    expect(baseFilename('C:\\photos\\front.jpg')).toBe('front.jpg');
    expect(originalKeyFor(orderId, 'id', 'dir/front.jpg')).toBe(`${originalsPrefix(orderId)}id-front.jpg`);
  });
});

describe('edited uploads', () => {
  it('accept images and zip, rar and 7z archives directly under the order edited prefix', () => {
    for (const name of ['a-front.jpg', 'a-night.NEF', 'a-all.zip', 'a-all.rar', 'a-all.7z']) {
      expect(keyRefusal(editedUploads, orderId, `${editedPrefix(orderId)}${name}`), name).toBeNull();
    }
  });

  it('refuse other types, and any folder but the order edited one', () => {
    expect(keyRefusal(editedUploads, orderId, `${editedPrefix(orderId)}a-notes.txt`)).toEqual({
      kind: 'invalid',
      message: EDITED_FILE_TYPE,
    });
    expect(keyRefusal(editedUploads, orderId, key)?.kind).toBe('forbidden');
    expect(keyRefusal(editedUploads, orderId, `${editedPrefix('01JOTHERAAAAAAAAAAAAAAAAAA')}a.jpg`)?.kind).toBe(
      'forbidden',
    );
  });

  it('take files up to the edited cap, in as many parts as that needs', () => {
    expect(statedSizeRefusal(MAX_EDITED_BYTES, editedUploads)).toBeNull();
    expect(statedSizeRefusal(MAX_EDITED_BYTES + 1, editedUploads)?.message).toMatch(/edited file may be at most 2 GB/);
    const part = (partNumber: number) =>
      uploadStepFor({ method: 'PUT', key, uploadId: 'u', partNumber }, editedUploads);
    expect(part(MAX_ORIGINAL_PARTS + 1)).toMatchObject({ step: 'upload-part' });
    expect(part(Math.ceil(MAX_EDITED_BYTES / (5 * 1024 * 1024)) + 1)).toMatchObject({ kind: 'invalid' });
  });

  it('are stored with their archive or photo content type', () => {
    expect(editedContentType('all.ZIP')).toBe('application/zip');
    expect(editedContentType('front.jpg')).toBe('image/jpeg');
  });
});
