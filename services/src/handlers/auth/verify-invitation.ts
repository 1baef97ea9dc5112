import { verifyInvitationQuery } from '@marketplace/events/invitations';
import { verifyInvitation } from '../../data/invitations';
import { publicHttp } from '../../http/http';
import { ok } from '../../http/responses';

/** Public: the invitee has no account yet. Any unusable link answers `valid: false`, alike. */
export const handler = publicHttp({ query: verifyInvitationQuery }, async ({ query }) =>
  ok(await verifyInvitation(query)),
);
