import type { OrderStatus } from './orders';
import * as z from './zod';

/**
 * Marks on the photos: shapes the photographer draws on an original, each with a note ('remove the
 * bin'), which the editor sees over the photo and ticks done. Every coordinate is relative to the
 * image (0 to 1 from the left and the top), so a mark sits right on the original, its preview and
 * its thumbnail alike. One module for the drawing, the form and the routes, so no limit can differ.
 */
export const markKinds = ['rect', 'ellipse', 'arrow', 'freehand'] as const;
export type MarkKind = (typeof markKinds)[number];

export const markKindLabel: Record<MarkKind, string> = {
  rect: 'Rectangle',
  ellipse: 'Ellipse',
  arrow: 'Arrow',
  freehand: 'Freehand',
};

export const MARKS_PER_PHOTO_MAX = 20;
export const MARKS_PER_ORDER_MAX = 200;
export const MARK_NOTE_MAX = 500;
/** A freehand line keeps at most this many points (the drawing thins a longer stroke before saving). */
export const FREEHAND_POINTS_MAX = 200;

/** When the photographer may change marks: nobody edits the photos meanwhile (before a claim, or delivered, to ask for a revision). */
export const markableStatuses: readonly OrderStatus[] = ['pending_payment', 'paid', 'completed'];
/** When the order's editor ticks marks done. */
export const tickableStatuses: readonly OrderStatus[] = ['in_progress', 'revision_requested'];

export const markMessages = {
  coordinate: 'A mark must lie within the photo (coordinates from 0 to 1)',
  kind: `A mark is one of: ${markKinds.join(', ')}`,
  points: 'A rectangle, an ellipse or an arrow has two points; a freehand line has 2 to 200',
  perPhoto: `At most ${MARKS_PER_PHOTO_MAX} marks on one photo`,
  perOrder: `At most ${MARKS_PER_ORDER_MAX} marks on one order`,
  note: `A mark's note must be at most ${MARK_NOTE_MAX} characters`,
  duplicateId: 'Each mark needs its own id',
  unknownPhoto: 'Marks can be drawn only on one of this order’s photos',
  notNow: 'Marks can be changed before the order is claimed, or on a delivered order before asking for a revision',
  unknownMark: 'This photo has no such mark',
  notEditing: 'Marks can be ticked done only while the order is being edited',
} as const;

const coordinate = /* @__PURE__ */ z.schema(() =>
  z
    .number({ error: markMessages.coordinate })
    .check(z.minimum(0, markMessages.coordinate), z.maximum(1, markMessages.coordinate)),
);
export const markPoint = /* @__PURE__ */ z.schema(() => z.object({ x: coordinate, y: coordinate }));
export type MarkPoint = z.infer<typeof markPoint>;

export const markId = /* @__PURE__ */ z.schema(() =>
  z.string().check(z.regex(/^[A-Za-z0-9_-]{1,40}$/, 'Not a mark id')),
);
/** An original's key in storage, as the images list answers it. */
const photoKey = /* @__PURE__ */ z.schema(() => z.string().check(z.minLength(1), z.maxLength(1024)));

export const markInput = /* @__PURE__ */ z.schema(() =>
  z
    .object({
      id: markId,
      kind: z.enum(markKinds, { error: markMessages.kind }),
      points: z
        .array(markPoint)
        .check(z.minLength(2, markMessages.points), z.maxLength(FREEHAND_POINTS_MAX, markMessages.points)),
      note: z._default(z.string().check(z.trim(), z.maxLength(MARK_NOTE_MAX, markMessages.note)), ''),
    })
    .check(z.refine((mark) => mark.kind === 'freehand' || mark.points.length === 2, markMessages.points)),
);
export type MarkInput = z.infer<typeof markInput>;

/** PUT /api/orders/{id}/marks: every mark on one original, replacing what it had (none clears it). */
export const saveMarksInput = /* @__PURE__ */ z.schema(() =>
  z.object({
    key: photoKey,
    marks: z.array(markInput).check(
      z.maxLength(MARKS_PER_PHOTO_MAX, markMessages.perPhoto),
      z.refine((marks) => new Set(marks.map((m) => m.id)).size === marks.length, markMessages.duplicateId),
    ),
  }),
);
export type SaveMarksInput = z.infer<typeof saveMarksInput>;

/** PATCH /api/orders/{id}/marks/done: the editor ticks one mark done (or not). */
export const setMarkDoneInput = /* @__PURE__ */ z.schema(() => z.object({ key: photoKey, markId, done: z.boolean() }));
export type SetMarkDoneInput = z.infer<typeof setMarkDoneInput>;

export interface MarkView extends MarkInput {
  done: boolean;
  /** 0: drawn with the order; n: drawn for revision round n. */
  round: number;
}

export interface PhotoMarksView {
  key: string;
  marks: MarkView[];
}

export interface OrderMarksView {
  photos: PhotoMarksView[];
}
