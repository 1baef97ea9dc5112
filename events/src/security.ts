import * as z from './zod';

/**
 * The account's own security activity ('Recent security activity' on /profile): every sensitive
 * action is written with the action itself. New kinds are added here, with their label.
 */
export const securityActivityKinds = [
  'password_changed',
  'email_change_requested',
  'email_changed',
  'signed_out_everywhere',
  'data_download_requested',
  'account_deleted',
] as const;
export type SecurityActivityKind = (typeof securityActivityKinds)[number];

/** What the activity list says for each kind. */
export const securityActivityLabels: Record<SecurityActivityKind, string> = {
  password_changed: 'Password changed',
  email_change_requested: 'Email change requested',
  email_changed: 'Email address changed',
  signed_out_everywhere: 'Signed out of all other devices',
  data_download_requested: 'Data download requested',
  account_deleted: 'Account deletion requested',
};

/** One row of GET /api/account/security-activity. */
export interface SecurityActivityView {
  id: string;
  kind: SecurityActivityKind;
  at: string;
  /** 'Chrome on macOS', or 'Unknown browser'. */
  browser: string;
  ip: string | null;
}

export interface SecurityActivityPage {
  activity: SecurityActivityView[];
  nextCursor: string | null;
}

/** The password rules the server enforces (Firebase's own minimum is 6). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

export const newPasswordSchema = /* @__PURE__ */ z.schema(() =>
  z.string({ error: 'Enter a new password' }).check(
    z.minLength(PASSWORD_MIN_LENGTH, `Your new password must be at least ${PASSWORD_MIN_LENGTH} characters long`),
    z.maxLength(PASSWORD_MAX_LENGTH, `Your new password must be at most ${PASSWORD_MAX_LENGTH} characters long`),
    z.refine(
      (v) => /[A-Za-z]/.test(v) && /[0-9]/.test(v),
      'Your new password needs at least one letter and one number',
    ),
    z.refine((v) => v.trim() === v, 'Your new password cannot start or end with a space'),
  ),
);

export const changePasswordInput = /* @__PURE__ */ z.schema(() => z.strictObject({ newPassword: newPasswordSchema }));
export type ChangePasswordInput = z.infer<typeof changePasswordInput>;

export const changeEmailInput = /* @__PURE__ */ z.schema(() =>
  z.strictObject({
    newEmail: z
      .email('Enter a valid email address')
      .check(z.trim(), z.toLowerCase(), z.maxLength(254, 'That email address is too long')),
  }),
);
export type ChangeEmailInput = z.infer<typeof changeEmailInput>;

/** The token in an email-change link: random, base64url. */
export const emailChangeToken = /* @__PURE__ */ z.schema(() =>
  z.string().check(z.regex(/^[A-Za-z0-9_-]{20,100}$/, 'This link is not valid')),
);

/** GET /api/account/email-change/{token}: what the confirmation page shows (no account data). */
export interface EmailChangeLinkView {
  newEmail: string;
  expiresAt: string;
}
