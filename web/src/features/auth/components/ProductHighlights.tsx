import { Anchor, List, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowRight, IconCheck } from '@tabler/icons-react';
import { Link } from 'react-router';

const audiences = [
  {
    title: 'For photographers',
    points: [
      'Upload every shot, pay only for the distinct photos you want edited',
      'HDR, virtual staging, sky replacement and more',
      'Edited photos back in 24-48 hours',
    ],
  },
  {
    title: 'For editors',
    points: [
      'Claim real-estate editing jobs that suit you',
      'Deliver edits and notes in one place',
      'Track your earnings',
    ],
  },
];

/** The short pitch next to the sign-in form. */
export function ProductHighlights({ inverted = false }: { inverted?: boolean }) {
  const textColor = inverted ? 'white' : undefined;
  const mutedColor = inverted ? 'rgba(255, 255, 255, 0.8)' : 'dimmed';
  return (
    <Stack gap="xl">
      <Stack gap="xs">
        <Title order={2} fz={{ base: 24, md: 34 }} c={textColor} lh={1.2}>
          Picture-perfect listings, edited by professionals
        </Title>
        <Text c={mutedColor} fz="lg">
          The marketplace where real-estate photographers and photo editors work together.
        </Text>
      </Stack>
      {audiences.map((audience) => (
        <Stack gap="xs" key={audience.title}>
          <Text fw={700} c={textColor} tt="uppercase" fz="xs" style={{ letterSpacing: '0.08em' }}>
            {audience.title}
          </Text>
          <List
            spacing={6}
            c={textColor}
            icon={
              <ThemeIcon size={20} radius="xl" variant={inverted ? 'white' : 'light'} aria-hidden="true">
                <IconCheck size={13} stroke={2.5} />
              </ThemeIcon>
            }
          >
            {audience.points.map((point) => (
              <List.Item key={point}>{point}</List.Item>
            ))}
          </List>
        </Stack>
      ))}
      <Anchor component={Link} to="/info" c={inverted ? 'white' : undefined} fw={600} underline="always">
        See how it works <IconArrowRight size={14} style={{ verticalAlign: 'middle' }} aria-hidden="true" />
      </Anchor>
    </Stack>
  );
}
