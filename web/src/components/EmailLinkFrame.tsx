import { Alert, Box, Button, Center, Group, Paper, Stack, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { BrandMark } from './BrandMark';

/**
 * The page a link from one of our emails opens, whoever is signed in or not (confirming a new
 * address, unsubscribing): the brand over one card.
 */
export function EmailLinkFrame({ children }: { children: ReactNode }) {
  return (
    <Center component="main" mih="100dvh" bg="gray.0" p={{ base: 'md', sm: 'xl' }}>
      <Stack align="center" gap="xl" w="100%" maw={460} py="xl">
        <BrandMark />
        <Box w="100%">
          <Paper withBorder shadow="sm" p={{ base: 'lg', sm: 'xl' }}>
            {children}
          </Paper>
        </Box>
      </Stack>
    </Center>
  );
}

/** 'This link cannot be used', why, 'Try again' where trying again may help, and the way to /profile. */
export function EmailLinkProblem({
  message,
  onRetry,
  profileLabel,
}: {
  message: string;
  onRetry?: () => void;
  profileLabel: string;
}) {
  return (
    <Stack gap="sm">
      <Title order={1} fz={24}>
        This link cannot be used
      </Title>
      <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden="true" />}>
        {message}
      </Alert>
      <Group gap="sm">
        {onRetry && <Button onClick={onRetry}>Try again</Button>}
        <Button component={Link} to="/profile" variant="default">
          {profileLabel}
        </Button>
      </Group>
    </Stack>
  );
}
