import type { NotificationSettingsView, SwitchableEmailKind } from '@marketplace/events/notifications';
import useSWR from 'swr';
import { apiPatch } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';

export const NOTIFICATIONS_URL = '/api/account/notifications';

/** The signed-in user's email switches and the emails that always go out. */
export function useNotificationSettings() {
  const { user } = useAuth();
  return useSWR<NotificationSettingsView>(user ? [NOTIFICATIONS_URL, user.uid] : null);
}

/** One switch, saved at once; answers the settings as the server now holds them. */
export const saveEmailSwitch = (kind: SwitchableEmailKind, enabled: boolean) =>
  apiPatch<NotificationSettingsView>(NOTIFICATIONS_URL, { emails: { [kind]: enabled } });
