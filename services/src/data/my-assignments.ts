import type {
  EditorAssignmentView,
  MyAssignmentsQuery,
  MyAssignmentsResponse,
} from '@marketplace/events/editor-orders';
import * as z from '@marketplace/events/zod';
import { editorEarningCents } from '../domain/orders';
import { cursorComposites, models, query } from './direct-reads';
import { comparePositions, descending, mergePartitions, type Position, readPartition } from './list-pages';
import { editorScope, listAllImages, type OrderRecord, readCounters, toSummaryView } from './orders';
import { decodePageCursor, encodePageCursor } from './page-cursors';
import { getRevision, toRevisionView } from './revisions';

/**
 * The editor's orders to work on, newest first, a page at a time: those in progress and those
 * the photographer sent back for a revision, each a status prefix of the editor's byEditor index,
 * read from the cursor on and merged. The total is the editor's activeOrders counter, which claim,
 * completion and revision requests keep (it counts exactly these two statuses).
 */
const workStatuses = ['in_progress', 'revision_requested'] as const;

const orderPosition = (o: { createdAt: string; orderId: string }): Position => [
  o.createdAt.toLowerCase(),
  o.orderId.toLowerCase(),
];

const assignmentCursor = z.object({
  createdAt: z.string().check(z.minLength(1)),
  orderId: z.string().check(z.minLength(1)),
});

const encodeCursor = ([createdAt, orderId]: Position) => encodePageCursor({ createdAt, orderId });

const decodeCursor = (cursor: string): Position => {
  const { createdAt, orderId } = decodePageCursor(cursor, assignmentCursor);
  return [createdAt, orderId];
};

/** Where a read of one status stopped, from DynamoDB's last evaluated key. */
const byEditorStop = (cursor: string) =>
  orderPosition(cursorComposites(models.order, 'byEditor', cursor) as unknown as OrderRecord);

/** The open round of an order sent back for a revision, with its noted files named. */
const openRevision = async (o: OrderRecord) => {
  if (o.status !== 'revision_requested') return null;
  const revision = await getRevision(o.orderId, o.revisionCount ?? 0);
  if (!revision) return null;
  const images = revision.photoNotes.length > 0 ? await listAllImages(o.orderId, 'edited') : [];
  return toRevisionView(revision, images);
};

/** As delivery books it: the rate per photo plus each add-on's editor rate per photo it was ticked on. */
const earningsCents = (o: OrderRecord) => (o.editorRateCents === undefined ? null : editorEarningCents(o));

export const listMyAssignmentsPage = async (
  editorId: string,
  { limit, cursor }: MyAssignmentsQuery,
): Promise<MyAssignmentsResponse> => {
  const after = cursor ? decodeCursor(cursor) : undefined;
  const [reads, counters] = await Promise.all([
    Promise.all(
      workStatuses.map(async (status) => {
        const index = query<OrderRecord>(models.order, 'byEditor', { editorId, status });
        // After a cursor: from the status's first key up to the cursor's (inclusive, so its own row is dropped).
        const read = after
          ? query<OrderRecord>(models.order, 'byEditor', { editorId }).between(
              { status },
              { status, createdAt: after[0]!, orderId: after[1]! },
            )
          : index;
        const partition = await readPartition<OrderRecord>({
          query: read,
          order: 'desc',
          want: limit + 2,
          budget: limit + 2,
          filtered: false,
          positionOfCursor: byEditorStop,
        });
        const beyondCursor = (o: OrderRecord) => !after || comparePositions(orderPosition(o), after) !== 0;
        return { rows: partition.rows.filter(beyondCursor), stoppedAt: partition.stoppedAt };
      }),
    ),
    readCounters(editorScope(editorId)),
  ]);
  const { rows, next } = mergePartitions(reads, { limit, positionOf: orderPosition, compare: descending });
  const revisions = await Promise.all(rows.map(openRevision));
  const now = new Date();
  const orders: EditorAssignmentView[] = rows.map((o, i) => ({
    ...toSummaryView(o, now),
    potentialEarningsCents: earningsCents(o),
    photographerUploadCount: o.photographerUploadCount,
    editorUploadCount: o.editorUploadCount,
    revision: revisions[i] ?? null,
  }));
  return { orders, total: Math.max(0, counters.activeOrders ?? 0), nextCursor: next && encodeCursor(next) };
};
