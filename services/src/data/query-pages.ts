/** One DynamoDB page of a query: `limit` rows at most, from `cursor` on. */
type ReadPage = (limit: number, cursor: string | null) => Promise<{ data: unknown[]; cursor: string | null }>;

/**
 * The first `count` rows of a query. DynamoDB may stop a page early (1 MB, or filtered rows), so
 * pages are read until there are enough or the partition ends.
 */
export const firstRows = async <Row>(count: number, readPage: ReadPage) => {
  const found: Row[] = [];
  let cursor: string | null = null;
  do {
    const page = await readPage(count - found.length, cursor);
    found.push(...(page.data as Row[]));
    cursor = page.cursor;
  } while (cursor && found.length < count);
  return found.slice(0, count);
};
