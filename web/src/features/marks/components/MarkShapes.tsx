import type { MarkInput, MarkPoint } from '@marketplace/events/marks';
import type { ReactNode, PointerEvent as ReactPointerEvent } from 'react';
import { markAnchor } from '../geometry';

export interface ShownMark extends MarkInput {
  done?: boolean;
}

/** The arrow's head: two short strokes back from the tip, drawn in the photo's proportions. */
const arrowHead = (from: MarkPoint, to: MarkPoint, aspect: number) => {
  const dx = (to.x - from.x) * aspect;
  const dy = to.y - from.y;
  const length = Math.hypot(dx, dy) || 1;
  const size = Math.min(0.05, length / 2);
  const side = (angle: number) => {
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    const ux = -(dx * cos - dy * sin) / length;
    const uy = -(dx * sin + dy * cos) / length;
    return `${to.x + (ux * size) / aspect},${to.y + uy * size}`;
  };
  return `${side(Math.PI / 7)} ${to.x},${to.y} ${side(-Math.PI / 7)}`;
};

/** Open marks in a strong orange-red, the selected one in blue, done ones dashed green: each darker than 3:1 on white. */
const OPEN = '#c92a2a';
const SELECTED = '#1864ab';
const DONE = '#2b8a3e';

function Shape({ mark, aspect }: { mark: ShownMark; aspect: number }) {
  const [a, b] = mark.points as [MarkPoint, MarkPoint];
  switch (mark.kind) {
    case 'rect':
      return (
        <rect
          vectorEffect="non-scaling-stroke"
          x={Math.min(a.x, b.x)}
          y={Math.min(a.y, b.y)}
          width={Math.abs(b.x - a.x)}
          height={Math.abs(b.y - a.y)}
        />
      );
    case 'ellipse':
      return (
        <ellipse
          vectorEffect="non-scaling-stroke"
          cx={(a.x + b.x) / 2}
          cy={(a.y + b.y) / 2}
          rx={Math.abs(b.x - a.x) / 2}
          ry={Math.abs(b.y - a.y) / 2}
        />
      );
    case 'arrow':
      return (
        <>
          <line vectorEffect="non-scaling-stroke" x1={a.x} y1={a.y} x2={b.x} y2={b.y} />
          <polyline vectorEffect="non-scaling-stroke" points={arrowHead(a, b, aspect)} />
        </>
      );
    case 'freehand':
      return <polyline vectorEffect="non-scaling-stroke" points={mark.points.map((p) => `${p.x},${p.y}`).join(' ')} />;
  }
}

/**
 * A photo with its marks drawn over it. The SVG spans the picture with a 0..1 viewBox stretched
 * to it, so a mark's relative coordinates land on the same spot at any size; strokes keep their
 * width on screen. The marks' numbers are HTML over the picture, matching the list beside it.
 */
export function MarkedPhoto({
  src,
  alt,
  marks,
  show = true,
  selectedId,
  aspect,
  onAspect,
  svgProps,
  children,
}: {
  src: string;
  alt: string;
  marks: readonly ShownMark[];
  show?: boolean;
  selectedId?: string | null;
  aspect: number;
  onAspect?: (aspect: number) => void;
  svgProps?: {
    onPointerDown?: (event: ReactPointerEvent<SVGSVGElement>) => void;
    onPointerMove?: (event: ReactPointerEvent<SVGSVGElement>) => void;
    onPointerUp?: (event: ReactPointerEvent<SVGSVGElement>) => void;
    onPointerCancel?: (event: ReactPointerEvent<SVGSVGElement>) => void;
  };
  children?: ReactNode;
}) {
  return (
    // As wide as there is room for, and never taller than 70% of the screen (so at most 70vh × the photo's proportions wide).
    <div
      style={{
        position: 'relative',
        display: 'inline-block',
        width: `min(100%, ${(70 * aspect).toFixed(2)}vh)`,
        lineHeight: 0,
      }}
    >
      <img
        src={src}
        alt={alt}
        style={{ display: 'block', width: '100%', height: 'auto', userSelect: 'none' }}
        draggable={false}
        onLoad={(event) => {
          const { naturalWidth, naturalHeight } = event.currentTarget;
          if (naturalWidth && naturalHeight) onAspect?.(naturalWidth / naturalHeight);
        }}
      />
      <svg
        viewBox="0 0 1 1"
        preserveAspectRatio="none"
        aria-hidden="true"
        data-testid="mark-layer"
        {...svgProps}
        style={{
          position: 'absolute',
          inset: 0,
          width: '100%',
          height: '100%',
          overflow: 'visible',
          touchAction: svgProps?.onPointerDown ? 'none' : 'auto',
          cursor: svgProps?.onPointerDown ? 'crosshair' : 'default',
        }}
      >
        {show &&
          marks.map((mark) => {
            const colour = mark.done ? DONE : mark.id === selectedId ? SELECTED : OPEN;
            return (
              <g key={mark.id} data-mark-id={mark.id} fill="none">
                <g stroke="white" strokeWidth={6} strokeLinecap="round" strokeLinejoin="round" opacity={0.85}>
                  <Shape mark={mark} aspect={aspect} />
                </g>
                <g
                  stroke={colour}
                  strokeWidth={mark.id === selectedId ? 4 : 3}
                  strokeLinecap="round"
                  strokeLinejoin="round"
                  strokeDasharray={mark.done ? '6 4' : undefined}
                >
                  <Shape mark={mark} aspect={aspect} />
                </g>
              </g>
            );
          })}
      </svg>
      {show &&
        marks.map((mark, index) => {
          const at = markAnchor(mark);
          return (
            <span
              key={mark.id}
              aria-hidden="true"
              style={{
                position: 'absolute',
                left: `${at.x * 100}%`,
                top: `${at.y * 100}%`,
                transform: 'translate(-50%, -50%)',
                minWidth: 22,
                height: 22,
                borderRadius: 11,
                padding: '0 5px',
                background: mark.done ? DONE : mark.id === selectedId ? SELECTED : OPEN,
                color: 'white',
                fontSize: 12,
                fontWeight: 700,
                lineHeight: '22px',
                textAlign: 'center',
                border: '2px solid white',
                pointerEvents: 'none',
              }}
            >
              {index + 1}
            </span>
          );
        })}
      {children}
    </div>
  );
}
