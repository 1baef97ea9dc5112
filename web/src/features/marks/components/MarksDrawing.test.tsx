import { MantineProvider } from '@mantine/core';
import type { MarkInput } from '@marketplace/events/marks';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MarksDrawing } from './MarksDrawing';

// jsdom has no PointerEvent: a MouseEvent with a pointer id is all the drawing reads.
beforeAll(() => {
  if (!('PointerEvent' in window)) {
    class PointerEventOfTest extends MouseEvent {
      pointerId: number;
      constructor(type: string, init: PointerEventInit = {}) {
        super(type, init);
        this.pointerId = init.pointerId ?? 1;
      }
    }
    vi.stubGlobal('PointerEvent', PointerEventOfTest);
  }
});

afterEach(() => vi.restoreAllMocks());

const bin: MarkInput = {
  id: 'bin',
  kind: 'rect',
  points: [
    { x: 0.1, y: 0.2 },
    { x: 0.3, y: 0.4 },
  ],
  note: 'Remove the bin',
};

const renderDrawing = (initial: MarkInput[] = []) => {
  const onSave = vi.fn<(marks: MarkInput[]) => void>();
  render(
    <MantineProvider>
      <MarksDrawing src="/photo.jpg" filename="kitchen.jpg" initial={initial} onSave={onSave} onCancel={() => {}} />
    </MantineProvider>,
  );
  return { onSave, layer: screen.getByTestId('mark-layer') };
};

/** The photo shown at this size on screen, at this place. */
const shownAt = (layer: Element, box: { left: number; top: number; width: number; height: number }) =>
  vi.spyOn(layer, 'getBoundingClientRect').mockReturnValue({
    ...box,
    x: box.left,
    y: box.top,
    right: box.left + box.width,
    bottom: box.top + box.height,
    toJSON: () => box,
  });

const drag = (layer: Element, from: [number, number], to: [number, number]) => {
  fireEvent.pointerDown(layer, { button: 0, pointerId: 1, clientX: from[0], clientY: from[1] });
  fireEvent.pointerMove(layer, { pointerId: 1, clientX: to[0], clientY: to[1] });
  fireEvent.pointerUp(layer, { pointerId: 1, clientX: to[0], clientY: to[1] });
};

const saved = (onSave: ReturnType<typeof vi.fn>) => onSave.mock.calls.at(-1)![0] as MarkInput[];

describe('drawing marks on a photo', () => {
  it('stores a drawn shape relative to the photo, the same whatever size it is shown at', async () => {
    const { onSave, layer } = renderDrawing();
    // A small photo at the page's left edge, then the same photo twice as large further right.
    shownAt(layer, { left: 0, top: 0, width: 400, height: 200 });
    drag(layer, [100, 50], [300, 150]);
    vi.restoreAllMocks();
    await userEvent.click(screen.getByRole('button', { name: 'Ellipse' }));
    shownAt(layer, { left: 100, top: 40, width: 800, height: 400 });
    drag(layer, [300, 140], [700, 340]);
    // A drag past the photo's edge stops at the edge.
    await userEvent.click(screen.getByRole('button', { name: 'Arrow' }));
    drag(layer, [500, 240], [2000, -50]);
    await userEvent.click(screen.getByRole('button', { name: 'Save marks' }));
    const marks = saved(onSave);
    expect(marks.map((m) => [m.kind, m.points])).toEqual([
      [
        'rect',
        [
          { x: 0.25, y: 0.25 },
          { x: 0.75, y: 0.75 },
        ],
      ],
      [
        'ellipse',
        [
          { x: 0.25, y: 0.25 },
          { x: 0.75, y: 0.75 },
        ],
      ],
      [
        'arrow',
        [
          { x: 0.5, y: 0.5 },
          { x: 1, y: 0 },
        ],
      ],
    ]);
    expect(screen.getByRole('status')).toHaveTextContent(/Arrow mark 3 drawn/);
  });

  it('takes the focus to a new mark’s note, and saves the note with it', async () => {
    const { onSave, layer } = renderDrawing();
    shownAt(layer, { left: 0, top: 0, width: 400, height: 300 });
    drag(layer, [40, 30], [120, 90]);
    const note = screen.getByRole('textbox', { name: 'Note for mark 1' });
    await waitFor(() => expect(note).toHaveFocus());
    await userEvent.type(note, 'Remove the bin');
    await userEvent.click(screen.getByRole('button', { name: 'Save marks' }));
    expect(saved(onSave)).toEqual([expect.objectContaining({ kind: 'rect', note: 'Remove the bin' })]);
  });

  it('ignores a click that draws nothing', async () => {
    const { onSave, layer } = renderDrawing();
    shownAt(layer, { left: 0, top: 0, width: 400, height: 300 });
    drag(layer, [40, 30], [41, 30]);
    await userEvent.click(screen.getByRole('button', { name: 'Save marks' }));
    expect(saved(onSave)).toEqual([]);
  });

  it('moves a mark with the arrow keys, held at the photo’s edges, and announces it', async () => {
    const { onSave } = renderDrawing([bin]);
    const handle = screen.getByRole('button', { name: '1. Rectangle' });
    handle.focus();
    await userEvent.keyboard('{ArrowRight}{ArrowRight}{Shift>}{ArrowDown}{/Shift}');
    expect(screen.getByRole('status')).toHaveTextContent('Mark 1 moved to 12% from the left, 30% from the top.');
    // Far up: the mark stops at the top edge, keeping its size.
    await userEvent.keyboard('{Shift>}{ArrowUp}{ArrowUp}{ArrowUp}{ArrowUp}{/Shift}');
    await userEvent.click(screen.getByRole('button', { name: 'Save marks' }));
    expect(saved(onSave)[0]!.points).toEqual([
      { x: 0.12, y: 0 },
      { x: 0.32, y: 0.2 },
    ]);
    expect(saved(onSave)[0]!.note).toBe('Remove the bin');
  });

  it('removes a mark with Delete or its remove button, and says so', async () => {
    const second: MarkInput = { ...bin, id: 'sky', kind: 'ellipse', note: 'Bluer sky' };
    const third: MarkInput = { ...bin, id: 'tv', kind: 'arrow', note: 'Black TV screen' };
    const { onSave } = renderDrawing([bin, second, third]);
    screen.getByRole('button', { name: '2. Ellipse' }).focus();
    await userEvent.keyboard('{Delete}');
    expect(screen.getByRole('status')).toHaveTextContent(/Mark 2 removed/);
    expect(screen.queryByRole('button', { name: '2. Ellipse' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Remove mark 1' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save marks' }));
    expect(saved(onSave).map((m) => m.id)).toEqual(['tv']);
  });

  it('adds a shape in the middle from the keyboard, and edits its note in the list', async () => {
    const { onSave } = renderDrawing([bin]);
    await userEvent.click(screen.getByRole('button', { name: 'Freehand' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add freehand in the middle' }));
    expect(screen.getByRole('status')).toHaveTextContent(/Freehand mark 2 added in the middle of the photo/);
    const first = screen.getByRole('textbox', { name: 'Note for mark 1' });
    await userEvent.clear(first);
    await userEvent.type(first, 'Remove both bins');
    await userEvent.click(screen.getByRole('button', { name: 'Save marks' }));
    const marks = saved(onSave);
    expect(marks.map((m) => [m.kind, m.note])).toEqual([
      ['rect', 'Remove both bins'],
      ['freehand', ''],
    ]);
    expect(marks[1]!.points.every((p) => p.x >= 0 && p.x <= 1 && p.y >= 0 && p.y <= 1)).toBe(true);
  });
});
