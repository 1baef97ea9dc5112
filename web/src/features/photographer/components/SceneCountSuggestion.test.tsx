import { MantineProvider } from '@mantine/core';
import type { JobTypeView } from '@marketplace/events/job-types';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { type OrderDetails, OrderDetailsForm } from './OrderDetailsForm';

const hdr: JobTypeView = {
  id: 'jt-hdr',
  name: 'HDR',
  description: null,
  pricePerPhotoCents: 800,
  defaultEditorPriceCents: 100,
  tierSurchargeCents: { express: 0, rush: 0 },
  isActive: true,
  createdAt: '2025-01-01T00:00:00.000Z',
};

const photos = (count: number) =>
  Array.from({ length: count }, (_, i) => new File(['x'], `IMG_${1000 + i}.jpg`, { type: 'image/jpeg' }));

/** Each file's scene, from a list of scene numbers in file order. */
const scenesFor = (files: File[], scenes: number[]) => new Map(files.map((file, i) => [file, scenes[i] ?? i + 1]));

/** The details form as the page holds it: the photo count is state the suggestion can change. */
function Harness({ files, scenes, photoCount }: { files: File[]; scenes: number[] | null; photoCount: number }) {
  const [details, setDetails] = useState<OrderDetails>({
    jobTypeId: hdr.id,
    name: '',
    photoCount,
    editingRequirements: '',
    files,
    rejections: [],
  });
  return (
    <MantineProvider>
      <MemoryRouter>
        <OrderDetailsForm
          jobTypes={[hdr]}
          details={details}
          scenes={scenes ? scenesFor(details.files, scenes) : null}
          errors={{}}
          busy={false}
          onChange={(change) => setDetails((current) => ({ ...current, ...change }))}
          onSubmit={() => undefined}
        />
      </MemoryRouter>
    </MantineProvider>
  );
}

const photoCountBox = () => screen.getByRole('textbox', { name: /Photo count/ });
const suggestion = (text: string) => screen.queryByText(text);

describe('the suggested photo count from HDR brackets', () => {
  it('names the scenes and files found, and its button sets the photo count', async () => {
    const user = userEvent.setup();
    const files = photos(10);
    render(<Harness files={files} scenes={[1, 1, 1, 2, 2, 2, 3, 3, 3, 4]} photoCount={1} />);
    const text = 'We found 4 scenes in 10 files. Use 4 as the photo count?';
    expect(suggestion(text)).toBeInTheDocument();
    // The list shows the grouping it is based on.
    expect(screen.getAllByText('Scene 2')).toHaveLength(3);
    expect(screen.getAllByText('Scene 4')).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Use 4' }));
    expect(photoCountBox()).toHaveValue('4');
    expect(suggestion(text)).not.toBeInTheDocument();
  });

  it('offers the count again after the photographer types another one, and can be put away', async () => {
    const user = userEvent.setup();
    render(<Harness files={photos(6)} scenes={[1, 1, 1, 2, 2, 2]} photoCount={2} />);
    const text = 'We found 2 scenes in 6 files. Use 2 as the photo count?';
    expect(suggestion(text)).not.toBeInTheDocument();
    await user.clear(photoCountBox());
    await user.type(photoCountBox(), '5');
    expect(suggestion(text)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Dismiss the suggested photo count' }));
    expect(suggestion(text)).not.toBeInTheDocument();
    expect(photoCountBox()).toHaveValue('5');
  });

  it('says one scene in the singular', () => {
    render(<Harness files={photos(3)} scenes={[1, 1, 1]} photoCount={3} />);
    expect(suggestion('We found 1 scene in 3 files. Use 1 as the photo count?')).toBeInTheDocument();
  });

  it('hides when every file is its own scene, and shows no scene labels then', () => {
    render(<Harness files={photos(3)} scenes={[1, 2, 3]} photoCount={1} />);
    expect(screen.queryByText(/We found/)).not.toBeInTheDocument();
    expect(screen.queryByText(/^Scene \d/)).not.toBeInTheDocument();
  });

  it('waits while the EXIF is being read', () => {
    render(<Harness files={photos(4)} scenes={null} photoCount={1} />);
    expect(screen.queryByText(/We found/)).not.toBeInTheDocument();
  });
});
