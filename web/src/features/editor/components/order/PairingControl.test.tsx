import { MantineProvider } from '@mantine/core';
import type { OrderImageView } from '@marketplace/events/orders';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { PairingControl } from './PairingControl';

const image = (fields: Partial<OrderImageView>): OrderImageView => ({
  key: 'k',
  filename: 'f',
  size: 1000,
  lastModified: '2025-03-05T10:00:00.000Z',
  kind: 'original',
  thumbnail: 'ready',
  thumbnailUrl: null,
  previewUrl: null,
  scene: null,
  pairedOriginalKey: null,
  pairedBy: null,
  ...fields,
});

const originals = [
  image({ key: 'o/IMG_0012.CR2', filename: 'IMG_0012.CR2' }),
  image({ key: 'o/IMG_0013.CR2', filename: 'IMG_0013.CR2' }),
];
const edited = image({
  key: 'e/IMG_0012_edited.jpg',
  filename: 'IMG_0012_edited.jpg',
  kind: 'edited',
  pairedOriginalKey: 'o/IMG_0012.CR2',
  pairedBy: 'rule',
});

const renderControl = (props: { image?: OrderImageView; canChange?: boolean; onPair?: () => Promise<unknown> }) =>
  render(
    <MantineProvider>
      <PairingControl
        image={props.image ?? edited}
        originals={originals}
        canChange={props.canChange ?? true}
        onPair={props.onPair ?? vi.fn(async () => undefined)}
      />
    </MantineProvider>,
  );

describe('Pairing control', () => {
  it('says which original the edit pairs with, or that none matched', () => {
    renderControl({});
    expect(screen.getByText('Pairs with IMG_0012.CR2')).toBeInTheDocument();
    renderControl({ image: { ...edited, key: 'e/x.jpg', pairedOriginalKey: null, pairedBy: null } });
    expect(screen.getByText('No original matched')).toBeInTheDocument();
  });

  it('offers every original and No original, and sends the one chosen', async () => {
    const onPair = vi.fn(async () => undefined);
    renderControl({ onPair });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Change the original of IMG_0012_edited.jpg' }));
    const select = screen.getByRole('combobox', { name: 'Original of IMG_0012_edited.jpg' });
    expect([...(select as HTMLSelectElement).options].map((option) => option.textContent)).toEqual([
      'IMG_0012.CR2',
      'IMG_0013.CR2',
      'No original',
    ]);
    expect(select).toHaveValue('o/IMG_0012.CR2');

    await user.selectOptions(select, 'IMG_0013.CR2');
    expect(onPair).toHaveBeenLastCalledWith('e/IMG_0012_edited.jpg', 'o/IMG_0013.CR2');
    await user.click(screen.getByRole('button', { name: 'Change the original of IMG_0012_edited.jpg' }));
    await user.selectOptions(screen.getByRole('combobox'), 'No original');
    expect(onPair).toHaveBeenLastCalledWith('e/IMG_0012_edited.jpg', null);
  });

  it('shows the pairing without a way to change it when the viewer may not', () => {
    renderControl({ canChange: false });
    expect(screen.getByText('Pairs with IMG_0012.CR2')).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });
});
