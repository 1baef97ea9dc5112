import type { completeSignupInput } from '@marketplace/events/invitations';
import type * as z from '@marketplace/events/zod';
import { apiPost } from '../../../lib/api-client';

/** Consumes the invitation: the server gives the account behind `firebaseUid` the editor role and the offered rates. */
export const completeSignup = (input: z.input<typeof completeSignupInput>) =>
  apiPost<unknown>('/api/auth/complete-signup', input);
