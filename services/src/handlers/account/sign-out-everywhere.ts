import * as z from '@marketplace/events/zod';
import { config } from '../../config';
import { signOutEverywhere } from '../../data/account-security';
import { requestOrigin } from '../../data/security-activity';
import { sendSecurityNotice } from '../../data/security-notices';
import { signedOutEverywhereEmail } from '../../domain/security-emails';
import { http } from '../../http/http';
import { requireRecentSignIn } from '../../http/recent-sign-in';
import { ok } from '../../http/responses';

/**
 * POST /api/account/sign-out-everywhere: after a recent sign-in, every token from a sign-in before
 * now is refused at once (the cutoff on the user record), Firebase revokes the refresh tokens (the
 * identity worker) and open live sockets close. The browser that asked signs in again with the
 * password it just confirmed, so it stays signed in.
 */
// No input: an empty JSON object, or no body at all; anything else is refused before any write.
export const handler = http({ body: z.strictObject({}) }, async ({ user, event }) => {
  requireRecentSignIn(event);
  const origin = requestOrigin(event);
  const now = new Date();
  const signedOutBefore = await signOutEverywhere(user, origin, now);
  await sendSecurityNotice(
    user.email,
    signedOutEverywhereEmail({ at: now.toISOString(), browser: origin.browser, siteUrl: config().SITE_URL }),
  );
  return ok({ signedOutBefore: new Date(signedOutBefore * 1000).toISOString() });
});
