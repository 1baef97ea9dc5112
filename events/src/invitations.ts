import * as z from './zod';

/** Editors join by invitation: the admin's form, the emailed link and the sign-up that consumes it. */
export const INVITATION_TTL_DAYS = 7;
export const PASSWORD_MIN_LENGTH = 6;

export const invitationMessages = {
  invalid: 'This invitation link is not valid or has expired.',
  noLongerValid: 'This invitation is no longer valid',
  verifyFailed: 'Failed to verify invitation',
  signupFailed: 'Failed to complete signup',
  badLink: 'Invalid invitation link',
  passwordTooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters long`,
  passwordsDiffer: 'Passwords do not match',
  wrongExistingPassword:
    'You already have an account with this email, but the password is incorrect. Please use the correct password.',
  noJobTypes: 'Please select at least one job type',
} as const;

export const jobTypeRateInput = /* @__PURE__ */ z.schema(() =>
  z.object({
    jobTypeId: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
    ratePerPhotoCents: z.number().check(z.int(), z.minimum(0), z.maximum(1_000_000)),
  }),
);

/** POST /api/admin/invite-editor */
export const inviteEditorInput = /* @__PURE__ */ z.schema(() =>
  z.object({
    email: z.email('Please enter a valid email address').check(z.trim(), z.toLowerCase(), z.maxLength(254)),
    displayName: z.string().check(z.trim(), z.minLength(1, 'Please enter a display name'), z.maxLength(100)),
    jobTypeRates: z.array(jobTypeRateInput).check(
      z.minLength(1, invitationMessages.noJobTypes),
      z.maxLength(100),
      z.refine((rates) => new Set(rates.map((r) => r.jobTypeId)).size === rates.length, {
        message: 'Each job type can have only one rate',
      }),
    ),
  }),
);

/** GET /api/auth/verify-invitation?email&token */
export const verifyInvitationQuery = /* @__PURE__ */ z.schema(() =>
  z.object({
    email: z.string().check(z.trim(), z.toLowerCase(), z.minLength(1), z.maxLength(254)),
    token: z.string().check(z.trim(), z.minLength(16), z.maxLength(200)),
  }),
);

/** POST /api/auth/complete-signup */
export const completeSignupInput = /* @__PURE__ */ z.schema(() =>
  z.extend(verifyInvitationQuery, {
    firebaseUid: z.string().check(z.trim(), z.minLength(1), z.maxLength(128)),
    /**
     * The new account's own ID token (not a Bearer header: the spec keeps these calls tokenless).
     * The server checks the account's email from the signed token alone and refuses a sign-up
     * without one (400), so no call to Firebase is made on the way.
     */
    idToken: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(8192))),
  }),
);

export interface InvitationVerificationView {
  valid: boolean;
  user: { email: string; displayName: string } | null;
  /** The rates offered, for the page to show. */
  rates: { jobTypeName: string; ratePerPhotoCents: number }[];
  expiresAt: string | null;
}
