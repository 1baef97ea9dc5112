import { config } from '../config';
import { awsService, perConfiguration, regionalHost } from './aws-requests';

/**
 * Amazon SES v2, or its local stand-in (aws-ses-v2-local, whose inbox shows what was sent): only
 * the endpoint differs, by configuration. SendEmail is SES's REST-JSON API, signed and sent by
 * aws-requests.ts: the SES client would be loaded, and compiled, on every cold start of the
 * functions that bundle it (the invitation route, the notifications worker).
 */
const sendEmailRequest = perConfiguration(({ AWS_REGION, SES_ENDPOINT }) => {
  const ses = awsService({
    name: 'SES',
    signingName: 'ses',
    region: AWS_REGION,
    // SES takes no idempotency key: an attempt given up on may have sent the mail, so it is not
    // sent again (a second attempt would send it twice). SES answers in well under a second; this
    // deadline leaves a slow answer time to arrive, within the invitation route's 10 s.
    idempotent: false,
    attemptTimeoutMs: 6_000,
    // Signed with the configured credential chain whatever the endpoint: a VPC or FIPS endpoint
    // checks signatures as SES does (the local stand-in accepts any, so the stack's keys do).
  });
  const url = `${SES_ENDPOINT?.replace(/\/$/, '') ?? `https://${regionalHost('email', AWS_REGION)}`}/v2/email/outbound-emails`;
  return (input: unknown) =>
    ses.sendJson<{ MessageId?: string }>('SendEmail', { url, headers: { 'content-type': 'application/json' }, input });
});

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /**
   * Extra headers (SES v2's Content.Simple.Headers). Emails the recipient may switch off carry
   * oneClickUnsubscribeHeaders; the always-on ones (receipts, security emails) carry none.
   */
  headers?: readonly EmailHeader[];
}

export interface EmailHeader {
  name: string;
  value: string;
}

/**
 * RFC 8058 one-click unsubscribe: the mailbox provider shows its own 'Unsubscribe' and POSTs
 * `List-Unsubscribe=One-Click` to this HTTPS URL (POST /api/unsubscribe?token=...), no sign-in.
 */
export const oneClickUnsubscribeHeaders = (url: string): EmailHeader[] => [
  { name: 'List-Unsubscribe', value: `<${url}>` },
  { name: 'List-Unsubscribe-Post', value: 'List-Unsubscribe=One-Click' },
];

/** Sends one email with a text and an HTML body; resolves to SES's message id. */
export const sendEmail = async (message: EmailMessage) => {
  const { MessageId } = await sendEmailRequest()({
    FromEmailAddress: config().MAIL_FROM,
    Destination: { ToAddresses: [message.to] },
    Content: {
      Simple: {
        Subject: { Data: message.subject, Charset: 'UTF-8' },
        Body: {
          Text: { Data: message.text, Charset: 'UTF-8' },
          Html: { Data: message.html, Charset: 'UTF-8' },
        },
        ...(message.headers?.length
          ? { Headers: message.headers.map(({ name, value }) => ({ Name: name, Value: value })) }
          : {}),
      },
    },
  });
  return MessageId ?? '';
};
