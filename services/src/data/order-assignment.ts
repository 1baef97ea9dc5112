import { orderSearchWords, photographerSortName } from '@marketplace/events/admin';
import { counterAdd } from './transactions';

type Entities = Parameters<typeof counterAdd>[0];
export type Assignment = 'assigned' | 'unassigned';

/**
 * What the admin's order list needs kept in step with each order: a counter per assignment (the
 * list's totals) and the order's search words (which carry its assignment). Every write that
 * creates an order or moves it between assigned and unassigned adds these to its transaction.
 */
export const ORDERS_SCOPE = 'orders';
export const assignmentCounterName = (assignment: Assignment) => `assignment#${assignment}`;

/** The search partition a word lives in: its first character. */
export const searchInitial = (word: string) => String.fromCodePoint(word.codePointAt(0) ?? 0x5f);

interface SearchableOrder {
  orderId: string;
  orderNumber: number;
  name?: string | null;
  photographerName: string;
  /** Absent on orders written before the admin list existed: they have no search words. */
  photographerSortName?: string;
  assignment: Assignment;
  createdAt: string;
  photoCount: number;
}

/** The search items of an order as it is now. */
export const searchWordRecords = (order: SearchableOrder) => {
  const words = orderSearchWords(order);
  return words.map((word) => ({
    initial: searchInitial(word),
    word,
    orderId: order.orderId,
    words: words.join(' '),
    assignment: order.assignment,
    createdAt: order.createdAt,
    photoCount: order.photoCount,
    photographerSortName: order.photographerSortName ?? photographerSortName(order.photographerName),
  }));
};

/** The writes that count and index a new order (it starts unassigned). */
export const newOrderListWrites = (e: Entities, order: SearchableOrder) => [
  counterAdd(e, ORDERS_SCOPE, assignmentCounterName(order.assignment), 1),
  ...searchWordRecords(order).map((record) => e.orderSearchWord.create(record).commit()),
];

/**
 * The writes that move an order from its current assignment to `to`: both counters and every
 * search word. None when it does not move. The caller's conditional write on the order must pin
 * the assignment it read, so the counters move exactly when the order does.
 */
export const assignmentMoveWrites = (e: Entities, order: SearchableOrder, to: Assignment) => {
  if (order.assignment === to) return [];
  return [
    counterAdd(e, ORDERS_SCOPE, assignmentCounterName(order.assignment), -1),
    counterAdd(e, ORDERS_SCOPE, assignmentCounterName(to), 1),
    ...(order.photographerSortName
      ? orderSearchWords(order).map((word) =>
          e.orderSearchWord
            .patch({ initial: searchInitial(word), word, orderId: order.orderId })
            .set({ assignment: to })
            .commit(),
        )
      : []),
  ];
};

/** The key parts ElectroDB needs to re-form the admin indexes (gsi5-7) when `assignment` changes. */
export const adminIndexComposite = (order: SearchableOrder) => ({
  createdAt: order.createdAt,
  photoCount: order.photoCount,
  photographerSortName: order.photographerSortName ?? photographerSortName(order.photographerName),
});
