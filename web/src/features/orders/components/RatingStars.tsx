import { Group, Text } from '@mantine/core';
import { IconStar, IconStarFilled, IconStarHalfFilled } from '@tabler/icons-react';

/** Five stars in the display, each worth two rating points. */
const starPositions = [1, 2, 3, 4, 5];
const STAR_COLOUR = 'var(--mantine-color-yellow-7)';

/** A 1-10 rating as x/10 beside five stars, each star worth two points (spec section 9). */
export function RatingStars({ rating }: { rating: number }) {
  const stars = rating / 2;
  return (
    <Group gap={8} wrap="nowrap">
      <Group gap={2} wrap="nowrap" aria-hidden="true">
        {starPositions.map((position) => {
          const fill = stars - (position - 1);
          if (fill >= 1) return <IconStarFilled key={position} size={18} color={STAR_COLOUR} />;
          if (fill >= 0.5) return <IconStarHalfFilled key={position} size={18} color={STAR_COLOUR} />;
          return <IconStar key={position} size={18} color="var(--mantine-color-gray-6)" />;
        })}
      </Group>
      <Text fw={700}>{rating}/10</Text>
    </Group>
  );
}
