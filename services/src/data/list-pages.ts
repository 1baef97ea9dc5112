import { BadRequest } from '../http/errors';

/**
 * One page of a list read from one or more index partitions (a status each, an assignment each,
 * ...), merged in the list's order, after a cursor. Each partition is read from the cursor on
 * with a key condition, so a page costs about one page of reads per partition however deep it is
 * and however large the table. A list that also filters (a role, a type) cannot know how many
 * rows it must look at to find a page's worth; it looks at no more than a fixed budget and, when
 * that runs out first, answers the rows found so far with a cursor where it stopped: a shorter
 * page, never a longer read.
 *
 * Positions are the index's sort key parts lower-cased, as the keys hold them (ElectroDB writes
 * keys lower-cased), so comparing positions is comparing keys.
 */
export type Position = readonly string[];

export const comparePositions = (a: Position, b: Position) => {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? '';
    const y = b[i] ?? '';
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
};

/** Rows a read asks DynamoDB to look at in one request when a filter may drop some. */
export const READ_BATCH = 100;
/** Index items one page of a filtered list may look at, all partitions together. */
export const FILTERED_READ_BUDGET = 600;

/** What one partition gave: its rows after the cursor, and where it stopped when more may follow. */
export interface PartitionRead<Row> {
  rows: Row[];
  /** The last item the read looked at (kept or dropped) when the partition goes on; null at its end. */
  stoppedAt: Position | null;
}

interface Pageable {
  go: (options: {
    order: 'asc' | 'desc';
    limit: number;
    cursor: string | null;
  }) => Promise<{ data: unknown[]; cursor: string | null }>;
}

/**
 * Reads one partition (a query already placed after the cursor) until it has `want` rows, the
 * partition ends, or it has looked at `budget` items. `filtered` says whether the query drops
 * rows; without a filter it asks for exactly what it wants. `positionOfCursor` turns DynamoDB's
 * last evaluated key (ElectroDB's cursor) into a position.
 */
export const readPartition = async <Row>({
  query,
  order,
  want,
  budget,
  filtered,
  positionOfCursor,
}: {
  query: Pageable;
  order: 'asc' | 'desc';
  want: number;
  budget: number;
  filtered: boolean;
  positionOfCursor: (cursor: string) => Position;
}): Promise<PartitionRead<Row>> => {
  const rows: Row[] = [];
  let cursor: string | null = null;
  let looked = 0;
  do {
    const missing = want - rows.length;
    // A filter that keeps most rows needs little more than a page; one that keeps few, bigger reads.
    const guess = looked === 0 ? missing + Math.ceil(missing / 4) : Math.max(READ_BATCH, missing * 4);
    const limit = filtered ? Math.max(1, Math.min(budget - looked, guess)) : missing;
    const page = await query.go({ order, limit, cursor });
    rows.push(...(page.data as Row[]));
    looked += limit;
    cursor = page.cursor;
  } while (cursor && rows.length < want && looked < budget);
  return { rows, stoppedAt: cursor ? positionOfCursor(cursor) : null };
};

/**
 * Merges what each partition gave into one page of `limit` rows in list order (`compare` orders
 * positions as the list shows them). Only rows before every partition's stopping point are
 * certain to be in their place: a row after one could still be preceded by rows that partition
 * has not reached. The next cursor is the page's last row, or, when the page is short, the
 * earliest stopping point (null when every partition was read to its end).
 */
export const mergePartitions = <Row>(
  reads: PartitionRead<Row>[],
  {
    limit,
    positionOf,
    compare,
  }: { limit: number; positionOf: (row: Row) => Position; compare: typeof comparePositions },
) => {
  const horizon = reads
    .map((r) => r.stoppedAt)
    .filter((p): p is Position => p !== null)
    .sort(compare)[0];
  const rows = reads
    .flatMap((r) => r.rows)
    .sort((a, b) => compare(positionOf(a), positionOf(b)))
    .filter((row) => !horizon || compare(positionOf(row), horizon) <= 0);
  if (rows.length > limit) {
    const page = rows.slice(0, limit);
    return { rows: page, next: positionOf(page.at(-1)!) as Position | null };
  }
  return { rows, next: horizon ?? null };
};

/** Newest first: the later position comes first. */
export const descending = (a: Position, b: Position) => comparePositions(b, a);

/** Rows a page asked for by number (without a cursor) may skip: further pages are reached with Next. */
export const MAX_SKIPPED_ROWS = 1_000;

export const pageTooFar = () =>
  new BadRequest(
    `Pages past the first ${MAX_SKIPPED_ROWS.toLocaleString('en')} rows can only be reached with Next (the cursor of the page before).`,
    undefined,
    'PAGE_TOO_FAR',
  );

/**
 * Page `page` of a list without a cursor: the rows before it are read page by page (a bounded
 * number of them) to find where it starts. `readPage` reads the page of `limit` rows after a
 * position (from the start when there is none).
 */
export const pageByNumber = async <Row>(
  page: number,
  limit: number,
  readPage: (after: Position | undefined, limit: number) => Promise<{ rows: Row[]; next: Position | null }>,
) => {
  let toSkip = (page - 1) * limit;
  if (toSkip > MAX_SKIPPED_ROWS) throw pageTooFar();
  let after: Position | undefined;
  // Each read is bounded; a filter that keeps few rows may need a few reads to skip the rows before.
  for (let reads = 0; toSkip > 0; reads++) {
    if (reads >= 3) throw pageTooFar();
    const skipped = await readPage(after, toSkip);
    toSkip -= skipped.rows.length;
    if (!skipped.next) return { rows: [], next: null };
    after = skipped.next;
  }
  return readPage(after, limit);
};
