import { Paper, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, useId } from 'react';

/** One part of /profile: a titled card, named by its heading for screen readers' landmarks. */
export function ProfileSection({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={2} fz="lg" id={headingId}>
            {title}
          </Title>
          {description && (
            <Text fz="sm" c="gray.7">
              {description}
            </Text>
          )}
        </Stack>
        {children}
      </Stack>
    </Paper>
  );
}

/** A part of /profile that is planned and not built yet: says so, and what it will hold. */
export function PlannedSection({ title, planned }: { title: string; planned: string }) {
  return (
    <ProfileSection title={title}>
      <Text fz="sm" c="gray.7">
        Coming soon: {planned}
      </Text>
    </ProfileSection>
  );
}
