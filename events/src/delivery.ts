import { orderDisplayName } from './orders';
import { baseName } from './pairing';
import type { SharedBusinessView } from './profile';
import * as z from './zod';

/**
 * Listing-ready delivery: the photographer's listing order and cover, the MLS-ready set beside the
 * full-resolution files, and the share link a listing agent opens without an account. The
 * browser, the routes and the workers read their limits, names and views from here.
 */

// ---------------------------------------------------------------------------------------------
// Listing order and cover

/** One listing sequence holds at most this many photos (an order's photo count is at most 100; revisions add files). */
export const SEQUENCE_MAX = 500;

/**
 * PUT /api/orders/{id}/sequence: the edited photos' keys in listing order, the first the cover.
 * `version` is the sequence version the page loaded; a save over a newer one is refused (409
 * SEQUENCE_CHANGED) unless the page says to replace it (`replace: true`, after the photographer
 * chose to keep their own order).
 */
export const saveSequenceInput = /* @__PURE__ */ z.schema(() =>
  z.object({
    keys: z.array(z.string().check(z.minLength(1), z.maxLength(1024))).check(z.minLength(1), z.maxLength(SEQUENCE_MAX)),
    version: z.int().check(z.minimum(0)),
    replace: z.optional(z.boolean()),
  }),
);
export type SaveSequenceInput = z.infer<typeof saveSequenceInput>;

export const sequenceChangedMessage =
  'The photo order was changed in another tab or window. Load that order, or save yours over it.';

/** The long edge of the MLS-ready copies, chosen per order; never enlarged. */
export const MLS_LONG_EDGES = [1024, 2048, 3000] as const;
export type MlsLongEdge = (typeof MLS_LONG_EDGES)[number];
export const DEFAULT_MLS_LONG_EDGE: MlsLongEdge = 2048;
/** Each MLS-ready file stays under this many bytes (most boards accept at most 5 to 10 MB). */
export const MLS_MAX_BYTES = 4 * 1024 * 1024;
/** The JPEG quality the search starts from, and the lowest it goes to before shrinking instead. */
export const MLS_START_QUALITY = 90;
export const MLS_MIN_QUALITY = 60;

/** PUT /api/orders/{id}/mls-size: the long edge of this order's MLS-ready copies. */
export const setMlsSizeInput = /* @__PURE__ */ z.schema(() =>
  z.object({
    longEdge: z.union([z.literal(1024), z.literal(2048), z.literal(3000)]),
  }),
);

/** An edited photo in listing order, as the order page and the share page show it. */
export interface SequencedPhotoView {
  key: string;
  /** 1-based place in the listing; 1 is the cover. */
  position: number;
  /** The name the photo has in both zips, e.g. `01_Oak_Street_IMG_0012.jpg`. */
  entryName: string;
  filename: string;
  thumbnailUrl: string | null;
  previewUrl: string | null;
}

/** GET /api/orders/{id}/sequence: the listing order, cover first, and the order's MLS settings. */
export interface SequenceView {
  photos: SequencedPhotoView[];
  /** The version to send back with a save; 0 while the order follows the default sequence. */
  version: number;
  /** True while nobody has saved a sequence: the photos follow the originals' capture order. */
  isDefault: boolean;
  updatedAt: string | null;
  mlsLongEdge: MlsLongEdge;
  /** How far the MLS-ready set is: copies made, files left out (with why), copies still to make. */
  mls: MlsSetView;
}

export interface MlsSetView {
  longEdge: MlsLongEdge;
  ready: number;
  pending: number;
  skipped: { key: string; filename: string; reason: string }[];
}

// ---------------------------------------------------------------------------------------------
// Names in the zips

/** Letters, digits, dot, dash and underscore; every other run of characters becomes one underscore. */
export const fileNamePart = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[_.]+|_+$/g, '')
    .slice(0, 80) || 'photo';

/**
 * `{NN}_{order name}_{original base name}.{extension}`, NN from 01 (three digits past 99). The
 * original's base name keeps its case (`IMG_0012`); an edit paired with no original uses its own.
 */
export const listingEntryName = ({
  position,
  total,
  order,
  originalFilename,
  editedFilename,
  extension,
}: {
  position: number;
  total: number;
  order: { name?: string | null; orderNumber: number };
  originalFilename: string | null;
  editedFilename: string;
  extension: string;
}) => {
  const digits = Math.max(2, String(total).length);
  const source = originalFilename ?? editedFilename;
  const dot = source.trim().lastIndexOf('.');
  const base = dot > 0 ? source.trim().slice(0, dot) : source.trim();
  return `${String(position).padStart(digits, '0')}_${fileNamePart(orderDisplayName(order))}_${fileNamePart(base || baseName(source))}.${extension}`;
};

/** The full-resolution entry keeps the edited file's own extension (a TIFF stays a TIFF), lower-cased. */
export const fullResolutionExtension = (editedFilename: string) => {
  const dot = editedFilename.lastIndexOf('.');
  const extension = dot > 0 ? editedFilename.slice(dot + 1).toLowerCase() : '';
  return extension === 'jpeg' ? 'jpg' : extension || 'jpg';
};

/** '{order}_MLS_ready.zip', beside the spec's '{order}_edited_photos.zip'. */
export const mlsZipFilename = (order: { name?: string | null; orderNumber: number }) =>
  `${orderDisplayName(order).replace(/\s+/g, '_')}_MLS_ready.zip`;

// ---------------------------------------------------------------------------------------------
// Share links

export const SHARE_LINK_DEFAULT_DAYS = 30;
export const SHARE_LINK_MAX_DAYS = 365;
/** Live (unrevoked, unexpired) links one order may have at once. */
export const SHARE_LINKS_PER_ORDER_MAX = 10;
export const shareLinkUnavailableMessage = 'This link is no longer available';

/**
 * What the share page and its API answers carry besides the site's own headers: search engines
 * leave the gallery out, and its address (which holds the token) is never passed on as a referrer.
 */
export const sharePageHeaders = { 'X-Robots-Tag': 'noindex', 'Referrer-Policy': 'no-referrer' } as const;

/** POST /api/orders/{id}/share-links: a new link, valid this many days (30 unless said). */
export const createShareLinkInput = /* @__PURE__ */ z.schema(() =>
  z.object({
    expiresInDays: z.optional(z.int().check(z.minimum(1), z.maximum(SHARE_LINK_MAX_DAYS))),
  }),
);

/** PATCH /api/orders/{id}/share-links/{linkId}: a new expiry, this many days from now. */
export const updateShareLinkInput = /* @__PURE__ */ z.schema(() =>
  z.object({
    expiresInDays: z.int().check(z.minimum(1), z.maximum(SHARE_LINK_MAX_DAYS)),
  }),
);

export type ShareLinkStatus = 'active' | 'expired' | 'revoked';

/** One share link as its photographer sees it: never the token, which only its creation answer holds. */
export interface ShareLinkView {
  id: string;
  status: ShareLinkStatus;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  views: number;
  downloads: number;
  lastViewedAt: string | null;
}

/** The answer to creating a link: the only time the token is seen. */
export interface CreatedShareLinkView extends ShareLinkView {
  token: string;
  /** The page to hand to the client: `/share/{token}`, on the marketplace's own address. */
  path: string;
}

/** A photo on the share page: its place and zip name, and its pictures; no keys or uploaded names. */
export interface SharedPhotoView {
  position: number;
  entryName: string;
  thumbnailUrl: string | null;
  previewUrl: string | null;
}

/** GET /api/share/{token}: the gallery, and nothing about price, requirements, editor or photographer. */
export interface SharedGalleryView {
  /** The photographer's business name and logo, shown above the property's name; null when they set neither. */
  business: SharedBusinessView | null;
  /** The order's name (the property), or its number when it has none. */
  title: string;
  /** In listing order: the first is the cover. */
  photos: SharedPhotoView[];
  downloads: {
    full: { fileCount: number };
    mls: { fileCount: number; longEdge: MlsLongEdge };
  };
  expiresAt: string;
}

/** The downloads a share page offers: the full-resolution zip and the MLS-ready zip. */
export const sharedDownloadKinds = ['full', 'mls'] as const;
export type SharedDownloadKind = (typeof sharedDownloadKinds)[number];
