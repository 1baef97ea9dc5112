import { emailChangeToken } from '@marketplace/events/security';
import * as z from '@marketplace/events/zod';
import { config } from '../../config';
import { confirmEmailChange } from '../../data/account-security';
import { requestOrigin } from '../../data/security-activity';
import { sendSecurityNotice } from '../../data/security-notices';
import { emailChangedEmail } from '../../domain/security-emails';
import { publicHttp } from '../../http/http';
import { ok } from '../../http/responses';

/**
 * POST /api/account/email-change/{token} (public: the single-use link's token, 256 random bits
 * stored hashed and expiring in a day, is the credential): moves the account to the new address in
 * one transaction, then tells the OLD address. A lost race for the address is a 409.
 */
export const handler = publicHttp(
  { params: z.object({ token: emailChangeToken }) },
  async ({ params, event }) => {
    const moved = await confirmEmailChange(params.token, requestOrigin(event));
    await sendSecurityNotice(
      moved.oldEmail,
      emailChangedEmail({ newEmail: moved.newEmail, at: new Date().toISOString(), siteUrl: config().SITE_URL }),
    );
    return ok({ email: moved.newEmail });
  },
  { headers: { 'x-robots-tag': 'noindex', 'referrer-policy': 'no-referrer' } },
);
