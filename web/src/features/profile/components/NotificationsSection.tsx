import { Alert, Badge, Button, Group, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { NotificationSettingsView, SwitchableEmailKind } from '@marketplace/events/notifications';
import { IconAlertCircle, IconLock } from '@tabler/icons-react';
import { useState } from 'react';
import { SectionLoader } from '../../../components/PageLoader';
import { apiErrorText } from '../../../lib/api-client';
import { saveEmailSwitch, useNotificationSettings } from '../api/notifications';
import { ProfileSection } from './ProfileSection';

const withSwitch = (view: NotificationSettingsView, kind: SwitchableEmailKind, enabled: boolean) => ({
  ...view,
  switchable: view.switchable.map((s) => (s.kind === kind ? { ...s, enabled } : s)),
});

/**
 * /profile's 'Notifications': a switch for each email the user's roles receive, saved the moment
 * it is turned (shown at once, put back if the save fails), and the emails that always go out.
 */
export function NotificationsSection() {
  const settings = useNotificationSettings();
  const [saving, setSaving] = useState<SwitchableEmailKind | null>(null);

  const turn = async (kind: SwitchableEmailKind, enabled: boolean) => {
    const before = settings.data;
    if (!before) return;
    setSaving(kind);
    // Shown at once; the server's answer replaces it, and a failure puts the switch back.
    await settings.mutate(withSwitch(before, kind, enabled), { revalidate: false });
    try {
      const saved = await saveEmailSwitch(kind, enabled);
      await settings.mutate(saved, { revalidate: false });
    } catch (error) {
      await settings.mutate(before, { revalidate: false });
      notifications.show({
        color: 'red',
        message: apiErrorText(error, 'Your change was not saved. Please try again.'),
      });
    } finally {
      setSaving(null);
    }
  };

  return (
    <ProfileSection title="Notifications" description="Choose which emails you get. Changes are saved at once.">
      {settings.error && !settings.data ? (
        <Alert color="red" icon={<IconAlertCircle size={18} />} title="Your email settings could not be loaded">
          <Stack gap="xs" align="flex-start">
            <Text fz="sm">{apiErrorText(settings.error, 'Please try again.')}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => void settings.mutate()}>
              Try again
            </Button>
          </Stack>
        </Alert>
      ) : !settings.data ? (
        <SectionLoader label="Loading your email settings…" />
      ) : (
        <Stack gap="md">
          {settings.data.switchable.length > 0 ? (
            <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
              {settings.data.switchable.map((s) => (
                <li key={s.kind}>
                  <Switch
                    checked={s.enabled}
                    disabled={saving === s.kind}
                    onChange={(event) => void turn(s.kind, event.currentTarget.checked)}
                    label={`“${s.label}” emails`}
                    aria-describedby={`email-kind-${s.kind}`}
                    size="md"
                  />
                  <Text id={`email-kind-${s.kind}`} fz="sm" c="gray.7" pl={54}>
                    {s.description}
                  </Text>
                </li>
              ))}
            </Stack>
          ) : (
            <Text fz="sm" c="gray.7">
              Your account gets no emails you can switch off.
            </Text>
          )}
          {settings.data.alwaysOn.length > 0 && (
            <Stack gap="xs">
              <Title order={3} fz="md">
                Always sent
              </Title>
              <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
                {settings.data.alwaysOn.map((s) => (
                  <Paper key={s.kind} component="li" withBorder p="sm" radius="md">
                    <Group justify="space-between" gap="sm" wrap="nowrap" align="flex-start">
                      <Group gap="sm" wrap="nowrap" align="flex-start">
                        <IconLock size={18} aria-hidden="true" style={{ flexShrink: 0, marginTop: 2 }} />
                        <Stack gap={0}>
                          <Text fw={600} fz="sm">
                            {s.label}
                          </Text>
                          <Text fz="sm" c="gray.7">
                            {s.description}
                          </Text>
                        </Stack>
                      </Group>
                      <Badge variant="light" color="gray" style={{ flexShrink: 0 }}>
                        Always on
                      </Badge>
                    </Group>
                  </Paper>
                ))}
              </Stack>
              <Text fz="xs" c="gray.7">
                Receipts and security emails keep your account safe and your records complete, so they cannot be turned
                off.
              </Text>
            </Stack>
          )}
        </Stack>
      )}
    </ProfileSection>
  );
}
