import { Button, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';

export function FeedbackSubmitted({ onSubmitMore }: { onSubmitMore: () => void }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Moves focus to the confirmation so screen readers announce it in place of the vanished form.
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <Paper withBorder p="xl">
      <Stack align="center" ta="center" gap="sm" py="lg">
        <ThemeIcon size={64} radius="xl" color="teal" variant="light" aria-hidden="true">
          <IconCircleCheck size={36} stroke={1.6} />
        </ThemeIcon>
        <Title order={2} fz={24} ref={headingRef} tabIndex={-1} style={{ outline: 'none' }}>
          Feedback Submitted!
        </Title>
        <Text c="dimmed" maw={420}>
          Thank you! Your feedback has been submitted successfully.
        </Text>
        <Button mt="sm" onClick={onSubmitMore}>
          Submit More Feedback
        </Button>
      </Stack>
    </Paper>
  );
}
