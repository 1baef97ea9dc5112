import { sendEmail } from '../adapters/email';
import { logger } from '../adapters/logger';
import type { SecurityEmail } from '../domain/security-emails';

/**
 * Sends a security notice (password, email or sign-out-everywhere changed) after the change is
 * committed. Nobody can switch these off. The change stands whether or not SES takes the notice:
 * a failure is logged as an error (alarmed like any other), never turned into a failed request
 * for a change that was made.
 */
export const sendSecurityNotice = async (to: string, email: SecurityEmail) => {
  try {
    await sendEmail({ to, ...email });
    return true;
  } catch (error) {
    logger.error('security notice not sent', { error: error as Error, subject: email.subject });
    return false;
  }
};
