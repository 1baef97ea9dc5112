import { type EmailChangeLinkView, emailChangeToken } from '@marketplace/events/security';
import * as z from '@marketplace/events/zod';
import { readEmailChange } from '../../data/account-security';
import { publicHttp } from '../../http/http';
import { ok } from '../../http/responses';

/**
 * GET /api/account/email-change/{token} (public: the link is opened from the new address's
 * mailbox, perhaps on another device): what the confirmation page shows. Looking changes nothing;
 * the page's button POSTs. The answer names only the address the link was sent to.
 */
export const handler = publicHttp(
  { params: z.object({ token: emailChangeToken }) },
  async ({ params }) => {
    const { change } = await readEmailChange(params.token);
    const view: EmailChangeLinkView = {
      newEmail: change.newEmail,
      expiresAt: new Date(change.expiresAt * 1000).toISOString(),
    };
    return ok(view);
  },
  { headers: { 'x-robots-tag': 'noindex', 'referrer-policy': 'no-referrer' } },
);
