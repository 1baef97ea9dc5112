import { changeEmailInput } from '@marketplace/events/security';
import { sendEmail } from '../../adapters/email';
import { logger } from '../../adapters/logger';
import { config } from '../../config';
import { requestEmailChange } from '../../data/account-security';
import { requestOrigin } from '../../data/security-activity';
import { verifyNewEmailEmail } from '../../domain/security-emails';
import { HttpError } from '../../http/errors';
import { http } from '../../http/http';
import { requireRecentSignIn } from '../../http/recent-sign-in';
import { json } from '../../http/responses';

/**
 * POST /api/account/email-change: after a recent sign-in, stores a pending change to a free
 * address and emails its single-use link to that NEW address. Nothing else changes until the link
 * is opened (confirm-email-change).
 */
export const handler = http({ body: changeEmailInput }, async ({ body, user, event }) => {
  requireRecentSignIn(event);
  const { token, record } = await requestEmailChange(user, body.newEmail, requestOrigin(event));
  const expiresAt = new Date(record.expiresAt * 1000).toISOString();
  try {
    await sendEmail({
      to: record.newEmail,
      ...verifyNewEmailEmail({ newEmail: record.newEmail, token, expiresAt, siteUrl: config().SITE_URL }),
    });
  } catch (error) {
    logger.error('email change link not sent', { error: error as Error });
    throw new HttpError(
      502,
      'EMAIL_NOT_SENT',
      'We could not send the confirmation email. Nothing was changed. Please try again.',
    );
  }
  return json(202, { newEmail: record.newEmail, expiresAt });
});
