import { MantineProvider } from '@mantine/core';
import type { OrderImageView } from '@marketplace/events/orders';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ThumbnailTile } from './ThumbnailTile';

const image = (fields: Partial<OrderImageView>): Pick<OrderImageView, 'filename' | 'thumbnail' | 'thumbnailUrl'> => ({
  filename: 'IMG_0012.CR2',
  thumbnail: 'ready',
  thumbnailUrl: 'https://s3.test/thumb.webp',
  ...fields,
});

const renderTile = (fields: Partial<OrderImageView>, onOpen?: () => void) =>
  render(
    <MantineProvider>
      <ThumbnailTile image={image(fields)} {...(onOpen ? { onOpen } : {})} />
    </MantineProvider>,
  );

describe('Thumbnail tile', () => {
  it('shows a ready thumbnail lazily, and opens the full-size view when clicked', async () => {
    const onOpen = vi.fn();
    renderTile({}, onOpen);
    const picture = screen.getByRole('img', { name: 'IMG_0012.CR2' });
    expect(picture).toHaveAttribute('src', 'https://s3.test/thumb.webp');
    expect(picture).toHaveAttribute('loading', 'lazy');
    await userEvent.setup().click(screen.getByRole('button', { name: 'View IMG_0012.CR2 full size' }));
    expect(onOpen).toHaveBeenCalledOnce();
  });

  it('says the preview is being prepared while it is pending, with nothing to click', () => {
    renderTile({ thumbnail: 'pending', thumbnailUrl: null }, vi.fn());
    expect(screen.getByText('Preparing preview...')).toBeInTheDocument();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('shows the file type for a file with no picture', () => {
    renderTile({ filename: 'brackets.zip', thumbnail: 'placeholder', thumbnailUrl: null });
    expect(screen.getByText('ZIP')).toBeInTheDocument();
    expect(screen.getByText('No preview')).toBeInTheDocument();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
  });

  it('falls back to the file type when the picture fails to load, never a broken image', () => {
    renderTile({}, vi.fn());
    fireEvent.error(screen.getByRole('img', { name: 'IMG_0012.CR2' }));
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(screen.getByText('CR2')).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });
});
