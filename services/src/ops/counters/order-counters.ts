import { marketplace } from '../../data/entities';
import { assignmentCounterName, ORDERS_SCOPE } from '../../data/order-assignment';
import { editorScope, type OrderRecord } from '../../data/orders';
import { listAllUsers } from '../../data/users';
import { editorEarningCents } from '../../domain/orders';
import { isActiveAdmin } from '../../domain/permissions';
import type { CounterFamily, ExpectedCounter } from '../counter-checks';

/**
 * The counters the order writes keep, counted again from the orders themselves: the photographer's
 * dashboard, the editor's dashboard and earnings, and the admin list's totals per assignment.
 * Every order is read once, a page at a time, through the two assignment partitions of the
 * admin's index (together they hold every order).
 */
const entities = () => marketplace().entities;

const photographerScope = (photographerId: string) => `photographer#${photographerId}`;
const legacyPayoutsScope = (editorId: string) => `payouts#${editorId}`;

const ACTIVE_FOR_PHOTOGRAPHER = new Set(['paid', 'in_progress', 'revision_requested']);
const ACTIVE_FOR_EDITOR = new Set(['in_progress', 'revision_requested']);

/** Each order, read a page at a time; `visit` sees every one exactly once. */
export const forEachOrder = async (visit: (order: OrderRecord) => void) => {
  for (const assignment of ['unassigned', 'assigned'] as const) {
    let cursor: string | null = null;
    do {
      const page: { data: unknown[]; cursor: string | null } = await entities()
        .order.query.byAssignment({ assignment })
        .go({ cursor, limit: 500 });
      for (const order of page.data as OrderRecord[]) visit(order);
      cursor = page.cursor;
    } while (cursor);
  }
};

class Tally {
  private readonly values = new Map<string, ExpectedCounter>();

  add(scope: string, name: string, by: number) {
    const key = `${scope}\u0000${name}`;
    const counter = this.values.get(key) ?? { scope, name, value: 0 };
    counter.value += by;
    this.values.set(key, counter);
  }

  list() {
    return [...this.values.values()];
  }
}

const turnaroundSecondsOf = (order: OrderRecord) =>
  order.claimedAt && order.completedAt
    ? Math.max(0, Math.round((Date.parse(order.completedAt) - Date.parse(order.claimedAt)) / 1000))
    : 0;

const editorIds = async (fromOrders: Set<string>) => {
  const ids = new Set(fromOrders);
  let cursor: string | null = null;
  do {
    const page: { data: unknown[]; cursor: string | null } = await entities()
      .user.query.editors({ isEditor: 'editor' })
      .go({ cursor, limit: 500 });
    for (const user of page.data as { userId: string }[]) ids.add(user.userId);
    cursor = page.cursor;
  } while (cursor);
  return ids;
};

const payoutsOf = async (editorId: string) => {
  const [{ data: payouts }, { data: legacy }] = await Promise.all([
    entities().payout.query.byEditor({ editorId }).go({ pages: 'all' }),
    entities()
      .counter.query.byScope({ scope: legacyPayoutsScope(editorId) })
      .go({ pages: 'all' }),
  ]);
  return (
    (payouts as { amountCents: number }[]).reduce((sum, p) => sum + p.amountCents, 0) +
    (legacy as { value: number }[]).reduce((sum, c) => sum + c.value, 0)
  );
};

/**
 * What Stripe moved for an editor (data/bank-payouts.ts, data/earning-reversals.ts): paid-out
 * payouts' matched amounts, less what was reversed after it reached the bank; and the earnings
 * taken back after a refund. Read from the editor's own payouts and earnings, paged.
 */
const stripeMovesOf = async (editorId: string) => {
  const [{ data: payouts }, { data: earnings }] = await Promise.all([
    entities().bankPayout.query.byEditor({ editorId }).go({ pages: 'all' }),
    entities().earning.query.byEditor({ editorId }).go({ pages: 'all' }),
  ]);
  const settled = (payouts as { status: string; settledCents: number }[])
    .filter((p) => p.status === 'paid')
    .reduce((sum, p) => sum + p.settledCents, 0);
  const reversed = (
    earnings as { state: string; amountCents: number; payoutId?: string; transferAmountCents?: number }[]
  ).filter((e) => e.state === 'reversed');
  const reversedAfterPayout = reversed
    .filter((e) => e.payoutId)
    .reduce((sum, e) => sum + (e.transferAmountCents ?? 0), 0);
  return {
    paidOut: settled - reversedAfterPayout,
    reversed: reversed.reduce((sum, e) => sum + e.amountCents, 0),
  };
};

const recountOrders = async () => {
  const tally = new Tally();
  const editorsWithOrders = new Set<string>();
  await forEachOrder((order) => {
    tally.add(ORDERS_SCOPE, assignmentCounterName(order.assignment), 1);

    const photographer = photographerScope(order.photographerId);
    tally.add(photographer, 'totalOrders', 1);
    tally.add(photographer, 'totalPhotos', order.photoCount);
    if (order.paidAt) tally.add(photographer, 'totalSpent', order.totalAmountCents - (order.refundedAmountCents ?? 0));
    tally.add(photographer, 'activeOrders', ACTIVE_FOR_PHOTOGRAPHER.has(order.status) ? 1 : 0);

    if (!order.editorId) return;
    editorsWithOrders.add(order.editorId);
    const editor = editorScope(order.editorId);
    tally.add(editor, 'activeOrders', ACTIVE_FOR_EDITOR.has(order.status) ? 1 : 0);
    if (order.completedAt) {
      const earning = editorEarningCents(order);
      tally.add(editor, 'completedOrders', 1);
      tally.add(editor, 'totalEarnings', earning);
      tally.add(editor, 'pendingPayouts', earning);
      tally.add(editor, 'turnaroundSeconds', turnaroundSecondsOf(order));
    }
    if (order.photographerRating !== undefined) {
      tally.add(editor, 'ratingSum', order.photographerRating);
      tally.add(editor, 'ratingCount', 1);
    }
  });
  for (const editorId of await editorIds(editorsWithOrders)) {
    const paidOut = await payoutsOf(editorId);
    const stripe = await stripeMovesOf(editorId);
    // Paid by hand, or paid out by Stripe to their bank; a reversed earning leaves both totals.
    tally.add(editorScope(editorId), 'paidOut', paidOut + stripe.paidOut);
    tally.add(editorScope(editorId), 'pendingPayouts', -paidOut - stripe.paidOut - stripe.reversed);
    tally.add(editorScope(editorId), 'totalEarnings', -stripe.reversed);
  }
  return tally.list();
};

const PHOTOGRAPHER_COUNTERS = new Set(['totalOrders', 'totalPhotos', 'totalSpent', 'activeOrders']);
const EDITOR_COUNTERS = new Set([
  'activeOrders',
  'completedOrders',
  'totalEarnings',
  'pendingPayouts',
  'paidOut',
  'ratingSum',
  'ratingCount',
  'turnaroundSeconds',
]);

/** Every photographer's and editor's scope there is a user for. */
const userScopes = async () => {
  const users = await listAllUsers();
  return users.flatMap((u) => [photographerScope(u.userId), editorScope(u.userId)]);
};

export const orderCounters: CounterFamily = {
  what: "orders: photographers' and editors' dashboards and earnings, the admin list's totals",
  recount: recountOrders,
  scopes: async () => [ORDERS_SCOPE, ...(await userScopes())],
  keeps: (scope, name) =>
    scope === ORDERS_SCOPE
      ? name.startsWith('assignment#')
      : scope.startsWith('photographer#')
        ? PHOTOGRAPHER_COUNTERS.has(name)
        : scope.startsWith('editor#') && EDITOR_COUNTERS.has(name),
};

const ACTIVE_ADMINS = { scope: 'users', name: 'activeAdmins' } as const;

export const activeAdminCounter: CounterFamily = {
  what: 'users: the active admins (the last-admin guard)',
  recount: async () => [{ ...ACTIVE_ADMINS, value: (await listAllUsers()).filter(isActiveAdmin).length }],
  scopes: async () => [ACTIVE_ADMINS.scope],
  keeps: (scope, name) => scope === ACTIVE_ADMINS.scope && name === ACTIVE_ADMINS.name,
};
