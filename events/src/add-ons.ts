import { PHOTO_COUNT_MAX } from './orders';
import * as z from './zod';

/**
 * Add-ons: services priced per photo rather than per order (virtual staging, object removal, sky
 * replacement, day-to-dusk). The admin keeps the catalogue beside the job types; the photographer
 * ticks add-ons on chosen photos of an order awaiting payment; the server prices the order from
 * the catalogue and keeps a copy of each add-on's name and prices on the order (decision 0109).
 */
export const ADD_ON_MAX = 50;
export const NEW_ADD_ON_PRICE_CENTS = 500;
export const NEW_ADD_ON_EDITOR_RATE_CENTS = 300;

export const addOnMessages = {
  name: 'Name is required',
  nameLength: 'Name must be at most 100 characters',
  description: 'Description must be at most 1000 characters',
  whole: 'Amounts are whole cents',
  negative: 'Amounts cannot be negative',
  tooHigh: 'Amounts must be at most $10,000.00',
  sortOrder: 'Sort order is a whole number from 0 to 1000',
  nothing: 'Nothing to update',
  unknownPhoto: 'Add-ons can be chosen only for this order’s photos',
  unknownAddOn: 'Please choose add-ons that are offered',
  duplicatePhoto: 'Each photo may be listed once',
  duplicateAddOn: 'An add-on may be ticked once per photo',
  notNow: 'Add-ons can be changed only before the order is paid',
} as const;

const cents = /* @__PURE__ */ z.schema(() =>
  z
    .number({ error: addOnMessages.whole })
    .check(
      z.int(addOnMessages.whole),
      z.minimum(0, addOnMessages.negative),
      z.maximum(1_000_000, addOnMessages.tooHigh),
    ),
);
const addOnName = /* @__PURE__ */ z.schema(() =>
  z
    .string({ error: addOnMessages.name })
    .check(z.trim(), z.minLength(1, addOnMessages.name), z.maxLength(100, addOnMessages.nameLength)),
);
const addOnDescription = /* @__PURE__ */ z.schema(() =>
  z.string().check(z.trim(), z.maxLength(1000, addOnMessages.description)),
);
const sortOrder = /* @__PURE__ */ z.schema(() =>
  z
    .number({ error: addOnMessages.sortOrder })
    .check(
      z.int(addOnMessages.sortOrder),
      z.minimum(0, addOnMessages.sortOrder),
      z.maximum(1000, addOnMessages.sortOrder),
    ),
);

/** POST /api/admin/job-types/add-ons: a new add-on, offered at once. */
export const createAddOnInput = /* @__PURE__ */ z.schema(() =>
  z.strictObject({
    name: addOnName,
    description: z.pipe(
      z.nullish(addOnDescription),
      z.transform((d) => d || undefined),
    ),
    pricePerPhotoCents: z._default(cents, NEW_ADD_ON_PRICE_CENTS),
    editorRatePerPhotoCents: z._default(cents, NEW_ADD_ON_EDITOR_RATE_CENTS),
    sortOrder: z._default(sortOrder, 0),
  }),
);
export type CreateAddOnInput = z.infer<typeof createAddOnInput>;

/** PATCH /api/admin/job-types/add-ons/{id}: new prices apply to selections made from now on; isActive false withdraws it. */
export const updateAddOnInput = /* @__PURE__ */ z.schema(() =>
  z
    .strictObject({
      name: z.optional(addOnName),
      description: z.optional(z.nullable(addOnDescription)),
      pricePerPhotoCents: z.optional(cents),
      editorRatePerPhotoCents: z.optional(cents),
      sortOrder: z.optional(sortOrder),
      isActive: z.optional(z.boolean()),
    })
    .check(z.refine((v) => Object.values(v).some((value) => value !== undefined), { message: addOnMessages.nothing })),
);
export type UpdateAddOnInput = z.infer<typeof updateAddOnInput>;

/** The catalogue's add-on as the admin sees it. */
export interface AddOnView {
  id: string;
  name: string;
  description: string | null;
  pricePerPhotoCents: number;
  editorRatePerPhotoCents: number;
  isActive: boolean;
  sortOrder: number;
  createdAt: string;
}

/** An offered add-on as the photographer sees it (no editor rate). */
export interface OfferedAddOnView {
  id: string;
  name: string;
  description: string | null;
  pricePerPhotoCents: number;
}

export const addOnId = /* @__PURE__ */ z.schema(() =>
  z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, addOnMessages.unknownAddOn)),
);
/** An original's key in storage, as the images list answers it. */
const photoKey = /* @__PURE__ */ z.schema(() => z.string().check(z.minLength(1), z.maxLength(1024)));

/**
 * PUT /api/orders/{id}/add-ons: the add-ons ticked on each photo, the whole selection at once (a
 * photo left out has none). Strict: a price or total from the browser is refused, never read.
 */
export const saveOrderAddOnsInput = /* @__PURE__ */ z.schema(() =>
  z.strictObject({
    photos: z
      .array(
        z.strictObject({
          key: photoKey,
          addOnIds: z.array(addOnId).check(
            z.maxLength(ADD_ON_MAX),
            z.refine((ids) => new Set(ids).size === ids.length, addOnMessages.duplicateAddOn),
          ),
        }),
      )
      .check(
        z.maxLength(PHOTO_COUNT_MAX, addOnMessages.unknownPhoto),
        z.refine((photos) => new Set(photos.map((p) => p.key)).size === photos.length, addOnMessages.duplicatePhoto),
      ),
  }),
);
export type SaveOrderAddOnsInput = z.infer<typeof saveOrderAddOnsInput>;

/** One priced line of an order's add-ons: the add-on as it was when chosen, times its photos. */
export interface OrderAddOnLineView {
  addOnId: string;
  name: string;
  pricePerPhotoCents: number;
  photoCount: number;
  amountCents: number;
}

/** The server's price of an order: base price × photos, each add-on × its photos, the total. */
export interface OrderPriceView {
  pricePerPhotoCents: number;
  photoCount: number;
  baseCents: number;
  /** The turnaround tier's surcharge (decision 0110): its label and price per photo, when there is one. */
  surcharge: { label: string; perPhotoCents: number; amountCents: number } | null;
  addOnsCents: number;
  totalCents: number;
  lines: OrderAddOnLineView[];
}

/** GET and PUT /api/orders/{id}/add-ons: the price and which add-ons each photo has. */
export interface OrderAddOnsView {
  price: OrderPriceView;
  photos: { key: string; addOnIds: string[] }[];
}

/** '+ Virtual staging ×3': how a line reads in lists. */
export const addOnLineLabel = (line: Pick<OrderAddOnLineView, 'name' | 'photoCount'>) =>
  `+ ${line.name} ×${line.photoCount}`;
