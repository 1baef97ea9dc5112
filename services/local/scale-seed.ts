import { DescribeTableCommand, UpdateTableCommand } from '@aws-sdk/client-dynamodb';
import { photographerSortName } from '@marketplace/events/admin';
import type { FeedbackStatus, FeedbackType } from '@marketplace/events/feedback';
import type { OrderEventType } from '@marketplace/events/order-events';
import { orderDisplayName } from '@marketplace/events/orders';
import type { Role } from '@marketplace/events/roles';
import { turnaroundTiers } from '@marketplace/events/turnaround';
import { ulid } from 'ulid';
import { dynamo, tableName } from '../src/data/client';
import { marketplace } from '../src/data/entities';
import { hashInvitationToken } from '../src/data/invitations';
import { searchWordRecords } from '../src/data/order-assignment';
import { assignedPlace, openPlace, poolCounterKey, poolDueKeyOf, poolTierCounterKey } from '../src/data/order-pool';
import type { OrderRecord } from '../src/data/orders';
import { outboxRecord } from '../src/data/transactions';
import { USER_TOTALS_SCOPE, userTotalNames } from '../src/data/user-totals';
import { roleIndexAttributes } from '../src/data/users';
import { dueAtFor } from '../src/domain/orders';
import { seedJobTypes, starterJobTypes } from '../src/ops/seed';
import { ensureTable } from './table-setup';

/**
 * A marketplace of any size, for measuring what each request reads as the table grows: orders in
 * every state, spread over photographers and editors whose number grows with them, with the items
 * the routes write beside each order (search words, payment, activity log, revision rounds),
 * feedback, payouts, invited editors, and the counters all of that implies: the dashboards', the
 * admin list's, the open pool's shards and the user totals, as `check-counters` counts them.
 *
 * Items are built as the routes leave them and written in batches straight into the table the
 * data layer is configured for (TABLE_NAME; created with ensureTable when missing), so 100,000
 * orders take minutes, not the hours the API would. `grow(n)` adds orders up to n in all, newer
 * than the ones before, so one table can be measured at 1,000, then 10,000, then 100,000.
 *
 * Three people are the ones to measure with, and their own data is shaped on purpose:
 * - the photographer places one order in 23, so their order list and feedback grow with the table;
 * - the editor delivered one finished order in 7 (their history, earnings and payouts grow with
 *   the table) but works on a fixed number at a time, as one person does: EDITOR_WORKLOAD;
 * - the admin sees everything.
 * Not seeded: photo files and their image records (no list reads them), and outbox records (the
 * stream has delivered them long ago); the upload counts on each order say what was uploaded.
 */

/** How many photographers and editors a marketplace of `orders` orders has. */
export type Shape = (orders: number) => { photographers: number; editors: number };

/** 5,000 photographers and 500 editors at 100,000 orders. */
export const marketplaceShape: Shape = (orders) => ({
  photographers: Math.max(10, Math.round(orders / 20)),
  editors: Math.max(5, Math.round(orders / 200)),
});

/** The busiest editor's work at any one time, whatever the table's size. */
export const EDITOR_WORKLOAD = { offered: 4, inProgress: 12, revisionRequested: 3 } as const;

/** Invitations waiting for an answer: a handful at any size. */
export const PENDING_INVITATIONS = 5;

/** A word only a fixed set of orders carry in their name (RARE_ORDERS of them, among the first 1,000). */
export const RARE_WORD = 'quayside';
export const RARE_ORDERS = 12;

/** Each order's state, by its index: a cycle of 50 slots, so every state is in every thousand. */
type OrderKind =
  | 'pending_payment'
  | 'open'
  | 'open-with-requirements'
  | 'offered'
  | 'in_progress'
  | 'revision_requested'
  | 'completed'
  | 'completed-after-revision'
  | 'cancelled'
  | 'refunded';

const times = (kind: OrderKind, count: number): OrderKind[] => Array.from({ length: count }, () => kind);

const cycle: readonly OrderKind[] = [
  ...times('pending_payment', 5),
  ...times('open', 3),
  ...times('open-with-requirements', 2),
  'offered',
  ...times('in_progress', 4),
  'revision_requested',
  ...times('completed', 26),
  ...times('completed-after-revision', 3),
  ...times('cancelled', 3),
  ...times('refunded', 2),
];

const HOUR = 3_600_000;
/** Order i is placed at START + i x ORDER_SPACING: 100,000 orders span about a year. */
const START = Date.parse('2025-01-01T00:00:00.000Z');
const ORDER_SPACING = 5 * 60_000;
const at = (ms: number) => new Date(ms).toISOString();

const firstNames = ['Ann', 'Anna', 'Bob', 'Carla', 'Dmitri', 'Eve', 'Grace', 'Hiro', 'Ines', 'Jon'];
const lastNames = ['Lee', 'Ng', 'Novak', 'Ortiz', 'Park', 'Quinn', 'Reyes', 'Smith', 'Tran', 'Weiss'];
const streets = ['Maple Street', 'Oak Avenue', 'Harbor View', 'Lee Road', 'Pine Court'];
const feedbackTypes: readonly FeedbackType[] = ['problem', 'suggestion', 'suggestion', 'general', 'problem'];
const feedbackStatuses: readonly FeedbackStatus[] = [
  'open',
  'open',
  'open',
  'open',
  'in_progress',
  'in_progress',
  'resolved',
  'resolved',
  'resolved',
  'closed',
];

export interface Person {
  userId: string;
  email: string;
  displayName: string;
  roles: Role[];
}

interface UserItem extends Person {
  status: 'verified' | 'invited' | 'suspended';
  isActive: boolean;
  deletedAt?: string;
  invitedAt?: string;
  isEditor?: string;
  createdAt: string;
}

type Entities = ReturnType<typeof marketplace>['entities'];
interface Writer {
  put: (records: object[]) => { go: () => Promise<{ unprocessed: unknown[] }> };
}
/** Records of one entity to write in batches (typed by the builders above, not by ElectroDB's put). */
const itemsOf = (entity: unknown, records: object[]) => ({ entity: entity as Writer, records });

/** Batches of 25 (BatchWriteItem's most), `concurrency` in flight, unprocessed items sent again. */
const writeAll = async (groups: ReturnType<typeof itemsOf>[], concurrency: number) => {
  const batches = groups.flatMap(({ entity, records }) =>
    Array.from({ length: Math.ceil(records.length / 25) }, (_, i) => ({
      entity,
      records: records.slice(i * 25, i * 25 + 25),
    })),
  );
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const batch = batches[next++]!;
      let pending = batch.records;
      for (let attempt = 1; pending.length; attempt += 1) {
        if (attempt > 10) throw new Error('DynamoDB kept items of a batch unprocessed');
        pending = (await batch.entity.put(pending).go()).unprocessed as object[];
        if (pending.length) await new Promise((resolve) => setTimeout(resolve, attempt * 50));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, batches.length) }, worker));
  return batches.reduce((sum, b) => sum + b.records.length, 0);
};

/**
 * The counters the seeded items imply. Those of the seeded people's own scopes are only ever the
 * seed's, so their totals are kept here and written whole, in batches; counters other writers may
 * share (the marketplace's order and feedback totals, the admin count) get an ADD of the seed's
 * part, so they stay right in a table that held data before.
 */
class SeedCounters {
  private readonly totals = new Map<string, number>();
  private readonly dirty = new Set<string>();
  private readonly moves = new Map<string, number>();

  constructor(private readonly ownsScope: (scope: string) => boolean) {}

  add(scope: string, name: string, by: number) {
    if (by === 0) return;
    const key = `${scope}\u0000${name}`;
    if (this.ownsScope(scope)) {
      this.totals.set(key, (this.totals.get(key) ?? 0) + by);
      this.dirty.add(key);
    } else {
      this.moves.set(key, (this.moves.get(key) ?? 0) + by);
    }
  }

  /** Writes what changed since the last call; answers how many counters it wrote. */
  async write(e: Entities, concurrency: number) {
    const split = (key: string) => key.split('\u0000') as [string, string];
    const whole = [...this.dirty].map((key) => {
      const [scope, name] = split(key);
      return { scope, name, value: this.totals.get(key)! };
    });
    const moves = [...this.moves].map(([key, by]) => {
      const [scope, name] = split(key);
      return { scope, name, by };
    });
    this.dirty.clear();
    this.moves.clear();
    await writeAll([itemsOf(e.counter, whole)], concurrency);
    let next = 0;
    const worker = async () => {
      while (next < moves.length) {
        const { scope, name, by } = moves[next++]!;
        await e.counter.update({ scope, name }).add({ value: by }).go();
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, moves.length) }, worker));
    return whole.length + moves.length;
  }
}

/**
 * DynamoDB Local looks up the table's stream on every write, in time that grows with the stream
 * records it keeps (for 24 hours, across tables): with the stream on, a million writes slow from
 * a thousand a second to a few dozen, and every other table of the same DynamoDB Local slows with
 * them. Nothing reads the stream of a seeded table, so it is turned off before the writes.
 */
const withoutStream = async (table: string) => {
  const { Table } = await dynamo().send(new DescribeTableCommand({ TableName: table }));
  if (!Table?.StreamSpecification?.StreamEnabled) return;
  await dynamo().send(new UpdateTableCommand({ TableName: table, StreamSpecification: { StreamEnabled: false } }));
};

const invitationToken = (n: number) => `scale-invitation-${n}`;
const inviteeEmail = (n: number) => `scale-invitee-${n}@example.test`;

const editorScope = (editorId: string) => `editor#${editorId}`;
const photographerScope = (photographerId: string) => `photographer#${photographerId}`;

export interface ScaleSeedOptions {
  shape?: Shape;
  /**
   * Write the activity log and the payment of one order in `detailEvery` (and of every order of
   * the measured photographer). 1, the default, writes them for all; they sit in each order's own
   * partition, which no list reads, so a test that only measures lists may skip most of them.
   */
  detailEvery?: number;
  /** Batches in flight. */
  concurrency?: number;
  log?: (line: string) => void;
}

export interface GrowthReport {
  orders: number;
  photographers: number;
  editors: number;
  items: number;
  counters: number;
  seconds: number;
}

export const scaleSeed = ({
  shape = marketplaceShape,
  detailEvery = 1,
  concurrency = 16,
  log = () => {},
}: ScaleSeedOptions = {}) => {
  const e = () => marketplace().entities;
  const admin: Person = {
    userId: 'scale-admin',
    email: 'scale-admin@example.test',
    displayName: 'Ada Admin',
    roles: ['admin'],
  };
  const photographers: Person[] = [];
  const editors: Person[] = [];
  /** The measured photographer's orders, the first of each kind (for an order's detail and events). */
  const photographerOrders = new Map<OrderKind, string>();
  const workload = { offered: 0, inProgress: 0, revisionRequested: 0 };
  let orderCount = 0;
  let activeTurn = 0;
  let feedbackCount = 0;
  let started = false;
  const counters = new SeedCounters((scope) => /^(photographer|editor|pool)#scale-/.test(scope));

  const personName = (n: number) => `${firstNames[n % 10]} ${lastNames[Math.floor(n / 10) % 10]}`;

  /** People join as the marketplace grows: the k-th of `count` joining while orders `from`..`to` are placed. */
  const joinedAt = (k: number, count: number, from: number, to: number) =>
    START + Math.floor(from + ((to - from) * k) / count) * ORDER_SPACING - HOUR;

  const newPhotographer = (n: number, joined: number): UserItem => {
    const displayName = personName(n + 3);
    return {
      userId: n === 0 ? 'scale-photographer' : `scale-photographer-${n}`,
      email: `scale-photographer-${n}@example.test`,
      displayName,
      roles: ['photographer'],
      // Every 25th suspended, every 30th deleted: the admin's status and deleted filters find some.
      status: n > 0 && n % 25 === 0 ? 'suspended' : 'verified',
      isActive: !(n > 0 && n % 30 === 0),
      ...(n > 0 && n % 30 === 0 ? { deletedAt: at(joined + 90 * 24 * HOUR) } : {}),
      createdAt: at(joined),
    };
  };

  const newEditor = (n: number, joined: number): UserItem => ({
    userId: n === 0 ? 'scale-editor' : `scale-editor-${n}`,
    email: `scale-editor-${n}@example.test`,
    displayName: `${personName(n + 7)} Edits`,
    roles: ['editor'],
    status: 'verified',
    isActive: true,
    isEditor: 'editor',
    invitedAt: at(joined - 24 * HOUR),
    createdAt: at(joined),
  });

  /** An editor's own rates: every job type for the measured editor, three for the others. */
  const ratesOf = (editor: Person, n: number) =>
    starterJobTypes
      .filter((_, j) => n === 0 || (n + j) % 5 < 3)
      .map((j) => ({
        editorId: editor.userId,
        jobTypeId: j.jobTypeId,
        ratePerPhotoCents: j.defaultEditorPriceCents + (n % 4) * 10,
      }));

  /** The people and invitations a first seed writes: admins, and the editors still invited. */
  const firstPeople = () => {
    const other: UserItem = {
      ...admin,
      userId: 'scale-admin-2',
      email: 'scale-admin-2@example.test',
      displayName: 'Abe Admin',
      status: 'verified',
      isActive: true,
      createdAt: at(START - 30 * 24 * HOUR),
    };
    const invited: UserItem[] = Array.from({ length: PENDING_INVITATIONS }, (_, n) => ({
      userId: `invited-${ulid(START + n).toUpperCase()}`,
      email: inviteeEmail(n),
      displayName: `${personName(n + 11)} Invited`,
      roles: ['editor'],
      status: 'invited',
      isActive: true,
      isEditor: 'editor',
      invitedAt: at(Date.now() - (n + 1) * 24 * HOUR),
      createdAt: at(Date.now() - (n + 1) * 24 * HOUR),
    }));
    const invitations = invited.map((user, n) => ({
      tokenHash: hashInvitationToken(invitationToken(n)),
      email: user.email,
      displayName: user.displayName,
      invitedBy: admin.userId,
      userId: user.userId,
      status: 'pending' as const,
      expiresAt: Math.floor(Date.now() / 1000) + 7 * 24 * 3600,
      createdAt: user.createdAt,
    }));
    const users: UserItem[] = [
      { ...admin, status: 'verified', isActive: true, createdAt: at(START - 31 * 24 * HOUR) },
      other,
      ...invited,
    ];
    return { users, invitations, rates: invited.flatMap((user, n) => ratesOf(user, n + 1)) };
  };

  /** The editor of an order an editor holds now: the measured one until their workload is full. */
  const activeEditor = (kind: 'offered' | 'inProgress' | 'revisionRequested') => {
    if (workload[kind] < EDITOR_WORKLOAD[kind]) {
      workload[kind] += 1;
      return editors[0]!;
    }
    activeTurn += 1;
    return editors[1 + (activeTurn % (editors.length - 1))]!;
  };

  /** The editor of a finished order: the measured one for one in seven, so their history grows with the table. */
  const finishedEditor = (i: number) => (i % 7 === 0 ? editors[0]! : editors[1 + ((i * 7919) % (editors.length - 1))]!);

  const editorOf = (kind: OrderKind, i: number) => {
    if (kind === 'offered') return activeEditor('offered');
    if (kind === 'in_progress') return activeEditor('inProgress');
    if (kind === 'revision_requested') return activeEditor('revisionRequested');
    if (kind === 'completed' || kind === 'completed-after-revision') return finishedEditor(i);
    return undefined;
  };

  const rateCents = (editorIndex: number, jobTypeId: string) => {
    const jobType = starterJobTypes.find((j) => j.jobTypeId === jobTypeId)!;
    return jobType.defaultEditorPriceCents + (editorIndex % 4) * 10;
  };

  /** One order as the routes leave it in its state, with the items written beside it and the counter moves. */
  const buildOrder = (i: number) => {
    const kind = cycle[i % cycle.length]!;
    const photographer =
      i % 23 === 0 ? photographers[0]! : photographers[1 + ((i * 104_729) % (photographers.length - 1))]!;
    const jobType = starterJobTypes[(i * 31) % starterJobTypes.length]!;
    const photoCount = 1 + ((i * 37) % 60);
    const createdMs = START + i * ORDER_SPACING;
    const createdAt = at(createdMs);
    const named = i < 1000 && i % 83 === 7 ? `Quayside Loft ${i}` : i % 2 ? `${streets[i % 5]} ${i % 97}` : undefined;
    const hasRequirements =
      kind === 'open-with-requirements' || (kind !== 'open' && i % 3 === 0) ? ('yes' as const) : ('no' as const);
    const totalAmountCents = photoCount * jobType.pricePerPhotoCents;
    // Each place in the cycle takes the three tiers in turn, so every pool lane fills alike.
    const tier = turnaroundTiers[(Math.floor(i / cycle.length) + (i % cycle.length)) % turnaroundTiers.length]!;
    const dueAt = (paidAt: number) => dueAtFor(new Date(paidAt), tier).toISOString();
    const paymentIntentId = `pi_scale_${i}`;
    const paid = kind !== 'pending_payment' && kind !== 'cancelled';
    const paidMs = createdMs + 10 * 60_000;
    const editor = editorOf(kind, i);
    const editorIndex = editor ? editors.indexOf(editor) : -1;
    const claimed = kind === 'in_progress' || kind === 'revision_requested' || kind.startsWith('completed');
    const claimedMs = paidMs + HOUR;
    const completedMs = claimedMs + (6 + (i % 43)) * HOUR;
    const delivered = kind === 'revision_requested' || kind.startsWith('completed');
    const revised = kind === 'revision_requested' || kind === 'completed-after-revision';
    const rated = kind.startsWith('completed') && i % 3 !== 0;
    const rating = 6 + (i % 5);
    const editorRateCents = editor && claimed ? rateCents(editorIndex, jobType.jobTypeId) : undefined;
    const cancelledMs = paid ? paidMs + 2 * HOUR : createdMs + 3 * 24 * HOUR;

    const orderId = ulid(createdMs);
    const order: Omit<OrderRecord, 'updatedAt'> = {
      orderId,
      orderNumber: 1001 + i,
      ...(named ? { name: named } : {}),
      photographerId: photographer.userId,
      photographerName: photographer.displayName,
      photographerSortName: photographerSortName(photographer.displayName),
      jobTypeId: jobType.jobTypeId,
      jobTypeName: jobType.name,
      pricePerPhotoCents: jobType.pricePerPhotoCents,
      turnaroundTier: tier,
      photoCount,
      totalAmountCents,
      ...(hasRequirements === 'yes' ? { editingRequirements: 'Brighten the windows; keep the sky blue.' } : {}),
      hasRequirements,
      status:
        kind === 'open' || kind === 'open-with-requirements' || kind === 'offered'
          ? 'paid'
          : kind === 'completed-after-revision'
            ? 'completed'
            : kind === 'refunded'
              ? 'cancelled'
              : kind,
      stripePaymentIntentId: paymentIntentId,
      ...(paid
        ? {
            paidAt: at(paidMs),
            dueAt: dueAt(paidMs),
            poolDueKey: poolDueKeyOf({ orderId, hasRequirements, turnaroundTier: tier, dueAt: dueAt(paidMs) }),
          }
        : {}),
      ...(kind === 'open' || kind === 'open-with-requirements' ? openPlace(orderId) : {}),
      ...(kind === 'offered' ? assignedPlace(editor!.userId) : {}),
      assignment: editor ? 'assigned' : 'unassigned',
      ...(editor
        ? {
            editorId: editor.userId,
            editorName: editor.displayName,
            editorEmail: editor.email,
            assignedAt: at(kind === 'offered' ? paidMs + 30 * 60_000 : claimedMs),
          }
        : {}),
      ...(claimed ? { claimedAt: at(claimedMs), editorRateCents } : {}),
      ...(delivered ? { completedAt: at(completedMs) } : {}),
      ...(kind === 'cancelled' || kind === 'refunded'
        ? { cancelledAt: at(cancelledMs), cancelledBy: admin.userId }
        : {}),
      ...(kind === 'cancelled' ? { refundedAmountCents: 0 } : {}),
      ...(kind === 'refunded' ? { refundedAmountCents: totalAmountCents, refundId: `re_scale_${i}` } : {}),
      ...(delivered && i % 4 === 0 ? { editorNotes: 'Balanced the windows and straightened the verticals.' } : {}),
      ...(rated ? { photographerRating: rating } : {}),
      photographerUploadCount: photoCount,
      editorUploadCount: delivered ? photoCount + (revised ? 2 : 0) : 0,
      revisionCount: revised ? 1 : 0,
      ...(kind === 'revision_requested' ? { revisionRequestedAt: at(completedMs + 20 * HOUR) } : {}),
      searchText: `${photographer.displayName}\u0000${named ?? ''}`.toLowerCase(),
      createdAt,
    };

    if (photographer === photographers[0] && !photographerOrders.has(kind)) photographerOrders.set(kind, order.orderId);
    const detailed = i % detailEvery === 0 || photographer === photographers[0];

    const revisions = revised
      ? [
          {
            orderId: order.orderId,
            round: 1,
            note: 'Please brighten the kitchen and remove the car from the driveway.',
            photoNotes: [],
            requestedBy: photographer.userId,
            requestedAt: at(completedMs + 20 * HOUR),
            editorUploadsAtRequest: photoCount,
            ...(kind === 'completed-after-revision' ? { completedAt: at(completedMs + 30 * HOUR) } : {}),
          },
        ]
      : [];

    // What each step of the order's life wrote through the outbox, as the event worker stores it.
    const events: { type: OrderEventType; ms: number; description: string; actorId: string; metadata: object }[] = [
      {
        type: 'order_created',
        ms: createdMs,
        description: `Order ${orderDisplayName(order)} created for ${photoCount} photo(s)`,
        actorId: photographer.userId,
        metadata: { photoCount, totalAmountCents },
      },
    ];
    if (paid) {
      events.push({
        type: 'order_paid',
        ms: paidMs,
        description: `Payment of ${(totalAmountCents / 100).toFixed(2)} USD received`,
        actorId: photographer.userId,
        metadata: { paymentIntentId, amountCents: totalAmountCents, via: 'webhook' },
      });
    }
    if (kind === 'offered') {
      events.push({
        type: 'order_assigned',
        ms: paidMs + 30 * 60_000,
        description: `Assigned to ${editor!.displayName} by an admin`,
        actorId: admin.userId,
        metadata: { editorId: editor!.userId, previousEditorId: null },
      });
    }
    if (claimed) {
      events.push({
        type: 'order_claimed',
        ms: claimedMs,
        description: `${editor!.displayName} started work on the order`,
        actorId: editor!.userId,
        metadata: { editorId: editor!.userId },
      });
    }
    if (delivered) {
      events.push({
        type: 'order_completed',
        ms: completedMs,
        description: 'The editor delivered the edited photos',
        actorId: editor!.userId,
        metadata: { editorId: editor!.userId, editedCount: photoCount },
      });
    }
    if (revised) {
      events.push({
        type: 'revision_requested',
        ms: completedMs + 20 * HOUR,
        description: 'The photographer asked for a revision (round 1 of 2)',
        actorId: photographer.userId,
        metadata: { round: 1, editorId: editor!.userId, note: revisions[0]!.note, photoNoteCount: 0 },
      });
    }
    if (kind === 'completed-after-revision') {
      events.push({
        type: 'order_completed',
        ms: completedMs + 30 * HOUR,
        description: 'The editor re-delivered the edited photos (revision 1)',
        actorId: editor!.userId,
        metadata: { editorId: editor!.userId, editedCount: photoCount + 2, revisionRound: 1 },
      });
    }
    if (rated) {
      events.push({
        type: 'order_rated',
        ms: completedMs + 40 * HOUR,
        description: `The photographer rated the editor ${rating}/10`,
        actorId: photographer.userId,
        metadata: { rating, editorId: editor!.userId },
      });
    }
    if (kind === 'cancelled' || kind === 'refunded') {
      events.push({
        type: 'order_cancelled',
        ms: cancelledMs,
        description: paid
          ? `Cancelled by an admin; ${(totalAmountCents / 100).toFixed(2)} USD to be refunded`
          : 'Cancelled by an admin before payment',
        actorId: admin.userId,
        metadata: { previousStatus: paid ? 'paid' : 'pending_payment', refundDueCents: paid ? totalAmountCents : 0 },
      });
    }
    const eventItems = detailed
      ? events.map(({ type, ms, description, actorId, metadata }) => {
          const { expiresAt: _stored, ...event } = outboxRecord(
            { orderId: order.orderId, eventType: type, description, actorId, metadata: { ...metadata } },
            new Date(ms),
          );
          return event;
        })
      : [];
    const payments = detailed
      ? [
          {
            paymentIntentId,
            orderId: order.orderId,
            amountCents: totalAmountCents,
            currency: 'usd',
            status: kind === 'refunded' ? 'refunded' : paid ? 'succeeded' : 'requires_payment',
            ...(kind === 'refunded' ? { refundId: `re_scale_${i}` } : {}),
            createdAt,
          },
        ]
      : [];

    // The counters every step above moved, in the transactions that made it.
    const byPhotographer = photographerScope(photographer.userId);
    counters.add('orders', 'orderNumber', 1);
    counters.add('orders', `assignment#${order.assignment}`, 1);
    counters.add(byPhotographer, 'totalOrders', 1);
    counters.add(byPhotographer, 'totalPhotos', photoCount);
    if (paid) counters.add(byPhotographer, 'totalSpent', kind === 'refunded' ? 0 : totalAmountCents);
    const active = order.status === 'paid' || order.status === 'in_progress' || order.status === 'revision_requested';
    if (active) counters.add(byPhotographer, 'activeOrders', 1);
    if (order.poolPartition) {
      for (const { scope, name } of [
        poolCounterKey(order.poolPartition, hasRequirements),
        poolTierCounterKey(order.poolPartition, hasRequirements, tier),
      ]) {
        counters.add(scope, name, 1);
      }
    }
    let earning = 0;
    if (editor && claimed) {
      const byEditor = editorScope(editor.userId);
      if (order.status === 'in_progress' || order.status === 'revision_requested')
        counters.add(byEditor, 'activeOrders', 1);
      if (delivered) {
        earning = photoCount * editorRateCents!;
        counters.add(byEditor, 'completedOrders', 1);
        counters.add(byEditor, 'totalEarnings', earning);
        counters.add(byEditor, 'pendingPayouts', earning);
        counters.add(byEditor, 'turnaroundSeconds', Math.round((completedMs - claimedMs) / 1000));
      }
      if (rated) {
        counters.add(byEditor, 'ratingSum', rating);
        counters.add(byEditor, 'ratingCount', 1);
      }
    }
    return {
      order,
      words: searchWordRecords(order),
      revisions,
      events: eventItems,
      payments,
      earning: delivered ? { editor: editor!, amountCents: earning, paidMs: completedMs + 7 * 24 * HOUR } : undefined,
    };
  };

  /** Feedback grows with the orders: one item per 10, one in five by the measured photographer. */
  const buildFeedback = (n: number) => {
    const author =
      n % 5 === 0
        ? photographers[0]!
        : n % 7 === 0
          ? editors[(n * 13) % editors.length]!
          : photographers[(n * 7919) % photographers.length]!;
    const type = feedbackTypes[n % feedbackTypes.length]!;
    const status = feedbackStatuses[(n * 3) % feedbackStatuses.length]!;
    const createdMs = START + n * 10 * ORDER_SPACING + 17 * 60_000;
    const reviewed = status !== 'open';
    for (const name of ['total', `type#${type}`, `status#${status}`, `status#${status}#type#${type}`]) {
      counters.add('feedback', name, 1);
    }
    return {
      feedbackId: ulid(createdMs),
      userId: author.userId,
      userName: author.displayName,
      userEmail: author.email,
      type,
      status,
      message: `The ${type === 'problem' ? 'upload stalled at 90%' : 'order page could show the due time'} (${n}).`,
      ...(reviewed
        ? { adminNotes: 'Looked into it.', reviewerName: admin.displayName, reviewedAt: at(createdMs + 24 * HOUR) }
        : {}),
      createdAt: at(createdMs),
    };
  };

  /** Each editor is paid for every ten deliveries, the amount they earned by them. */
  const unpaid = new Map<string, { count: number; amountCents: number }>();
  const payoutsFor = (earning: { editor: Person; amountCents: number; paidMs: number }) => {
    const owed = unpaid.get(earning.editor.userId) ?? { count: 0, amountCents: 0 };
    owed.count += 1;
    owed.amountCents += earning.amountCents;
    unpaid.set(earning.editor.userId, owed);
    if (owed.count < 10) return [];
    unpaid.delete(earning.editor.userId);
    const scope = editorScope(earning.editor.userId);
    counters.add(scope, 'pendingPayouts', -owed.amountCents);
    counters.add(scope, 'paidOut', owed.amountCents);
    return [
      {
        editorId: earning.editor.userId,
        payoutId: ulid(earning.paidMs),
        amountCents: owed.amountCents,
        paidAt: at(earning.paidMs),
        note: 'Weekly payout',
        recordedBy: admin.displayName,
        createdAt: at(earning.paidMs),
      },
    ];
  };

  /** Orders up to `total` in all (and the people, feedback and payouts that come with them). */
  const grow = async (total: number): Promise<GrowthReport> => {
    const began = performance.now();
    const entities = e();
    const users: UserItem[] = [];
    const invitations: object[] = [];
    const rates: object[] = [];
    if (!started) {
      await ensureTable(dynamo(), tableName());
      await withoutStream(tableName());
      await seedJobTypes();
      const first = firstPeople();
      users.push(...first.users);
      invitations.push(...first.invitations);
      rates.push(...first.rates);
      counters.add('users', 'activeAdmins', 2);
      started = true;
    }
    const target = shape(total);
    const newPhotographers = Math.max(0, target.photographers - photographers.length);
    for (let k = 0; k < newPhotographers; k++) {
      const user = newPhotographer(photographers.length, joinedAt(k, newPhotographers, orderCount, total));
      photographers.push(user);
      users.push(user);
    }
    const newEditors = Math.max(0, target.editors - editors.length);
    for (let k = 0; k < newEditors; k++) {
      const user = newEditor(editors.length, joinedAt(k, newEditors, orderCount, total));
      rates.push(...ratesOf(user, editors.length));
      editors.push(user);
      users.push(user);
    }
    for (const user of users) {
      for (const name of userTotalNames(user)) counters.add(USER_TOTALS_SCOPE, name, 1);
    }
    const built = [];
    for (let i = orderCount; i < total; i++) built.push(buildOrder(i));
    const feedback = [];
    for (; feedbackCount < Math.floor(total / 10); feedbackCount++) feedback.push(buildFeedback(feedbackCount));
    const payouts = built.flatMap((b) => (b.earning ? payoutsFor(b.earning) : []));
    orderCount = Math.max(orderCount, total);

    const items = await writeAll(
      [
        itemsOf(
          entities.user,
          users.map(({ roles, ...user }) => ({ ...user, roles: [...roles], ...roleIndexAttributes(roles) })),
        ),
        itemsOf(
          entities.userEmail,
          users.map((u) => ({ email: u.email, userId: u.userId })),
        ),
        itemsOf(entities.editorRate, rates),
        itemsOf(entities.invitation, invitations),
        itemsOf(
          entities.order,
          built.map((b) => b.order),
        ),
        itemsOf(
          entities.orderSearchWord,
          built.flatMap((b) => b.words),
        ),
        itemsOf(
          entities.orderRevision,
          built.flatMap((b) => b.revisions),
        ),
        itemsOf(
          entities.orderEvent,
          built.flatMap((b) => b.events),
        ),
        itemsOf(
          entities.payment,
          built.flatMap((b) => b.payments),
        ),
        itemsOf(entities.feedback, feedback),
        itemsOf(entities.payout, payouts),
      ],
      concurrency,
    );
    const counterCount = await counters.write(entities, concurrency);
    const report = {
      orders: orderCount,
      photographers: photographers.length,
      editors: editors.length,
      items,
      counters: counterCount,
      seconds: (performance.now() - began) / 1000,
    };
    log(
      `seeded up to ${report.orders} orders (${report.photographers} photographers, ${report.editors} editors): ${items} items and ${counterCount} counters in ${report.seconds.toFixed(1)} s`,
    );
    return report;
  };

  return {
    grow,
    /** The admin, the photographer and the editor to measure with (records in the table; sign them in with any token bearing their id). */
    people: () => ({ admin, photographer: photographers[0]!, editor: editors[0]! }),
    /** A pending invitation's link: its token and the email it was sent to. */
    invitation: () => ({ token: invitationToken(0), email: inviteeEmail(0) }),
    /** One order of the measured photographer in each state, for the routes that read one order. */
    photographerOrder: (kind: OrderKind) => photographerOrders.get(kind),
    size: () => ({ orders: orderCount, photographers: photographers.length, editors: editors.length }),
  };
};
