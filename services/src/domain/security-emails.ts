import { MARKETPLACE_NAME } from './invitation-email';
import { emailTime, escapeHtml } from './notification-emails';

/**
 * The account's security emails, as pure functions: the verification link of an email change (to
 * the NEW address) and the notices of a password change, an email change (to the OLD address) and
 * 'Sign out of all other devices'. They always go out: nobody can switch them off, so they carry no
 * unsubscribe link (see domain/notification-emails.ts for the switchable ones).
 */
export interface SecurityEmail {
  subject: string;
  text: string;
  html: string;
}

const siteLink = (siteUrl: string, path: string) =>
  new URL(path, siteUrl.endsWith('/') ? siteUrl : `${siteUrl}/`).toString();

/** The page the verification link opens (a button there confirms the change). */
export const emailChangeLink = (siteUrl: string, token: string) =>
  siteLink(siteUrl, `account/confirm-email?token=${encodeURIComponent(token)}`);

const profileLink = (siteUrl: string) => siteLink(siteUrl, 'profile');

const NOT_YOU =
  'If this was not you, reset your password from the sign-in page at once and contact support: someone may know your password.';

const render = ({
  subject,
  paragraphs,
  link,
  reason,
}: {
  subject: string;
  paragraphs: readonly string[];
  link: { href: string; label: string };
  reason: string;
}): SecurityEmail => ({
  subject,
  text: ['Hello,', '', ...paragraphs.flatMap((p) => [p, '']), `${link.label}:`, link.href, '', '--', reason].join('\n'),
  html: `<!doctype html>
<html>
  <body style="font-family: Arial, sans-serif; color: #222; line-height: 1.5">
    <p>Hello,</p>
${paragraphs.map((p) => `    <p>${escapeHtml(p)}</p>`).join('\n')}
    <p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>
    <p>Or paste this link into your browser:<br>${escapeHtml(link.href)}</p>
    <hr style="border: none; border-top: 1px solid #ddd">
    <p style="color: #666; font-size: 13px">${escapeHtml(reason)}</p>
  </body>
</html>`,
});

const accountReason = `You are receiving this security email because it concerns your ${MARKETPLACE_NAME} account. Security emails cannot be switched off.`;

/** To the NEW address: the link that moves the account to it. */
export const verifyNewEmailEmail = ({
  newEmail,
  token,
  expiresAt,
  siteUrl,
}: {
  newEmail: string;
  token: string;
  expiresAt: string;
  siteUrl: string;
}) =>
  render({
    subject: `Confirm your new email address for ${MARKETPLACE_NAME}`,
    paragraphs: [
      `Someone asked to use ${newEmail} as the email address of their ${MARKETPLACE_NAME} account.`,
      `If it was you, open the link below and confirm. It works once, until ${emailTime(expiresAt)}. Until then nothing changes.`,
      'If it was not you, ignore this email: the address will not be used.',
    ],
    link: { href: emailChangeLink(siteUrl, token), label: 'Confirm my new email address' },
    reason: `You are receiving this because this address was entered as a new account email on ${MARKETPLACE_NAME}.`,
  });

/** To the account's address: its password was changed. */
export const passwordChangedEmail = ({ at, browser, siteUrl }: { at: string; browser: string; siteUrl: string }) =>
  render({
    subject: `Your ${MARKETPLACE_NAME} password was changed`,
    paragraphs: [
      `The password of your account was changed on ${emailTime(at)} from ${browser}. Other devices need the new password to sign in again.`,
      NOT_YOU,
    ],
    link: { href: profileLink(siteUrl), label: 'Review your security activity' },
    reason: accountReason,
  });

/** To the OLD address: the account now uses another one. */
export const emailChangedEmail = ({ newEmail, at, siteUrl }: { newEmail: string; at: string; siteUrl: string }) =>
  render({
    subject: `Your ${MARKETPLACE_NAME} email address was changed`,
    paragraphs: [
      `On ${emailTime(at)} the email address of your account was changed from this address to ${newEmail}. Emails about your account now go there, and you sign in with it.`,
      NOT_YOU,
    ],
    link: { href: profileLink(siteUrl), label: 'Review your security activity' },
    reason: accountReason,
  });

/** To the account's address: every other device was signed out. */
export const signedOutEverywhereEmail = ({ at, browser, siteUrl }: { at: string; browser: string; siteUrl: string }) =>
  render({
    subject: `You signed out of all other devices on ${MARKETPLACE_NAME}`,
    paragraphs: [
      `On ${emailTime(at)} every device signed in to your account was signed out, except ${browser}, where this was asked.`,
      NOT_YOU,
    ],
    link: { href: profileLink(siteUrl), label: 'Review your security activity' },
    reason: accountReason,
  });
