import type { InvitationVerificationView } from '@marketplace/events/invitations';
import useSWR from 'swr';

export const VERIFY_INVITATION_URL = '/api/auth/verify-invitation';

export interface InvitationLink {
  email: string;
  token: string;
}

export const verifyInvitationUrl = ({ email, token }: InvitationLink) =>
  `${VERIFY_INVITATION_URL}?${new URLSearchParams({ email, token })}`;

/** Whether an emailed link still stands, with the name, rates and expiry it offers; nothing is asked without a link. */
export function useInvitationVerification(link: InvitationLink | null) {
  return useSWR<InvitationVerificationView>(link ? verifyInvitationUrl(link) : null);
}
