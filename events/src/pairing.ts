import { extensionOf } from './orders';

/**
 * Which original an edited file belongs to, by file name (the before/after view pairs them).
 *
 * The rule, exactly:
 * 1. A file's base name is its name without the last extension, trimmed and lower-cased
 *    (`IMG_0012.CR2` -> `img_0012`).
 * 2. Originals whose base name equals the edited file's base name match
 *    (`IMG_0012.jpg` -> `IMG_0012.CR2`).
 * 3. Failing that, one editing suffix is removed from the end of the edited base name and the
 *    originals whose base name equals the rest match. A suffix is a separator (`_`, `-`, `.` or
 *    a space) followed by one of `edited`, `edit`, `final`, `hdr`, `retouched`, `enhanced`, or a
 *    number of one or two digits (`-1`, `_01`; longer numbers are camera counters such as
 *    `_0012` and are never removed). Only one suffix is removed: `IMG_0012_edited_final.jpg`
 *    does not match.
 * 4. When several originals match, the ones of the edited file's extension family (JPEG, TIFF,
 *    PNG, RAW) come first; among equals, the first in the given order wins (callers pass
 *    originals in key order, so the answer is stable).
 * 5. No match: null.
 */
const EDIT_SUFFIX = /[ _.-](?:edited|edit|final|hdr|retouched|enhanced|\d{1,2})$/;

export const baseName = (filename: string) => {
  const name = filename.trim();
  const dot = name.lastIndexOf('.');
  return (dot > 0 ? name.slice(0, dot) : name).trim().toLowerCase();
};

const families: Record<string, string> = {
  jpg: 'jpeg',
  jpeg: 'jpeg',
  tif: 'tiff',
  tiff: 'tiff',
  png: 'png',
  raw: 'raw',
  cr2: 'raw',
  cr3: 'raw',
  nef: 'raw',
  arw: 'raw',
  dng: 'raw',
};

/** 'jpeg', 'tiff', 'png', 'raw', or the extension itself for anything else. */
export const extensionFamily = (filename: string) => {
  const extension = extensionOf(filename);
  return families[extension] ?? extension;
};

/** The edited base name with one editing suffix removed, or null when it carries none. */
export const withoutEditSuffix = (base: string) => {
  const stripped = base.replace(EDIT_SUFFIX, '');
  return stripped !== base && stripped.length > 0 ? stripped : null;
};

/** The original the rule pairs this edited file with, or null when none matches. */
export function pairByName<T extends { filename: string }>(editedFilename: string, originals: readonly T[]): T | null {
  const family = extensionFamily(editedFilename);
  const pick = (base: string | null) => {
    if (base === null) return null;
    const matches = originals.filter((original) => baseName(original.filename) === base);
    return matches.find((original) => extensionFamily(original.filename) === family) ?? matches[0] ?? null;
  };
  const base = baseName(editedFilename);
  return pick(base) ?? pick(withoutEditSuffix(base));
}
