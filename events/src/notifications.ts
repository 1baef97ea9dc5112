import type { Role } from './roles';
import * as z from './zod';

/**
 * The emails a user may switch off, one switch each, and the ones that always go out. The
 * notification worker maps each email it sends to one of these kinds and, for a switchable kind,
 * reads the recipient's switch when it sends (docs/decisions/0102-email-preferences-and-unsubscribe.md).
 */
export const switchableEmailKinds = ['editor_started', 'photos_ready', 'order_assigned', 'revision_requested'] as const;
export type SwitchableEmailKind = (typeof switchableEmailKinds)[number];
export const switchableEmailKind = /* @__PURE__ */ z.schema(() => z.enum(switchableEmailKinds));

/**
 * Emails that go out whatever the switches say: the payment receipt and the account's security
 * emails (password or email changed, signed out everywhere...). An email of one of these kinds
 * carries no unsubscribe link or header.
 */
export const alwaysOnEmailKinds = ['payment_receipt', 'security'] as const;
export type AlwaysOnEmailKind = (typeof alwaysOnEmailKinds)[number];

export type EmailKind = SwitchableEmailKind | AlwaysOnEmailKind;

export const isSwitchableEmailKind = (kind: string): kind is SwitchableEmailKind =>
  (switchableEmailKinds as readonly string[]).includes(kind);

/** The name of each kind as the profile page and the unsubscribe page say it. */
export const emailKindLabels: Record<EmailKind, string> = {
  editor_started: 'Editor started',
  photos_ready: 'Photos ready',
  order_assigned: 'Order assigned',
  revision_requested: 'Revision requested',
  payment_receipt: 'Payment receipts',
  security: 'Security emails',
};

/** One line on when each kind is sent. */
export const emailKindDescriptions: Record<EmailKind, string> = {
  editor_started: 'When an editor starts working on your order.',
  photos_ready: 'When your edited photos are ready to download, and again after each revision.',
  order_assigned: 'When an admin assigns an order to you.',
  revision_requested: 'When a photographer sends an order back to you for a revision.',
  payment_receipt: 'Your receipt for every order you pay for.',
  security: 'Changes to your password, email address or sign-ins.',
};

/** The switchable kinds each role receives. */
export const switchableKindsByRole: Record<Role, readonly SwitchableEmailKind[]> = {
  photographer: ['editor_started', 'photos_ready'],
  editor: ['order_assigned', 'revision_requested'],
  admin: [],
};

/** The always-on kinds each role receives (security emails go to everyone). */
export const alwaysOnKindsByRole: Record<Role, readonly AlwaysOnEmailKind[]> = {
  photographer: ['payment_receipt', 'security'],
  editor: ['security'],
  admin: ['security'],
};

const inRoleOrder = <K extends string>(all: readonly K[], wanted: Set<string>) => all.filter((k) => wanted.has(k));

/** The switchable kinds a user with these roles receives, in a fixed order. */
export const switchableKindsFor = (roles: readonly Role[]) =>
  inRoleOrder(switchableEmailKinds, new Set(roles.flatMap((r) => switchableKindsByRole[r] ?? [])));

/** The always-on kinds a user with these roles receives. */
export const alwaysOnKindsFor = (roles: readonly Role[]) =>
  inRoleOrder(alwaysOnEmailKinds, new Set(roles.flatMap((r) => alwaysOnKindsByRole[r] ?? [])));

/** What GET and PATCH /api/account/notifications answer. */
export interface NotificationSettingsView {
  /** One switch per kind the caller's roles receive. */
  switchable: { kind: SwitchableEmailKind; label: string; description: string; enabled: boolean }[];
  /** Shown as always on, without a switch. */
  alwaysOn: { kind: AlwaysOnEmailKind; label: string; description: string }[];
}

/** PATCH /api/account/notifications: the switches to change, e.g. {"emails": {"photos_ready": false}}. */
export const updateNotificationsInput = /* @__PURE__ */ z.schema(() =>
  z.strictObject({
    emails: z
      .strictObject(
        Object.fromEntries(switchableEmailKinds.map((kind) => [kind, z.optional(z.boolean())])) as Record<
          SwitchableEmailKind,
          z.ZodMiniOptional<z.ZodMiniBoolean>
        >,
      )
      .check(
        z.refine((emails) => Object.values(emails).some((v) => v !== undefined), {
          message: 'Nothing to change: name at least one email kind',
        }),
      ),
  }),
);
export type UpdateNotificationsInput = z.infer<typeof updateNotificationsInput>;

/** The unsubscribe link's token (in the query of GET and POST /api/unsubscribe). */
export const unsubscribeQuery = /* @__PURE__ */ z.schema(() =>
  z.strictObject({
    token: z.string().check(z.minLength(1, 'The link has no token'), z.maxLength(1000, 'The link is too long')),
  }),
);

/** What GET and POST /api/unsubscribe answer: the email the link is about and whether it still goes out. */
export interface UnsubscribeView {
  kind: SwitchableEmailKind;
  label: string;
  enabled: boolean;
}
