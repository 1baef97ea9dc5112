import type { SESv2Client } from '@aws-sdk/client-sesv2';
import { config } from '../config';

/**
 * Amazon SES v2, or its local stand-in (aws-ses-v2-local, whose inbox shows what was sent): only
 * the endpoint differs, by configuration. The SES client is loaded when the first email goes out:
 * the invitation module that sends one is also bundled by routes that never send any.
 */
let client: SESv2Client | undefined;
let clientEndpoint: string | undefined;

const sesSdk = () => import('@aws-sdk/client-sesv2');

const ses = async () => {
  const { SESv2Client } = await sesSdk();
  const { AWS_REGION, SES_ENDPOINT } = config();
  // A changed endpoint (tests point it at a closed port to make a send fail) gets a new client.
  if (client && clientEndpoint !== SES_ENDPOINT) client = undefined;
  clientEndpoint = SES_ENDPOINT;
  client ??= new SESv2Client({
    region: AWS_REGION,
    ...(SES_ENDPOINT
      ? // The stand-in accepts any credentials; these are only used against an explicit endpoint.
        { endpoint: SES_ENDPOINT, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
  });
  return client;
};

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Sends one email with a text and an HTML body; resolves to SES's message id. */
export const sendEmail = async (message: EmailMessage) => {
  const [client, { SendEmailCommand }] = await Promise.all([ses(), sesSdk()]);
  const { MessageId } = await client.send(
    new SendEmailCommand({
      FromEmailAddress: config().MAIL_FROM,
      Destination: { ToAddresses: [message.to] },
      Content: {
        Simple: {
          Subject: { Data: message.subject, Charset: 'UTF-8' },
          Body: {
            Text: { Data: message.text, Charset: 'UTF-8' },
            Html: { Data: message.html, Charset: 'UTF-8' },
          },
        },
      },
    }),
  );
  return MessageId ?? '';
};
