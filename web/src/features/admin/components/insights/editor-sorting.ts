import type { InsightEditor } from '@marketplace/events/insights';

export type EditorSortKey =
  | 'name'
  | 'completed'
  | 'averageRating'
  | 'averageTurnaroundHours'
  | 'late'
  | 'earningsCents';
export type SortDirection = 'ascending' | 'descending';
export interface EditorSort {
  key: EditorSortKey;
  direction: SortDirection;
}

/** The busiest editors first. */
export const DEFAULT_EDITOR_SORT: EditorSort = { key: 'completed', direction: 'descending' };

const byName = (a: InsightEditor, b: InsightEditor) =>
  a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || a.editorId.localeCompare(b.editorId);

/**
 * The editors in the order asked for. An editor with nothing to measure (no ratings, no
 * completions) goes last either way: they are neither the best nor the worst. Ties go by name.
 */
export function sortEditors(editors: readonly InsightEditor[], { key, direction }: EditorSort): InsightEditor[] {
  const sign = direction === 'ascending' ? 1 : -1;
  return [...editors].sort((a, b) => {
    if (key === 'name') return sign * byName(a, b);
    const first = a[key];
    const second = b[key];
    if (first === null || second === null) {
      if (first === second) return byName(a, b);
      return first === null ? 1 : -1;
    }
    return sign * (first - second) || byName(a, b);
  });
}

/**
 * A header clicked again turns its order round; a new column starts with names A to Z and
 * figures highest first.
 */
export const nextEditorSort = (current: EditorSort, key: EditorSortKey): EditorSort =>
  current.key === key
    ? { key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' }
    : { key, direction: key === 'name' ? 'ascending' : 'descending' };
