import { Group, type MantineSpacing, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { BRAND_NAME } from './BrandMark';

interface PageHeaderProps {
  title: string;
  description?: string;
  actions?: ReactNode;
  /** Space below; pages that lay out their own gaps pass 0. */
  mb?: MantineSpacing | number;
}

/** The heading every page inside the navigation shell starts with. */
export function PageHeader({ title, description, actions, mb = 'xl' }: PageHeaderProps) {
  useDocumentTitle(`${title} · ${BRAND_NAME}`);
  return (
    <Group justify="space-between" align="flex-end" mb={mb} gap="md">
      <Stack gap={4}>
        <Title order={1} fz={{ base: 24, sm: 28 }}>
          {title}
        </Title>
        {description && <Text c="dimmed">{description}</Text>}
      </Stack>
      {actions}
    </Group>
  );
}
