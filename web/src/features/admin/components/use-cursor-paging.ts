import { useState } from 'react';

interface Paging {
  listKey: string;
  earlierCursors: (string | undefined)[];
  cursor: string | undefined;
}

const firstPage = (listKey: string): Paging => ({ listKey, earlierCursors: [], cursor: undefined });

/**
 * Where the admin is in one filtered list the server pages: the cursors of the pages before and
 * this page's. Another `listKey` (new filters) starts again at page one.
 */
export function useCursorPaging(listKey: string) {
  const [stored, setPaging] = useState<Paging>(() => firstPage(listKey));
  const paging = stored.listKey === listKey ? stored : firstPage(listKey);
  return {
    page: paging.earlierCursors.length + 1,
    cursor: paging.cursor,
    /** Without a cursor the server finds the page by reading the ones before it: slower, same page. */
    next: (nextCursor: string | null) =>
      setPaging({
        listKey,
        earlierCursors: [...paging.earlierCursors, paging.cursor],
        cursor: nextCursor ?? undefined,
      }),
    previous: () =>
      setPaging({ listKey, earlierCursors: paging.earlierCursors.slice(0, -1), cursor: paging.earlierCursors.at(-1) }),
    first: () => setPaging(firstPage(listKey)),
  };
}
