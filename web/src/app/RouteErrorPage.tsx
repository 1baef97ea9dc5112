import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useRouteError } from 'react-router';

/** Shown when a page fails to load or render, e.g. its code could not be downloaded after a new release. */
export function RouteErrorPage() {
  const error = useRouteError();
  console.error(error);
  return (
    <Center mih="100dvh" p="md">
      <Stack align="center" gap="sm" ta="center" maw={440}>
        <Title order={1} fz={26}>
          Something went wrong
        </Title>
        <Text c="dimmed">This page could not be shown. Reloading usually fixes it.</Text>
        <Button onClick={() => window.location.reload()}>Reload Page</Button>
      </Stack>
    </Center>
  );
}
