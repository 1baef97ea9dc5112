import {
  Badge,
  Button,
  CloseButton,
  Divider,
  Group,
  List,
  Modal,
  NativeSelect,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { AdminUserView } from '@marketplace/events/admin';
import type { Role } from '@marketplace/events/roles';
import { useEffect, useState } from 'react';
import { apiErrorText } from '../../../../lib/api-client';
import { useUserAdminActions } from '../../api/users';
import { roleLabels, roleOrder, rolePermissions } from './user-labels';

/** 'Manage User Roles': the user's roles, one to add from those they lack, and what each role may do. */
export function ManageRolesModal({ user, onClose }: { user: AdminUserView | null; onClose: () => void }) {
  const { addRole, removeRole } = useUserAdminActions();
  const [busy, setBusy] = useState(false);
  // The roles as the last change left them, until the refreshed list arrives.
  const [roles, setRoles] = useState<Role[]>(user?.roles ?? []);
  useEffect(() => setRoles(user?.roles ?? []), [user]);

  const missing = roleOrder.filter((role) => !roles.includes(role));
  const [chosen, setChosen] = useState<Role | ''>('');
  const roleToAdd = chosen && missing.includes(chosen) ? chosen : missing[0];

  const add = async () => {
    if (!user || !roleToAdd) return;
    setBusy(true);
    try {
      await addRole(user.id, roleToAdd);
      setRoles((current) => [...current, roleToAdd]);
      setChosen('');
      notifications.show({ color: 'green', message: `${roleToAdd} role added successfully!` });
    } catch (error) {
      notifications.show({ color: 'red', message: apiErrorText(error, 'Failed to add role') });
    } finally {
      setBusy(false);
    }
  };

  const remove = async (role: Role) => {
    if (!user) return;
    setBusy(true);
    try {
      await removeRole(user.id, role);
      setRoles((current) => current.filter((held) => held !== role));
      notifications.show({ color: 'green', message: 'Role removed successfully!' });
    } catch (error) {
      notifications.show({ color: 'red', message: apiErrorText(error, 'Failed to remove role') });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened={user !== null}
      onClose={onClose}
      title="Manage User Roles"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="md">
        <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
          {user?.displayName ? `${user.displayName} (${user?.email})` : user?.email}
        </Text>

        <Stack gap={6}>
          <Title order={3} fz="sm">
            Current roles
          </Title>
          {roles.length === 0 ? (
            <Text fz="sm" c="gray.7">
              No roles
            </Text>
          ) : (
            <Group gap="xs" wrap="wrap">
              {roleOrder
                .filter((role) => roles.includes(role))
                .map((role) => (
                  <Badge
                    key={role}
                    variant="light"
                    color="blue"
                    c="#10487a"
                    size="lg"
                    pr={4}
                    rightSection={
                      <CloseButton
                        size="xs"
                        onClick={() => remove(role)}
                        disabled={busy}
                        aria-label={`Remove ${role} role`}
                      />
                    }
                  >
                    {roleLabels[role]}
                  </Badge>
                ))}
            </Group>
          )}
        </Stack>

        <Stack gap={6}>
          <Title order={3} fz="sm">
            Add Role
          </Title>
          {missing.length === 0 ? (
            <Text fz="sm" c="gray.7">
              User has all available roles
            </Text>
          ) : (
            <Group gap="xs" align="flex-end" wrap="wrap">
              <NativeSelect
                label="Role to add"
                value={roleToAdd}
                onChange={(event) => setChosen(event.currentTarget.value as Role)}
                data={missing.map((role) => ({ value: role, label: roleLabels[role] }))}
                style={{ flex: '1 1 160px' }}
              />
              <Button onClick={add} loading={busy}>
                Add Role
              </Button>
            </Group>
          )}
        </Stack>

        <Divider />
        <Stack gap={6}>
          <Title order={3} fz="sm">
            Role permissions
          </Title>
          <List spacing={4} fz="sm">
            {roleOrder.map((role) => (
              <List.Item key={role}>
                <Text span fw={600} fz="sm">
                  {roleLabels[role]}:
                </Text>{' '}
                {rolePermissions[role]}
              </List.Item>
            ))}
          </List>
        </Stack>
      </Stack>
    </Modal>
  );
}
