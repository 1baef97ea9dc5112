import { describe, expect, it } from 'vitest';
import { DEFAULT_EDITOR_SORT, nextEditorSort, sortEditors } from './editor-sorting';
import { anInsightEditor, anInsightsView } from './insights-test-view';

const { editors } = anInsightsView();
const names = (sorted: { name: string }[]) => sorted.map((editor) => editor.name);

describe('Sorting the editor table', () => {
  it('puts the busiest editors first by default', () => {
    expect(names(sortEditors(editors, DEFAULT_EDITOR_SORT))).toEqual(['Cleo Lines', 'Ana Retouch', 'Ben, the "Fixer"']);
  });

  it('sorts by each figure both ways', () => {
    expect(names(sortEditors(editors, { key: 'earningsCents', direction: 'ascending' }))).toEqual([
      'Ben, the "Fixer"',
      'Ana Retouch',
      'Cleo Lines',
    ]);
    expect(names(sortEditors(editors, { key: 'averageTurnaroundHours', direction: 'ascending' }))).toEqual([
      'Ana Retouch',
      'Ben, the "Fixer"',
      'Cleo Lines',
    ]);
    expect(names(sortEditors(editors, { key: 'late', direction: 'descending' }))).toEqual([
      'Cleo Lines',
      'Ben, the "Fixer"',
      'Ana Retouch',
    ]);
    expect(names(sortEditors(editors, { key: 'name', direction: 'descending' }))).toEqual([
      'Cleo Lines',
      'Ben, the "Fixer"',
      'Ana Retouch',
    ]);
  });

  it('puts an editor with nothing to measure last, whichever way the column is sorted', () => {
    expect(names(sortEditors(editors, { key: 'averageRating', direction: 'descending' }))).toEqual([
      'Ana Retouch',
      'Cleo Lines',
      'Ben, the "Fixer"',
    ]);
    expect(names(sortEditors(editors, { key: 'averageRating', direction: 'ascending' }))).toEqual([
      'Cleo Lines',
      'Ana Retouch',
      'Ben, the "Fixer"',
    ]);
  });

  it('breaks ties by name, ignoring case', () => {
    const tied = [anInsightEditor({ editorId: 'z', name: 'zoe' }), anInsightEditor({ editorId: 'a', name: 'Adam' })];
    expect(names(sortEditors(tied, { key: 'completed', direction: 'descending' }))).toEqual(['Adam', 'zoe']);
    expect(names(sortEditors(tied, { key: 'completed', direction: 'ascending' }))).toEqual(['Adam', 'zoe']);
  });

  it('does not reorder the list it is given', () => {
    const before = names(editors);
    sortEditors(editors, { key: 'name', direction: 'ascending' });
    expect(names(editors)).toEqual(before);
  });

  it('turns a column round when its heading is chosen again, and starts a new one figures-highest or names A to Z', () => {
    expect(nextEditorSort(DEFAULT_EDITOR_SORT, 'completed')).toEqual({ key: 'completed', direction: 'ascending' });
    expect(nextEditorSort({ key: 'completed', direction: 'ascending' }, 'completed')).toEqual({
      key: 'completed',
      direction: 'descending',
    });
    expect(nextEditorSort(DEFAULT_EDITOR_SORT, 'earningsCents')).toEqual({
      key: 'earningsCents',
      direction: 'descending',
    });
    expect(nextEditorSort(DEFAULT_EDITOR_SORT, 'name')).toEqual({ key: 'name', direction: 'ascending' });
  });
});
