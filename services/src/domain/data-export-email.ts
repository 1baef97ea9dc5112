import { MARKETPLACE_NAME } from './invitation-email';
import { utcDateTimeText } from './utc-date-text';

/** 'Your data is ready': the link to the zip, until when it works, and where to ask again. */
export interface DataExportEmailInput {
  displayName: string | null;
  url: string;
  expiresAt: string;
  sizeBytes: number;
  profileUrl: string;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const when = (iso: string) => (Number.isNaN(Date.parse(iso)) ? 'in a few days' : utcDateTimeText(new Date(iso)));

export const fileSize = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;

export const DATA_EXPORT_EMAIL_SUBJECT = `Your ${MARKETPLACE_NAME} data is ready to download`;

export const dataExportEmail = (input: DataExportEmailInput) => {
  const expires = when(input.expiresAt);
  const greeting = `Hello ${input.displayName?.trim() || 'there'},`;
  const text = [
    greeting,
    '',
    `The copy of your data you asked for is ready: a zip file of ${fileSize(input.sizeBytes)}.`,
    '',
    `Download it: ${input.url}`,
    '',
    `This link works until ${expires}. After that, or if it stops working sooner, open your profile`,
    `(${input.profileUrl}), Security, Download my data: it shows a fresh link while the file lasts,`,
    'and you can ask for a new copy there.',
    '',
    "If you didn't ask for your data, change your password and sign out of all other devices on your profile.",
  ].join('\n');
  const html = `<!doctype html>
<html>
  <body style="font-family: Arial, sans-serif; color: #222; line-height: 1.5">
    <p>${escapeHtml(greeting)}</p>
    <p>The copy of your data you asked for is ready: a zip file of ${escapeHtml(fileSize(input.sizeBytes))}.</p>
    <p><a href="${escapeHtml(input.url)}">Download your data</a></p>
    <p>This link works until ${escapeHtml(expires)}. After that, or if it stops working sooner, open
    <a href="${escapeHtml(input.profileUrl)}">your profile</a> (Security, Download my data): it shows a fresh link
    while the file lasts, and you can ask for a new copy there.</p>
    <p style="color: #666">If you didn't ask for your data, change your password and sign out of all other devices on your profile.</p>
  </body>
</html>`;
  return { subject: DATA_EXPORT_EMAIL_SUBJECT, text, html };
};
