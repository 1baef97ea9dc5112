import {
  alwaysOnKindsFor,
  emailKindDescriptions,
  emailKindLabels,
  type NotificationSettingsView,
  switchableKindsFor,
} from '@marketplace/events/notifications';
import type { Role } from '@marketplace/events/roles';

/** The caller's switches (one per kind their roles receive) and the emails that always go out. */
export const settingsView = (roles: readonly Role[], muted: ReadonlySet<string>): NotificationSettingsView => ({
  switchable: switchableKindsFor(roles).map((kind) => ({
    kind,
    label: emailKindLabels[kind],
    description: emailKindDescriptions[kind],
    enabled: !muted.has(kind),
  })),
  alwaysOn: alwaysOnKindsFor(roles).map((kind) => ({
    kind,
    label: emailKindLabels[kind],
    description: emailKindDescriptions[kind],
  })),
});
