import * as z from './zod';

/**
 * Changes of a user's standing that the identity provider must follow: a suspended or deleted
 * account may not sign in, a reactivated one may again. Each is written to the outbox with the
 * change; the identity worker applies the user's standing as the table holds it when it runs.
 */
export const userEventTypes = [
  'user_suspended',
  'user_deleted',
  'user_reactivated',
  // An editor's money (events/payouts.ts): written with the change, to the editor's own record.
  'earning_transferred',
  'earning_paid_by_hand',
  'earning_reversed',
  'payout_account_updated',
  'payout_paid',
  'payout_failed',
  // Account security (events/security.ts): the identity worker makes Firebase follow the record
  // (its email; refresh tokens valid only after the cutoff) and open sockets close.
  'email_changed',
  'signed_out_everywhere',
  // 'Download my data' (events/account-data.ts): written with the request, to the export worker.
  'data_export_requested',
  // A new profile image or business logo (events/profile.ts): the thumbnail worker makes its sizes.
  'profile_image_uploaded',
  'business_logo_uploaded',
] as const;

export const userEventType = /* @__PURE__ */ z.schema(() => z.enum(userEventTypes));
export type UserEventType = z.infer<typeof userEventType>;

export const userEventMessage = /* @__PURE__ */ z.schema(() =>
  z.object({
    eventId: z.string().check(z.minLength(1)),
    userId: z.string().check(z.minLength(1)),
    eventType: userEventType,
    actorId: z.optional(z.string()),
    occurredAt: z.iso.datetime(),
  }),
);
export type UserEventMessage = z.infer<typeof userEventMessage>;
