import type { OrderAddOnLineView } from './add-ons';
import { type EditingStyle, editingStyleInput } from './editing-style';
import { type LateCreditView, type TurnaroundTier, turnaroundHours, turnaroundTier } from './turnaround';
import * as z from './zod';

/**
 * Orders as the browser, the API and the workers all see them: the limits of the order form, the
 * upload rules and every view the order routes answer. One module, so a form and its route can
 * never disagree about a limit or a message.
 */
export const orderStatuses = [
  'pending_payment',
  'paid',
  'in_progress',
  'completed',
  'cancelled',
  /** Sent back by the photographer after completion; with the same editor until re-delivered. */
  'revision_requested',
] as const;
export type OrderStatus = (typeof orderStatuses)[number];

/** 'pending_payment' -> 'Pending Payment': capitalised words, underscores as spaces (spec section 4). */
export const orderStatusLabel = (status: string) =>
  status
    .split('_')
    .map((word) => (word ? word[0]!.toUpperCase() + word.slice(1) : word))
    .join(' ');

export const PHOTO_COUNT_MIN = 1;
export const PHOTO_COUNT_MAX = 100;
export const ORDER_NAME_MAX = 120;
export const EDITING_REQUIREMENTS_MAX = 5000;
/** The promised 24-48 hour turnaround of a Standard order: due this long after payment (events/turnaround.ts has the faster tiers). */
export const TURNAROUND_HOURS = turnaroundHours.standard;

/** The extensions the spec accepts for originals (section 5). */
export const acceptedPhotoExtensions = [
  'jpeg',
  'jpg',
  'png',
  'tiff',
  'tif',
  'raw',
  'cr2',
  'nef',
  'arw',
  'dng',
] as const;
/** One original may be at most this large (RAW files run to 100 MB; medium-format RAWs to ~150 MB). */
export const MAX_ORIGINAL_BYTES = 200 * 1024 * 1024;
/**
 * Files at least this large go up in parts (resumable part by part, after a failed part or a
 * reload); smaller ones as one PUT, which bench/browser-upload.ts measured faster (docs/decisions/0033-one-put-below-64-mb-signed-and-registered-in-batches.md).
 */
export const MULTIPART_THRESHOLD_BYTES = 64 * 1024 * 1024;
/** 16 MB parts measured a little faster than 8 MB; a failed part re-sends at most this much. */
export const MULTIPART_PART_BYTES = 16 * 1024 * 1024;
/** S3's own limit on parts of one upload. */
export const MAX_PART_NUMBER = 10_000;

export const extensionOf = (filename: string) => {
  const dot = filename.lastIndexOf('.');
  return dot < 0 ? '' : filename.slice(dot + 1).toLowerCase();
};

export const isAcceptedPhoto = (filename: string) =>
  (acceptedPhotoExtensions as readonly string[]).includes(extensionOf(filename));

/** Content types browsers report for the accepted extensions (RAW formats often come as ''). */
export const photoContentType = (filename: string) => {
  switch (extensionOf(filename)) {
    case 'jpeg':
    case 'jpg':
      return 'image/jpeg';
    case 'png':
      return 'image/png';
    case 'tif':
    case 'tiff':
      return 'image/tiff';
    default:
      return 'application/octet-stream';
  }
};

export const orderFormMessages = {
  photoCountRequired: 'Photo count is required',
  photoCountMin: 'Minimum 1 photo',
  photoCountMax: 'Maximum 100 photos',
  serviceTypeRequired: 'Please select a service type',
  noFiles: 'Please select at least one photo',
  tooFewFiles: (wanted: number, uploaded: number) =>
    `You want ${wanted} distinct photos edited but only uploaded ${uploaded} photo(s). Please upload more photos or reduce the editing count.`,
  fileType: `File type must be one of: ${acceptedPhotoExtensions.map((e) => `.${e}`).join(', ')}`,
  fileTooLarge: `File is larger than ${MAX_ORIGINAL_BYTES} bytes`,
} as const;

const optionalText = (max: number, label: string) =>
  z.pipe(
    z.optional(z.string().check(z.trim(), z.maxLength(max, `${label} must be at most ${max} characters`))),
    z.transform((v) => (v ? v : undefined)),
  );

/**
 * POST /api/orders. Unknown fields (a price, a total) are dropped, never trusted: the server
 * prices every order from the job type.
 */
export const createOrderInput = /* @__PURE__ */ z.schema(() =>
  z.object({
    jobTypeId: z
      .string({ error: orderFormMessages.serviceTypeRequired })
      .check(z.trim(), z.minLength(1, orderFormMessages.serviceTypeRequired), z.maxLength(100)),
    name: optionalText(ORDER_NAME_MAX, 'Order name'),
    photoCount: z.coerce
      .number({ error: orderFormMessages.photoCountRequired })
      .check(
        z.int('Photo count must be a whole number'),
        z.minimum(PHOTO_COUNT_MIN, orderFormMessages.photoCountMin),
        z.maximum(PHOTO_COUNT_MAX, orderFormMessages.photoCountMax),
      ),
    editingRequirements: optionalText(EDITING_REQUIREMENTS_MAX, 'Editing requirements'),
    /** The order's editing style (the saved one, or changed for this order); absent: the saved one. */
    editingStyle: z.optional(editingStyleInput),
    /** How soon it is due (events/turnaround.ts); absent: Standard. Never a price: the server prices the tier. */
    turnaroundTier: z._default(turnaroundTier, 'standard'),
  }),
);
export type CreateOrderInput = z.infer<typeof createOrderInput>;

/** Keys of an order's originals: everything the browser may write lives under this prefix. */
export const originalsPrefix = (orderId: string) => `orders/${orderId}/originals/`;
export const editedPrefix = (orderId: string) => `orders/${orderId}/edited/`;

/** One S3 request the upload client wants signed (Uppy's signRequest). */
export const signUploadRequestInput = /* @__PURE__ */ z.schema(() =>
  z.object({
    method: z.enum(['PUT', 'POST', 'GET', 'DELETE']),
    key: z.string().check(z.minLength(1), z.maxLength(1024)),
    uploadId: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
    partNumber: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(MAX_PART_NUMBER))),
    contentType: z.optional(z.string().check(z.maxLength(200))),
    /** The file's size, stated when an upload starts (a PUT, or the POST that creates a multipart upload). */
    size: z.optional(z.number().check(z.int(), z.minimum(0))),
  }),
);
export type SignUploadInput = z.infer<typeof signUploadRequestInput>;

/**
 * Requests signed together at most: the parts of a multipart upload and its completion, so one
 * call covers a 200 MB original in 8 MB parts, and a 2 GB archive in a few.
 */
export const SIGN_BATCH_MAX = 100;
/** Presigned upload URLs live this long (URLs signed together are used within it, or signed again). */
export const UPLOAD_URL_SECONDS = 15 * 60;

/** One S3 request to sign, or several at once (`requests`, answered in the same order as `signed`). */
export const signUploadInput = /* @__PURE__ */ z.schema(() =>
  z.union([
    signUploadRequestInput,
    z.object({ requests: z.array(signUploadRequestInput).check(z.minLength(1), z.maxLength(SIGN_BATCH_MAX)) }),
  ]),
);
export type SignUploadBody = z.infer<typeof signUploadInput>;

export interface SignedUploadRequest {
  url: string;
  key?: string;
  headers?: Record<string, string>;
}

export interface SignedUploadBatch {
  signed: SignedUploadRequest[];
}

/** After S3 has the object: the server checks it is there before it counts. */
export const registeredUploadInput = /* @__PURE__ */ z.schema(() =>
  z.object({
    key: z.string().check(z.minLength(1), z.maxLength(1024)),
    filename: z.string().check(z.trim(), z.minLength(1), z.maxLength(255)),
    /** The HDR scene (1-based) the browser grouped this original into from its EXIF; absent when unknown. */
    scene: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(10_000))),
  }),
);
export type RegisteredUpload = z.infer<typeof registeredUploadInput>;

/** Files registered in one call at most: each is one image record and one event in a single transaction. */
export const REGISTER_BATCH_MAX = 25;

/** One uploaded file, or several at once (`files`): all of them count, or none and the answer says why. */
export const registerUploadInput = /* @__PURE__ */ z.schema(() =>
  z.union([
    registeredUploadInput,
    z.object({ files: z.array(registeredUploadInput).check(z.minLength(1), z.maxLength(REGISTER_BATCH_MAX)) }),
  ]),
);
export type RegisterUploadBody = z.infer<typeof registerUploadInput>;

export const paymentSuccessInput = /* @__PURE__ */ z.schema(() =>
  z.object({
    paymentIntentId: z.string().check(z.trim(), z.minLength(1), z.maxLength(255)),
  }),
);

export const RATING_MIN = 1;
export const RATING_MAX = 10;
export const rateOrderInput = /* @__PURE__ */ z.schema(() =>
  z.object({
    rating: z
      .number({ error: 'Rating must be a number from 1 to 10' })
      .check(
        z.int('Rating must be a whole number from 1 to 10'),
        z.minimum(RATING_MIN, 'Rating must be from 1 to 10'),
        z.maximum(RATING_MAX, 'Rating must be from 1 to 10'),
      ),
  }),
);

/** An order in lists (dashboard, /orders, the editor's lists). */
export interface OrderSummaryView {
  id: string;
  orderNumber: number;
  name: string | null;
  status: OrderStatus;
  photoCount: number;
  totalAmountCents: number;
  createdAt: string;
  editingRequirements: string | null;
  jobTypeName: string;
  claimedAt: string | null;
  paidAt: string | null;
  completedAt: string | null;
  /** Paid + the tier's hours; null until paid. */
  dueAt: string | null;
  /** Standard, Express or Rush (Standard on orders made before tiers). */
  turnaroundTier: TurnaroundTier;
  /** Past due and not yet completed or cancelled. */
  isLate: boolean;
  photographerRating: number | null;
  /** The add-ons on the order's photos, as priced when chosen (decision 0109); empty when none. */
  addOns: OrderAddOnLineView[];
}

export interface OrderDetailView extends OrderSummaryView {
  jobTypeId: string;
  pricePerPhotoCents: number;
  /** The tier's surcharge per photo the order was priced with (0 for Standard). */
  surchargePerPhotoCents: number;
  /** Credits for late deliveries, one per delivery round that was late (round 0: the first delivery). */
  lateCredits: LateCreditView[];
  assignedAt: string | null;
  editor: { displayName: string | null; email: string | null } | null;
  editorNotes: string | null;
  photographerUploadCount: number;
  editorUploadCount: number;
  stripePaymentIntentId: string | null;
  /** Revision rounds requested so far, newest last. */
  revisions: RevisionView[];
  /** Whether the viewer (the photographer) may ask for a revision now. */
  canRequestRevision: boolean;
  /** Why not, in words for the photographer, when the order is completed but no revision can be asked; else null. */
  revisionUnavailableReason: string | null;
  /** The editing style kept when the order was made (events/editing-style.ts); null on orders made before styles. */
  editingStyle: EditingStyle | null;
}

/** The order as the create call returns it, with the secret the card form confirms with. */
export interface CreateOrderResponse {
  order: {
    id: string;
    orderNumber: number;
    totalAmountCents: number;
    stripePaymentIntentId: string;
    photoCount: number;
    name: string | null;
  };
  stripeClientSecret: string;
}

export interface OrderListResponse {
  orders: OrderSummaryView[];
  total: number;
  nextCursor: string | null;
}

/** 'pending' until the thumbnail worker has run; 'placeholder' when the file has no picture to show (archives, unreadable files). */
export type ThumbnailState = 'pending' | 'ready' | 'placeholder';

export interface OrderImageView {
  key: string;
  filename: string;
  size: number;
  lastModified: string;
  kind: 'original' | 'edited';
  thumbnail: ThumbnailState;
  /** About 400 px on the long side; a short-lived presigned GET, stable for a while so the browser caches it. Null unless ready. */
  thumbnailUrl: string | null;
  /** A screen-sized rendition (about 2048 px) for the lightbox and the before/after slider. Null unless ready. */
  previewUrl: string | null;
  /** Originals: the HDR scene the browser grouped the file into (1-based), null when not grouped. */
  scene: number | null;
  /** Edited files: the key of the original this edit belongs to, null when none matched. */
  pairedOriginalKey: string | null;
  /** Edited files: how the pairing was made (the file-name rule, or the editor by hand). */
  pairedBy: 'rule' | 'editor' | null;
}

/** PATCH /api/orders/{id}/pairings: the editor points an edited file at its original (or at none). */
export const pairEditedImageInput = /* @__PURE__ */ z.schema(() =>
  z.object({
    editedKey: z.string().check(z.minLength(1), z.maxLength(1024)),
    originalKey: z.nullable(z.string().check(z.minLength(1), z.maxLength(1024))),
  }),
);

/** Revision requests: within this many days of completion, at most this many rounds per order. */
export const REVISION_WINDOW_DAYS = 7;
export const FREE_REVISION_ROUNDS = 2;
export const REVISION_NOTE_MAX = 2000;
export const REVISION_PHOTO_NOTES_MAX = 100;

/** POST /api/orders/{id}/revisions */
export const requestRevisionInput = /* @__PURE__ */ z.schema(() =>
  z.object({
    note: z
      .string({ error: 'Please describe what should change' })
      .check(
        z.trim(),
        z.minLength(1, 'Please describe what should change'),
        z.maxLength(REVISION_NOTE_MAX, `The note must be at most ${REVISION_NOTE_MAX} characters`),
      ),
    /** Optional notes on individual edited photos, by the edited file's key. */
    photoNotes: z._default(
      z
        .array(
          z.object({
            key: z.string().check(z.minLength(1), z.maxLength(1024)),
            note: z
              .string()
              .check(
                z.trim(),
                z.minLength(1, 'A photo note cannot be empty'),
                z.maxLength(REVISION_NOTE_MAX, `A photo note must be at most ${REVISION_NOTE_MAX} characters`),
              ),
          }),
        )
        .check(z.maxLength(REVISION_PHOTO_NOTES_MAX, `At most ${REVISION_PHOTO_NOTES_MAX} photo notes`)),
      [],
    ),
  }),
);
export type RequestRevisionInput = z.infer<typeof requestRevisionInput>;

export interface RevisionView {
  round: number;
  note: string;
  photoNotes: { key: string; filename: string | null; note: string }[];
  requestedAt: string;
  /** When the editor re-delivered this round; null while it is open. */
  completedAt: string | null;
  /** The request + the order's tier hours; null on rounds requested before tiers. */
  dueAt: string | null;
}

export interface PhotographerStatsView {
  totalOrders: number;
  totalPhotos: number;
  totalSpent: number;
  activeOrders: number;
}

/** GET /api/orders/{id}/payment: what the pay-later screen needs to show and confirm a card. */
export interface OrderPaymentView {
  order: { id: string; orderNumber: number; name: string | null; photoCount: number; totalAmountCents: number };
  stripePaymentIntentId: string;
  stripeClientSecret: string;
}

/** GET /api/orders/{id}/download-completed: a link when the zip is ready, else how far along it is. */
export type CompletedDownloadView =
  | { status: 'ready'; url: string; filename: string; sizeBytes: number; fileCount: number }
  | { status: 'building'; filesDone: number; fileCount: number };

/** '{order name or number, spaces replaced by underscores}_edited_photos.zip' (spec section 9). */
export const editedZipFilename = (order: { name?: string | null; orderNumber: number }) =>
  `${(order.name?.trim() || `Order #${order.orderNumber}`).replace(/\s+/g, '_')}_edited_photos.zip`;

export const orderDisplayName = (order: { name?: string | null; orderNumber: number }) =>
  order.name?.trim() || `Order #${order.orderNumber}`;
