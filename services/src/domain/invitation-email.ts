import { INVITATION_TTL_DAYS } from '@marketplace/events/invitations';
import { utcDateTimeText } from './utc-date-text';

/** The invitation an admin sends a new editor: plain text and HTML saying the same thing. */
export const MARKETPLACE_NAME = 'PhotoEdit Marketplace';

export interface InvitationEmailInput {
  displayName: string;
  email: string;
  token: string;
  rates: readonly { jobTypeName: string; ratePerPhotoCents: number }[];
  expiresAt: Date;
  siteUrl: string;
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The link the invitation page reads: the email and token travel as query parameters. */
export const invitationLink = ({
  siteUrl,
  email,
  token,
}: Pick<InvitationEmailInput, 'siteUrl' | 'email' | 'token'>) => {
  const url = new URL('/invitation', siteUrl.endsWith('/') ? siteUrl : `${siteUrl}/`);
  url.searchParams.set('email', email);
  url.searchParams.set('token', token);
  return url.toString();
};

// UTC, so the date in the email is the same wherever the function runs.
const expiryDate = utcDateTimeText;

export const invitationEmail = (input: InvitationEmailInput) => {
  const link = invitationLink(input);
  const expires = expiryDate(input.expiresAt);
  const rateLines = input.rates.map((r) => `${r.jobTypeName}: ${dollars(r.ratePerPhotoCents)} per photo`);
  const subject = `You're invited to edit photos for ${MARKETPLACE_NAME}`;
  const validity = `This invitation is valid for ${INVITATION_TTL_DAYS} days, until ${expires}, and can be used once.`;

  const text = [
    `Hello ${input.displayName},`,
    '',
    `You have been invited to join ${MARKETPLACE_NAME} as a photo editor.`,
    '',
    'Your rates:',
    ...rateLines.map((line) => `- ${line}`),
    '',
    'Accept the invitation and create your account here:',
    link,
    '',
    validity,
    "If you weren't expecting this invitation, you can ignore this email.",
  ].join('\n');

  const html = `<!doctype html>
<html>
  <body style="font-family: Arial, sans-serif; color: #222; line-height: 1.5">
    <p>Hello ${escapeHtml(input.displayName)},</p>
    <p>You have been invited to join <strong>${escapeHtml(MARKETPLACE_NAME)}</strong> as a photo editor.</p>
    <p>Your rates:</p>
    <ul>
${rateLines.map((line) => `      <li>${escapeHtml(line)}</li>`).join('\n')}
    </ul>
    <p><a href="${escapeHtml(link)}">Accept the invitation and create your account</a></p>
    <p>Or paste this link into your browser:<br>${escapeHtml(link)}</p>
    <p>${escapeHtml(validity)}</p>
    <p style="color: #666">If you weren't expecting this invitation, you can ignore this email.</p>
  </body>
</html>`;

  return { subject, text, html };
};
