import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { BeforeAfterSlider } from './BeforeAfterSlider';

describe('Before and after slider', () => {
  it('names the handle after the photo, shows the original as Before and the edit as After, and moves with the arrow keys', async () => {
    render(
      <MantineProvider>
        <BeforeAfterSlider
          filename="IMG_0012_edited.jpg"
          beforeUrl="https://s3.test/before.webp"
          beforeAlt="Before: IMG_0012.CR2"
          afterUrl="https://s3.test/after.webp"
          afterAlt="After: IMG_0012_edited.jpg"
        />
      </MantineProvider>,
    );
    const handle = screen.getByRole('slider', { name: 'Before and after: IMG_0012_edited.jpg' });
    expect(screen.getByRole('img', { name: 'Before: IMG_0012.CR2' })).toHaveAttribute(
      'src',
      'https://s3.test/before.webp',
    );
    expect(screen.getByRole('img', { name: 'After: IMG_0012_edited.jpg' })).toHaveAttribute(
      'src',
      'https://s3.test/after.webp',
    );
    // The labels sit on their sides: Before first (left), After second (right).
    const labels = screen.getAllByText(/^(Before|After)$/).map((label) => label.textContent);
    expect(labels).toEqual(['Before', 'After']);
    expect(handle).toHaveAttribute('aria-valuenow', '50');

    const user = userEvent.setup();
    handle.focus();
    expect(handle).toHaveFocus();
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(handle).toHaveAttribute('aria-valuenow', '60');
    await user.keyboard('{ArrowLeft}');
    expect(handle).toHaveAttribute('aria-valuenow', '55');
  });
});
