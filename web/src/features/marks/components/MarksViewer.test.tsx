import { MantineProvider } from '@mantine/core';
import type { MarkView } from '@marketplace/events/marks';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { MarksViewer } from './MarksViewer';

const marks: MarkView[] = [
  {
    id: 'bin',
    kind: 'rect',
    points: [
      { x: 0.1, y: 0.2 },
      { x: 0.3, y: 0.4 },
    ],
    note: 'Remove the bin',
    done: false,
    round: 0,
  },
  {
    id: 'sky',
    kind: 'freehand',
    points: [
      { x: 0.5, y: 0.1 },
      { x: 0.6, y: 0.15 },
      { x: 0.7, y: 0.1 },
    ],
    note: 'Bluer sky',
    done: true,
    round: 1,
  },
];

const pictures = [
  { label: 'Before', src: '/before.jpg' },
  { label: 'After', src: '/after.jpg' },
];

const renderViewer = (props: { show?: boolean; onTick?: (id: string, done: boolean) => Promise<void> }) =>
  render(
    <MantineProvider>
      <MarksViewer
        filename="kitchen.jpg"
        pictures={pictures}
        marks={marks}
        show={props.show ?? true}
        onTick={props.onTick}
      />
    </MantineProvider>,
  );

describe('marks shown over a photo', () => {
  it('draws each mark over the before and the after, where its relative coordinates say', () => {
    const { container } = renderViewer({});
    expect(container.querySelectorAll('[data-mark-id="bin"]')).toHaveLength(2);
    const rect = container.querySelector('[data-mark-id="bin"] rect')!;
    const attribute = (name: string) => Number(rect.getAttribute(name));
    expect(attribute('x')).toBeCloseTo(0.1);
    expect(attribute('y')).toBeCloseTo(0.2);
    expect(attribute('width')).toBeCloseTo(0.2);
    expect(attribute('height')).toBeCloseTo(0.2);
    expect(container.querySelector('[data-mark-id="sky"] polyline')!.getAttribute('points')).toBe(
      '0.5,0.1 0.6,0.15 0.7,0.1',
    );
    expect(screen.getByText('1 of 2 done')).toBeInTheDocument();
    expect(screen.getByText('2. Freehand: Bluer sky (revision 1) (done)')).toBeInTheDocument();
  });

  it('hides the marks when they are switched off, keeping the notes', () => {
    const { container } = renderViewer({ show: false });
    expect(container.querySelectorAll('[data-mark-id]')).toHaveLength(0);
    expect(screen.getByText('1. Rectangle: Remove the bin')).toBeInTheDocument();
  });

  it('lets the editor tick a mark done, and announces it', async () => {
    const onTick = vi.fn(async () => {});
    renderViewer({ onTick });
    await userEvent.click(screen.getByRole('checkbox', { name: '1. Rectangle: Remove the bin' }));
    expect(onTick).toHaveBeenCalledWith('bin', true);
    expect(await screen.findByText('Mark 1 ticked done.')).toBeInTheDocument();
  });

  it('says so when a tick could not be saved', async () => {
    renderViewer({ onTick: async () => Promise.reject(new Error('offline')) });
    await userEvent.click(screen.getByRole('checkbox', { name: /2\. Freehand/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The mark could not be saved');
  });
});
