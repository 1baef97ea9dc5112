import { Badge, Group, List, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconCircleCheck, IconHourglassHigh } from '@tabler/icons-react';
import { BRAND_NAME } from './BrandMark';

/** A placeholder page that says plainly what is planned for it. */
export function ComingSoon({ title, intro, planned }: { title: string; intro?: string; planned: readonly string[] }) {
  useDocumentTitle(`${title} · ${BRAND_NAME}`);
  return (
    <Stack gap="lg" maw={720}>
      <Group gap="sm">
        <Title order={1} fz={{ base: 24, sm: 28 }}>
          {title}
        </Title>
        <Badge variant="light" size="lg" leftSection={<IconHourglassHigh size={14} aria-hidden="true" />}>
          Coming Soon
        </Badge>
      </Group>
      {intro && <Text c="dimmed">{intro}</Text>}
      <Paper withBorder p="xl">
        <Title order={2} fz="md" mb="md">
          Planned for this page
        </Title>
        <List
          spacing="sm"
          icon={
            <ThemeIcon size={22} radius="xl" variant="light" aria-hidden="true">
              <IconCircleCheck size={14} />
            </ThemeIcon>
          }
        >
          {planned.map((item) => (
            <List.Item key={item}>{item}</List.Item>
          ))}
        </List>
      </Paper>
    </Stack>
  );
}
