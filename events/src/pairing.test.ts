import { describe, expect, it } from 'vitest';
import { baseName, pairByName, withoutEditSuffix } from './pairing';

const originals = (...names: string[]) => names.map((filename, i) => ({ key: `k${i}`, filename }));
const pairedName = (edited: string, names: string[]) => pairByName(edited, originals(...names))?.filename ?? null;

describe('pairing an edited file with its original by name', () => {
  it('pairs IMG_0012_edited.jpg with IMG_0012.CR2', () => {
    expect(pairedName('IMG_0012_edited.jpg', ['IMG_0011.CR2', 'IMG_0012.CR2', 'IMG_0013.CR2'])).toBe('IMG_0012.CR2');
  });

  it('matches the same base name with another extension, ignoring case and spaces around', () => {
    expect(pairedName('img_0012.JPG', ['IMG_0012.CR2'])).toBe('IMG_0012.CR2');
    expect(pairedName(' Kitchen.tif ', ['kitchen.NEF'])).toBe('kitchen.NEF');
  });

  it('removes one suffix of each kind after any separator', () => {
    for (const edited of [
      'IMG_1-edited.jpg',
      'IMG_1 edit.jpg',
      'IMG_1.final.jpg',
      'IMG_1_HDR.jpg',
      'IMG_1-retouched.png',
      'IMG_1 Enhanced.tiff',
      'IMG_1-1.jpg',
      'IMG_1_01.jpg',
    ]) {
      expect(pairedName(edited, ['IMG_1.dng']), edited).toBe('IMG_1.dng');
    }
  });

  it('removes only one suffix, never a camera counter, and never a suffix without a separator', () => {
    expect(pairedName('IMG_0012_edited_final.jpg', ['IMG_0012.CR2'])).toBeNull();
    expect(pairedName('IMG_0012.jpg', ['IMG.CR2'])).toBeNull();
    expect(pairedName('IMG_0012edited.jpg', ['IMG_0012.CR2'])).toBeNull();
    expect(pairedName('IMG_0012_001.jpg', ['IMG_0012.CR2'])).toBeNull();
    expect(withoutEditSuffix('img_0012')).toBeNull();
    expect(withoutEditSuffix('_edited')).toBeNull();
  });

  it('prefers an exact base name over one found by removing a suffix', () => {
    expect(pairedName('room_hdr.jpg', ['room.CR2', 'room_hdr.CR2'])).toBe('room_hdr.CR2');
  });

  it('prefers the same extension family when several originals share the base name', () => {
    expect(pairedName('IMG_5_edited.jpg', ['IMG_5.CR2', 'IMG_5.JPEG'])).toBe('IMG_5.JPEG');
    expect(pairedName('IMG_5_edited.nef', ['IMG_5.jpg', 'IMG_5.CR2'])).toBe('IMG_5.CR2');
    expect(pairedName('IMG_5_edited.png', ['IMG_5.CR2', 'IMG_5.jpg'])).toBe('IMG_5.CR2');
  });

  it('answers null when nothing matches', () => {
    expect(pairedName('living-room.jpg', ['IMG_0012.CR2'])).toBeNull();
    expect(pairedName('IMG_0012_edited.jpg', [])).toBeNull();
  });

  it('takes the base name as the name without its last extension, lower-cased', () => {
    expect(baseName('IMG_0012.CR2')).toBe('img_0012');
    expect(baseName('archive.tar.gz')).toBe('archive.tar');
    expect(baseName('.hidden')).toBe('.hidden');
    expect(baseName('NOEXT')).toBe('noext');
  });
});
