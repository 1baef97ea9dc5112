import type { QueryCommandInput, QueryCommandOutput } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { tableRequest } from './table-requests';

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

/** How many rows one query's partition and filter hold: keys and filtered attributes are read, no items are sent. */
export const countOf = async (params: unknown) => {
  const query = params as QueryCommandInput & { ExpressionAttributeValues?: Record<string, unknown> };
  const input: QueryCommandInput = {
    ...query,
    Select: 'COUNT',
    ...(query.ExpressionAttributeValues
      ? { ExpressionAttributeValues: marshall(query.ExpressionAttributeValues, { removeUndefinedValues: true }) }
      : {}),
  };
  delete input.Limit;
  let total = 0;
  let startKey: QueryCommandInput['ExclusiveStartKey'];
  do {
    const result = await tableRequest<QueryCommandOutput>('Query', { ...input, ExclusiveStartKey: startKey });
    total += result.Count ?? 0;
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return total;
};
