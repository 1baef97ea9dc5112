import { changePasswordInput } from '@marketplace/events/security';
import { changePasswordAsUser } from '../../adapters/identity-toolkit';
import { config } from '../../config';
import { recordSecurityActivity, requestOrigin } from '../../data/security-activity';
import { sendSecurityNotice } from '../../data/security-notices';
import { passwordChangedEmail } from '../../domain/security-emails';
import { Unauthorized } from '../../http/errors';
import { http } from '../../http/http';
import { requireRecentSignIn } from '../../http/recent-sign-in';
import { ok } from '../../http/responses';

const bearerToken = (headers: Record<string, string | undefined>) => {
  const value = Object.entries(headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  const match = value ? /^Bearer\s+(\S+)$/i.exec(value.trim()) : null;
  return match?.[1];
};

/**
 * POST /api/account/password: a new password, set at Firebase as the user (their own ID token),
 * after a recent sign-in (the browser confirmed the current password). The rules are ours
 * (events/security.ts), checked before Firebase is asked; Firebase's refusals become clear 400s.
 * The browser then signs in again with the new password: Firebase ends every other session.
 */
export const handler = http({ body: changePasswordInput }, async ({ body, user, event }) => {
  requireRecentSignIn(event);
  const idToken = bearerToken(event.headers ?? {});
  if (!idToken) throw new Unauthorized();
  await changePasswordAsUser(idToken, body.newPassword);
  const origin = requestOrigin(event);
  const activity = await recordSecurityActivity({ userId: user.userId, kind: 'password_changed', ...origin });
  await sendSecurityNotice(
    user.email,
    passwordChangedEmail({ at: activity.at, browser: origin.browser, siteUrl: config().SITE_URL }),
  );
  return ok({ changedAt: activity.at });
});
