import { inviteEditorInput } from '@marketplace/events/invitations';
import { inviteEditor } from '../../data/invitations';
import { http } from '../../http/http';
import { created } from '../../http/responses';

/** Invites an editor with per-job-type rates: the records first, then the email with the link. */
export const handler = http({ body: inviteEditorInput }, async ({ body, user }) => {
  const invitation = await inviteEditor({ ...body, invitedBy: user.userId });
  return created(invitation);
});
