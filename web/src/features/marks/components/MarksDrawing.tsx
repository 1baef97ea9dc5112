import { ActionIcon, Alert, Button, Group, Stack, Text, Textarea, VisuallyHidden } from '@mantine/core';
import {
  MARK_NOTE_MAX,
  MARKS_PER_PHOTO_MAX,
  type MarkInput,
  type MarkKind,
  type MarkPoint,
  markKindLabel,
  markKinds,
} from '@marketplace/events/marks';
import { IconTrash } from '@tabler/icons-react';
import { type KeyboardEvent, type PointerEvent, useId, useRef, useState } from 'react';
import { centredMark, isTooSmall, moveMark, newMarkId, percent, relativePoint, thinPoints } from '../geometry';
import { MarkedPhoto, type ShownMark } from './MarkShapes';

type Tool = MarkKind | 'move';

/** One arrow-key press moves a mark by 1% of the photo; with Shift, 10%. */
const STEP = 0.01;
const BIG_STEP = 0.1;

const keyMoves: Record<string, [number, number]> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

type Drag = { kind: 'draw'; mark: MarkInput } | { kind: 'move'; id: string; from: MarkPoint };

/**
 * Drawing marks on one photo: pick a shape, drag on the photo (mouse, pen or finger), and write
 * its note in the list. Everything works from the keyboard too: 'Add in the middle' places the
 * chosen shape, and in the list each mark moves with the arrow keys and goes with Delete. Every
 * change is announced. Coordinates are relative to the photo (geometry.ts), so nothing here
 * depends on the size the photo is shown at.
 */
export function MarksDrawing({
  src,
  filename,
  initial,
  saving,
  error,
  onSave,
  onCancel,
}: {
  src: string;
  filename: string;
  initial: readonly ShownMark[];
  saving?: boolean;
  error?: string | null;
  onSave: (marks: MarkInput[]) => void;
  onCancel: () => void;
}) {
  const [marks, setMarks] = useState<ShownMark[]>(() => initial.map((mark) => ({ ...mark })));
  const [tool, setTool] = useState<Tool>('rect');
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [aspect, setAspect] = useState(1.5);
  const drag = useRef<Drag | null>(null);
  const [draft, setDraft] = useState<MarkInput | null>(null);
  const helpId = useId();
  const noteRefs = useRef(new Map<string, HTMLTextAreaElement>());
  const full = marks.length >= MARKS_PER_PHOTO_MAX;

  const announce = (text: string) => setAnnouncement(text);

  const add = (mark: MarkInput, how: string) => {
    if (full) {
      announce(`At most ${MARKS_PER_PHOTO_MAX} marks on one photo.`);
      return;
    }
    const index = marks.length;
    setMarks((current) => [...current, mark]);
    setSelectedId(mark.id);
    announce(`${markKindLabel[mark.kind]} mark ${index + 1} ${how}. Type its note in the list of marks.`);
    // The note field appears with the mark: take the focus there, where the note is written.
    requestAnimationFrame(() => noteRefs.current.get(mark.id)?.focus());
  };

  const move = (id: string, dx: number, dy: number, say: boolean) => {
    const index = marks.findIndex((mark) => mark.id === id);
    const mark = marks[index];
    if (!mark) return;
    const moved = moveMark(mark, dx, dy);
    setMarks((current) => current.map((m) => (m.id === id ? { ...moved, done: false } : m)));
    if (say) {
      const xs = moved.points.map((p) => p.x);
      const ys = moved.points.map((p) => p.y);
      announce(
        `Mark ${index + 1} moved to ${percent(Math.min(...xs))} from the left, ${percent(Math.min(...ys))} from the top.`,
      );
    }
  };

  const remove = (id: string) => {
    const index = marks.findIndex((mark) => mark.id === id);
    if (index < 0) return;
    setMarks((current) => current.filter((mark) => mark.id !== id));
    if (selectedId === id) setSelectedId(null);
    announce(`Mark ${index + 1} removed.${marks.length > 1 ? ' The marks after it are numbered one less.' : ''}`);
  };

  const setNote = (id: string, note: string) =>
    setMarks((current) => current.map((mark) => (mark.id === id ? { ...mark, note, done: false } : mark)));

  const pointOf = (event: PointerEvent<SVGSVGElement>) =>
    relativePoint(event.clientX, event.clientY, event.currentTarget.getBoundingClientRect());

  const onPointerDown = (event: PointerEvent<SVGSVGElement>) => {
    if (event.button !== 0) return;
    const point = pointOf(event);
    if (tool === 'move') {
      const id = (event.target as Element).closest('[data-mark-id]')?.getAttribute('data-mark-id');
      if (!id) return;
      setSelectedId(id);
      drag.current = { kind: 'move', id, from: point };
    } else {
      if (full) {
        announce(`At most ${MARKS_PER_PHOTO_MAX} marks on one photo.`);
        return;
      }
      const mark: MarkInput = { id: newMarkId(), kind: tool, points: [point, point], note: '' };
      drag.current = { kind: 'draw', mark };
      setDraft(mark);
    }
    event.currentTarget.setPointerCapture?.(event.pointerId);
    event.preventDefault();
  };

  const onPointerMove = (event: PointerEvent<SVGSVGElement>) => {
    const current = drag.current;
    if (!current) return;
    const point = pointOf(event);
    if (current.kind === 'move') {
      move(current.id, point.x - current.from.x, point.y - current.from.y, false);
      drag.current = { ...current, from: point };
      return;
    }
    const { mark } = current;
    const last = mark.points[mark.points.length - 1]!;
    const points =
      mark.kind === 'freehand'
        ? Math.hypot(point.x - last.x, point.y - last.y) > 0.003
          ? [...mark.points, point]
          : mark.points
        : [mark.points[0]!, point];
    const next = { ...mark, points };
    drag.current = { kind: 'draw', mark: next };
    setDraft(next);
  };

  const onPointerUp = () => {
    const current = drag.current;
    drag.current = null;
    setDraft(null);
    if (!current) return;
    if (current.kind === 'move') {
      const index = marks.findIndex((mark) => mark.id === current.id);
      if (index >= 0) announce(`Mark ${index + 1} moved.`);
      return;
    }
    const mark = { ...current.mark, points: thinPoints(current.mark.points) };
    if (isTooSmall(mark)) return;
    add(mark, 'drawn');
  };

  const onMarkKey = (event: KeyboardEvent<HTMLButtonElement>, id: string) => {
    const step = keyMoves[event.key];
    if (step) {
      event.preventDefault();
      const size = event.shiftKey ? BIG_STEP : STEP;
      move(id, step[0] * size, step[1] * size, true);
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      remove(id);
    }
  };

  const shown = draft ? [...marks, draft] : marks;

  return (
    <Stack gap="md">
      <VisuallyHidden role="status" aria-live="polite" data-testid="marks-announcer">
        {announcement}
      </VisuallyHidden>
      <Group gap="xs" role="toolbar" aria-label="Shape to draw">
        {markKinds.map((kind) => (
          <Button
            key={kind}
            size="xs"
            variant={tool === kind ? 'filled' : 'default'}
            aria-pressed={tool === kind}
            onClick={() => setTool(kind)}
          >
            {markKindLabel[kind]}
          </Button>
        ))}
        <Button
          size="xs"
          variant={tool === 'move' ? 'filled' : 'default'}
          aria-pressed={tool === 'move'}
          onClick={() => setTool('move')}
        >
          Move
        </Button>
        <Button
          size="xs"
          variant="light"
          disabled={tool === 'move' || full}
          onClick={() => tool !== 'move' && add(centredMark(tool, newMarkId()), 'added in the middle of the photo')}
        >
          Add {tool === 'move' ? 'a shape' : markKindLabel[tool].toLowerCase()} in the middle
        </Button>
      </Group>
      <Text fz="sm" c="gray.7" id={helpId}>
        Drag on the photo to draw the chosen shape ({marks.length} of {MARKS_PER_PHOTO_MAX} marks). In the list, a
        mark's button moves it with the arrow keys (Shift for bigger steps) and removes it with Delete.
      </Text>
      <div style={{ textAlign: 'center' }}>
        <MarkedPhoto
          src={src}
          alt={`${filename}, with ${marks.length} ${marks.length === 1 ? 'mark' : 'marks'}`}
          marks={shown}
          selectedId={selectedId}
          aspect={aspect}
          onAspect={setAspect}
          svgProps={{ onPointerDown, onPointerMove, onPointerUp, onPointerCancel: onPointerUp }}
        />
      </div>
      {marks.length === 0 ? (
        <Text fz="sm" c="gray.7">
          No marks on this photo yet.
        </Text>
      ) : (
        <Stack component="ol" gap="sm" p={0} m={0} aria-label="Marks on this photo" style={{ listStyle: 'none' }}>
          {marks.map((mark, index) => (
            <li key={mark.id}>
              <Group gap="xs" align="flex-start" wrap="nowrap">
                <Button
                  size="xs"
                  variant={mark.id === selectedId ? 'filled' : 'light'}
                  aria-describedby={helpId}
                  onFocus={() => setSelectedId(mark.id)}
                  onClick={() => setSelectedId(mark.id)}
                  onKeyDown={(event) => onMarkKey(event, mark.id)}
                  style={{ flexShrink: 0 }}
                >
                  {index + 1}. {markKindLabel[mark.kind]}
                </Button>
                <Textarea
                  ref={(node) => {
                    if (node) noteRefs.current.set(mark.id, node);
                    else noteRefs.current.delete(mark.id);
                  }}
                  label={`Note for mark ${index + 1}`}
                  placeholder="What should change here, e.g. remove the bin"
                  value={mark.note}
                  maxLength={MARK_NOTE_MAX}
                  autosize
                  minRows={1}
                  onFocus={() => setSelectedId(mark.id)}
                  onChange={(event) => setNote(mark.id, event.currentTarget.value)}
                  style={{ flex: 1 }}
                />
                <ActionIcon
                  variant="subtle"
                  color="red.9"
                  size="lg"
                  mt={22}
                  aria-label={`Remove mark ${index + 1}`}
                  onClick={() => remove(mark.id)}
                >
                  <IconTrash size={18} aria-hidden="true" />
                </ActionIcon>
              </Group>
            </li>
          ))}
        </Stack>
      )}
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onCancel} disabled={saving}>
          Cancel
        </Button>
        <Button
          loading={saving ?? false}
          onClick={() => onSave(marks.map(({ id, kind, points, note }) => ({ id, kind, points, note: note.trim() })))}
        >
          Save marks
        </Button>
      </Group>
    </Stack>
  );
}
