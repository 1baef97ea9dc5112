import { Button, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link } from 'react-router';

interface InvitationProblemProps {
  title: string;
  message: string;
  /** Offered when asking again may help, e.g. after a network failure. */
  onRetry?: () => void;
}

/** Why the invitation cannot be used, with the way on: sign in, or try again. */
export function InvitationProblem({ title, message, onRetry }: InvitationProblemProps) {
  return (
    <Paper withBorder shadow="sm" p={{ base: 'lg', sm: 'xl' }}>
      <Stack align="center" gap="sm" ta="center">
        <ThemeIcon size={56} radius="xl" color="red" variant="light" aria-hidden="true">
          <IconAlertTriangle size={28} stroke={1.6} />
        </ThemeIcon>
        <Title order={1} fz={26}>
          {title}
        </Title>
        <Text c="gray.7">{message}</Text>
        <Group justify="center" mt="xs">
          {onRetry && (
            <Button variant="default" onClick={onRetry}>
              Try again
            </Button>
          )}
          <Button component={Link} to="/login">
            Go to sign in
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
