import { Badge, Box } from '@mantine/core';
import * as Slider from 'react-compare-slider/components';
import { useReactCompareSlider } from 'react-compare-slider/hooks';

interface BeforeAfterSliderProps {
  /** The edited file's name: the slider is 'Before and after: {filename}'. */
  filename: string;
  beforeUrl: string;
  beforeAlt: string;
  afterUrl: string;
  afterAlt: string;
}

const label = (text: string, side: 'left' | 'right') => (
  <Badge
    pos="absolute"
    top={8}
    {...{ [side]: 8 }}
    color="dark"
    variant="filled"
    radius="sm"
    style={{ zIndex: 2, pointerEvents: 'none' }}
    aria-hidden="true"
  >
    {text}
  </Badge>
);

/**
 * The original on the left (Before) and the edit on the right (After), divided by a handle that
 * drags, and takes focus and moves with the arrow keys (5% a press). Both pictures are fitted,
 * not cropped, on a dark ground, so the two line up whatever their sizes.
 */
export function BeforeAfterSlider({ filename, beforeUrl, beforeAlt, afterUrl, afterAlt }: BeforeAfterSliderProps) {
  const slider = useReactCompareSlider({ keyboardIncrement: '5%' });
  const imageStyle = { objectFit: 'contain', backgroundColor: 'var(--mantine-color-dark-7)' } as const;
  return (
    <Box pos="relative" style={{ aspectRatio: '3 / 2', maxHeight: '70vh', width: '100%' }}>
      <Slider.Provider {...slider}>
        <Slider.Root style={{ width: '100%', height: '100%', borderRadius: 'var(--mantine-radius-sm)' }}>
          <Slider.Item item="itemOne">
            <Slider.Image src={beforeUrl} alt={beforeAlt} style={imageStyle} />
          </Slider.Item>
          <Slider.Item item="itemTwo">
            <Slider.Image src={afterUrl} alt={afterAlt} style={imageStyle} />
          </Slider.Item>
          <Slider.HandleRoot aria-label={`Before and after: ${filename}`}>
            <Slider.Handle />
          </Slider.HandleRoot>
        </Slider.Root>
      </Slider.Provider>
      {label('Before', 'left')}
      {label('After', 'right')}
    </Box>
  );
}
