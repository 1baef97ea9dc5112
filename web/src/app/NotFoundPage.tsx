import { Button, Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconMapSearch } from '@tabler/icons-react';
import { Link } from 'react-router';
import { BRAND_NAME } from '../components/BrandMark';

export function NotFoundPage() {
  useDocumentTitle(`Page not found · ${BRAND_NAME}`);
  return (
    <Center component="main" mih="100dvh" p="md" bg="gray.0">
      <Stack align="center" gap="md" ta="center" maw={440}>
        <ThemeIcon size={64} radius="xl" variant="light" aria-hidden="true">
          <IconMapSearch size={34} stroke={1.5} />
        </ThemeIcon>
        <Text fw={700} c="dimmed" fz="sm" tt="uppercase" style={{ letterSpacing: '0.08em' }}>
          Error 404
        </Text>
        <Title order={1} fz={30}>
          Page not found
        </Title>
        <Text c="dimmed">The page you are looking for does not exist or may have moved.</Text>
        <Button component={Link} to="/" size="md">
          Go back home
        </Button>
      </Stack>
    </Center>
  );
}
