import { Badge, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import type { MeView } from '@marketplace/events/users';

const roleNames = { photographer: 'Photographer', editor: 'Editor', admin: 'Admin' } as const;

/** Who is signed in: name, email and roles, as the account holds them. */
export function AccountDetails({ me }: { me: MeView }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
      <Stack gap={2}>
        <Text fz="sm" fw={600} c="gray.7">
          Name
        </Text>
        <Text>{me.displayName ?? 'Not set'}</Text>
      </Stack>
      <Stack gap={2}>
        <Text fz="sm" fw={600} c="gray.7">
          Email
        </Text>
        <Text style={{ overflowWrap: 'anywhere' }}>{me.email}</Text>
      </Stack>
      <Stack gap={2}>
        <Text fz="sm" fw={600} c="gray.7">
          Roles
        </Text>
        <Group gap={6}>
          {me.roles.length ? (
            me.roles.map((role) => (
              <Badge key={role} variant="light">
                {roleNames[role]}
              </Badge>
            ))
          ) : (
            <Text>No roles</Text>
          )}
        </Group>
      </Stack>
    </SimpleGrid>
  );
}
