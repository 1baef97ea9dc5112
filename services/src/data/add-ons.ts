import {
  type AddOnView,
  addOnMessages,
  type CreateAddOnInput,
  type OfferedAddOnView,
  type OrderAddOnsView,
  type OrderPriceView,
  type UpdateAddOnInput,
} from '@marketplace/events/add-ons';
import { tierOf } from '@marketplace/events/turnaround';
import { ulid } from 'ulid';
import { updateOrderPaymentIntentAmount } from '../adapters/stripe';
import { type AddOnLine, priceOrder } from '../domain/orders';
import { compareText } from '../domain/text-order';
import { BadRequest, Conflict, NotFound } from '../http/errors';
import { isConditionFailure } from './conditional-write';
import { getRecord, models, queryAll } from './direct-reads';
import { writers } from './direct-writes';
import { jobTypeSlug } from './job-types';
import { listAllImages, type OrderRecord, poolIndexComposite } from './orders';
import { commitAll, outboxWrite, TransactionCancelled } from './transactions';

/**
 * Add-ons (decision 0109): the admin's catalogue of per-photo services, and the add-ons a
 * photographer ticks on the photos of an order awaiting payment, priced by the server.
 */
export interface AddOnRecord {
  addOnId: string;
  name: string;
  description?: string;
  pricePerPhotoCents: number;
  editorRatePerPhotoCents: number;
  isActive: boolean;
  sortOrder: number;
  createdAt: string;
}

export interface OrderAddOnsRecord {
  orderId: string;
  photos: { key: string; addOnIds: string[] }[];
  updatedBy: string;
  updatedAt: string;
}

const entities = () => writers();

export const toAddOnView = (a: AddOnRecord): AddOnView => ({
  id: a.addOnId,
  name: a.name,
  description: a.description ?? null,
  pricePerPhotoCents: a.pricePerPhotoCents,
  editorRatePerPhotoCents: a.editorRatePerPhotoCents,
  isActive: a.isActive,
  sortOrder: a.sortOrder,
  createdAt: a.createdAt,
});

export const toOfferedAddOnView = (a: AddOnRecord): OfferedAddOnView => ({
  id: a.addOnId,
  name: a.name,
  description: a.description ?? null,
  pricePerPhotoCents: a.pricePerPhotoCents,
});

/** The catalogue is a handful of items in one partition, by sort order: read whole. */
export const listAddOnRecords = async ({ activeOnly }: { activeOnly: boolean }) => {
  // Every add-on is read either way (a filter saves no reads): the inactive ones are left out here.
  const all = await queryAll<AddOnRecord>(models.addOn, 'all', {});
  return (activeOnly ? all.filter((a) => a.isActive === true) : all).sort(
    (a, b) => a.sortOrder - b.sortOrder || compareText(a.name, b.name),
  );
};

const getAddOnRecord = async (addOnId: string) => {
  return getRecord<AddOnRecord>(models.addOn, { addOnId }, { consistent: true });
};

/** A new add-on, offered at once; its id is its name's slug when free, else a ULID. */
export const createAddOn = async (
  input: Omit<CreateAddOnInput, 'description'> & { description?: string | undefined },
) => {
  const slug = jobTypeSlug(input.name);
  for (const addOnId of slug ? [slug, ulid()] : [ulid()]) {
    const record = {
      addOnId,
      name: input.name,
      ...(input.description ? { description: input.description } : {}),
      pricePerPhotoCents: input.pricePerPhotoCents,
      editorRatePerPhotoCents: input.editorRatePerPhotoCents,
      sortOrder: input.sortOrder,
      isActive: true,
      createdAt: new Date().toISOString(),
    };
    try {
      await entities().addOn.create(record).go();
      return toAddOnView(record);
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
  throw new Conflict('Could not find a free id for this add-on. Please try again.');
};

/**
 * Changes an add-on (isActive false withdraws it from new selections). Orders keep the names and
 * prices they were priced with; an unpaid order is priced again only when its add-ons are saved.
 */
export const updateAddOn = async (addOnId: string, changes: UpdateAddOnInput) => {
  const current = await getAddOnRecord(addOnId);
  if (!current) throw new NotFound('Add-on not found');
  const { description, ...fields } = changes;
  const set = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  const clearsDescription = description === null || description === '';
  if (description) Object.assign(set, { description });
  const patch = entities().addOn.patch({ addOnId }).set(set);
  await (clearsDescription ? patch.remove(['description']) : patch).go();
  return toAddOnView({ ...current, ...set, ...(clearsDescription ? { description: undefined } : {}) } as AddOnRecord);
};

/** The seed's write: creates the add-on when its id is new and leaves an existing one (an admin's prices) alone. */
export const ensureAddOn = async (addOn: Omit<AddOnRecord, 'createdAt'>) => {
  await entities()
    .addOn.create(addOn)
    .go()
    .catch((error) => {
      if (!isConditionFailure(error)) throw error;
    });
};

// ---------------------------------------------------------------- an order's add-ons

export const getOrderAddOns = (orderId: string) => getRecord<OrderAddOnsRecord>(models.orderAddOns, { orderId });

/** What the order kept when it was made: its price per photo, its tier and that tier's surcharge. */
const keptPricing = (order: OrderRecord) => ({
  photoCount: order.photoCount,
  jobType: { name: order.jobTypeName, pricePerPhotoCents: order.pricePerPhotoCents },
  tier: tierOf(order.turnaroundTier),
  surchargePerPhotoCents: order.surchargePerPhotoCents ?? 0,
});

/** The order's price as the server computed it, from the lines the order keeps. */
export const orderPriceView = (order: OrderRecord): OrderPriceView => {
  const price = priceOrder({ ...keptPricing(order), addOns: (order.addOns ?? []) as AddOnLine[] });
  const surcharge = price.lines.find((line) => line.kind === 'surcharge');
  return {
    pricePerPhotoCents: order.pricePerPhotoCents,
    photoCount: order.photoCount,
    baseCents: price.baseCents,
    surcharge: surcharge
      ? { label: surcharge.label, perPhotoCents: surcharge.unitCents, amountCents: surcharge.amountCents }
      : null,
    addOnsCents: price.addOnsCents,
    // What the order asks: its total as written (the same sum, kept beside the payment intent).
    totalCents: order.totalAmountCents,
    lines: price.addOnLines.map((line) => ({
      addOnId: line.addOnId,
      name: line.name,
      pricePerPhotoCents: line.pricePerPhotoCents,
      photoCount: line.photoCount,
      amountCents: line.amountCents,
    })),
  };
};

export const toOrderAddOnsView = (order: OrderRecord, record: OrderAddOnsRecord | null): OrderAddOnsView => ({
  price: orderPriceView(order),
  photos: [...(record?.photos ?? [])].sort((a, b) => compareText(a.key, b.key)),
});

/**
 * Replaces the add-ons ticked on an order's photos and prices the order again. Refused, with
 * nothing written, unless the caller owns the order, it awaits payment, every key is one of its
 * originals and every add-on is offered. The names and prices are copied onto the order, its
 * payment intent gets the new amount first (a key of the change and the amount, so a retry is sent
 * once), then the order, its payment record, the selection and the event are written together,
 * conditioned on the order being as read.
 */
export const saveOrderAddOns = async ({
  order,
  photographerId,
  photos,
}: {
  order: OrderRecord;
  photographerId: string;
  photos: readonly { key: string; addOnIds: readonly string[] }[];
}): Promise<OrderAddOnsView> => {
  const { orderId } = order;
  if (order.photographerId !== photographerId) throw new NotFound('Order not found');
  if (order.status !== 'pending_payment') throw new Conflict(addOnMessages.notNow, undefined, 'ADD_ONS_LOCKED');
  const paymentIntentId = order.stripePaymentIntentId;
  if (!paymentIntentId) throw new Conflict('This order has no card payment to change');
  const chosen = photos
    .filter((photo) => photo.addOnIds.length > 0)
    .map((photo) => ({ key: photo.key, addOnIds: [...photo.addOnIds] }));
  const [catalogue, originals] = await Promise.all([
    listAddOnRecords({ activeOnly: true }),
    listAllImages(orderId, 'original'),
  ]);
  const keys = new Set(originals.map((image) => image.key));
  if (chosen.some((photo) => !keys.has(photo.key))) {
    throw new BadRequest(addOnMessages.unknownPhoto, undefined, 'UNKNOWN_PHOTO');
  }
  const offered = new Map(catalogue.map((addOn) => [addOn.addOnId, addOn]));
  if (chosen.some((photo) => photo.addOnIds.some((id) => !offered.has(id)))) {
    throw new BadRequest(addOnMessages.unknownAddOn, undefined, 'UNKNOWN_ADD_ON');
  }
  const lines: AddOnLine[] = catalogue
    .map((addOn) => ({
      addOnId: addOn.addOnId,
      name: addOn.name,
      pricePerPhotoCents: addOn.pricePerPhotoCents,
      editorRatePerPhotoCents: addOn.editorRatePerPhotoCents,
      photoCount: chosen.filter((photo) => photo.addOnIds.includes(addOn.addOnId)).length,
    }))
    .filter((line) => line.photoCount > 0);
  const price = priceOrder({ ...keptPricing(order), addOns: lines });
  const revision = order.addOnsRevision ?? 0;
  await updateOrderPaymentIntentAmount({
    paymentIntentId,
    amountCents: price.totalCents,
    idempotencyKey: `order-${orderId}-add-ons-${revision + 1}-${price.totalCents}`,
  });
  const summary = lines.length ? lines.map((line) => `${line.name} ×${line.photoCount}`).join(', ') : 'no add-ons';
  try {
    await commitAll((e) => [
      e.order
        .patch({ orderId })
        .set({
          addOns: lines,
          addOnsCents: price.addOnsCents,
          addOnsRevision: revision + 1,
          totalAmountCents: price.totalCents,
        })
        .composite(poolIndexComposite(order))
        .where(({ status, photographerId: owner, stripePaymentIntentId, addOnsRevision }, { eq, notExists }) =>
          [
            eq(status, 'pending_payment'),
            eq(owner, photographerId),
            eq(stripePaymentIntentId, paymentIntentId),
            revision === 0
              ? `(${notExists(addOnsRevision)} OR ${eq(addOnsRevision, 0)})`
              : eq(addOnsRevision, revision),
          ].join(' AND '),
        )
        .commit(),
      e.orderAddOns.put({ orderId, photos: chosen, updatedBy: photographerId }).commit(),
      e.payment.patch({ paymentIntentId }).set({ amountCents: price.totalCents }).commit(),
      outboxWrite(e, {
        orderId,
        eventType: 'add_ons_saved',
        description: `Add-ons: ${summary}; total ${(price.totalCents / 100).toFixed(2)} USD`,
        actorId: photographerId,
        metadata: {
          totalAmountCents: price.totalCents,
          addOnsCents: price.addOnsCents,
          lines: lines.map(({ addOnId, photoCount }) => ({ addOnId, photoCount })),
        },
      }),
    ]);
  } catch (error) {
    if (error instanceof TransactionCancelled && error.conditionFailed) {
      throw new Conflict('The order changed meanwhile. Please reload it and try again.');
    }
    throw error;
  }
  const saved: OrderRecord = {
    ...order,
    addOns: lines,
    addOnsCents: price.addOnsCents,
    addOnsRevision: revision + 1,
    totalAmountCents: price.totalCents,
  };
  return toOrderAddOnsView(saved, { orderId, photos: chosen, updatedBy: photographerId, updatedAt: '' });
};
