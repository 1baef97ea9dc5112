import { FREEHAND_POINTS_MAX, type MarkInput, type MarkKind, type MarkPoint } from '@marketplace/events/marks';

/**
 * Marks live in coordinates relative to the photo: 0 to 1 from its left and top edges, whatever
 * size it is shown at. These helpers turn a pointer's position into those, move a mark without
 * letting it leave the photo, and keep a freehand line within the points the API accepts.
 */

const clamp01 = (value: number) => Math.min(1, Math.max(0, value));
/** Four decimals: a tenth of a pixel on a 2048 px preview, and short JSON. */
const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

export const relativePoint = (
  clientX: number,
  clientY: number,
  box: { left: number; top: number; width: number; height: number },
): MarkPoint => ({
  x: round4(clamp01(box.width > 0 ? (clientX - box.left) / box.width : 0)),
  y: round4(clamp01(box.height > 0 ? (clientY - box.top) / box.height : 0)),
});

/** Moves every point by (dx, dy), held back at the edges so the whole mark stays on the photo. */
export const moveMark = <T extends { points: MarkPoint[] }>(mark: T, dx: number, dy: number): T => {
  const xs = mark.points.map((p) => p.x);
  const ys = mark.points.map((p) => p.y);
  const ddx = Math.min(Math.max(dx, -Math.min(...xs)), 1 - Math.max(...xs));
  const ddy = Math.min(Math.max(dy, -Math.min(...ys)), 1 - Math.max(...ys));
  return { ...mark, points: mark.points.map((p) => ({ x: round4(p.x + ddx), y: round4(p.y + ddy) })) };
};

/** The mark's top-left corner, where its number is shown. */
export const markAnchor = (mark: { points: MarkPoint[] }): MarkPoint => ({
  x: Math.min(...mark.points.map((p) => p.x)),
  y: Math.min(...mark.points.map((p) => p.y)),
});

/** Keeps every n-th point of a long stroke (and its last), so it fits FREEHAND_POINTS_MAX. */
export const thinPoints = (points: MarkPoint[], max = FREEHAND_POINTS_MAX): MarkPoint[] => {
  if (points.length <= max) return points;
  const step = (points.length - 1) / (max - 1);
  return Array.from({ length: max }, (_, i) => points[Math.round(i * step)]!);
};

/** Too small to be meant: a click without a drag. */
export const isTooSmall = (mark: { kind: MarkKind; points: MarkPoint[] }) => {
  const xs = mark.points.map((p) => p.x);
  const ys = mark.points.map((p) => p.y);
  return Math.max(...xs) - Math.min(...xs) < 0.01 && Math.max(...ys) - Math.min(...ys) < 0.01;
};

/** A mark of this kind in the middle of the photo, for drawing with the keyboard (then moved with the arrows). */
export const centredMark = (kind: MarkKind, id: string): MarkInput => {
  const points: Record<MarkKind, MarkPoint[]> = {
    rect: [
      { x: 0.4, y: 0.4 },
      { x: 0.6, y: 0.6 },
    ],
    ellipse: [
      { x: 0.4, y: 0.4 },
      { x: 0.6, y: 0.6 },
    ],
    arrow: [
      { x: 0.35, y: 0.65 },
      { x: 0.5, y: 0.5 },
    ],
    freehand: [
      { x: 0.4, y: 0.5 },
      { x: 0.45, y: 0.45 },
      { x: 0.5, y: 0.5 },
      { x: 0.55, y: 0.45 },
      { x: 0.6, y: 0.5 },
    ],
  };
  return { id, kind, points: points[kind], note: '' };
};

export const percent = (value: number) => `${Math.round(value * 100)}%`;

export const newMarkId = () => `m${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
