import type * as z from '@marketplace/events/zod';
import { BadRequest } from '../http/errors';

/**
 * Every paged list hands the browser its last row's sort key as a cursor: base64url JSON, opaque
 * to the browser and checked against the list's own schema when it comes back. One that does not
 * read (edited, from another sort, from an older version) is a 400 with one sentence.
 */
export const INVALID_PAGE_LINK = 'This page link is no longer valid. Please start again from the first page.';

export const encodePageCursor = (sortKey: object) => Buffer.from(JSON.stringify(sortKey)).toString('base64url');

export const decodePageCursor = <T>(cursor: string, schema: z.ZodMiniType<T>): T => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidPageLink();
  }
  const result = schema.safeParse(parsed);
  if (!result.success) throw invalidPageLink();
  return result.data;
};

export const invalidPageLink = () => new BadRequest(INVALID_PAGE_LINK);
