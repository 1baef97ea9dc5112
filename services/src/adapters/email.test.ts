import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import startSesStandIn from 'aws-ses-v2-local';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { signingOnlyOurHeaders, startRecorder } from '../../test/aws-requests-recorder';
import { startVerifyingStandIn } from '../../test/sigv4-verifier';
import { resetConfig } from '../config';
import { type EmailMessage, sendEmail } from './email';

/**
 * Emails go out through SES v2's SendEmail (REST-JSON), sent by the adapter itself: against SES's
 * local stand-in (aws-ses-v2-local, the inbox the stack's tests read), and against a recording
 * server to compare the request with the one the SES client sends.
 */
interface StoredEmail {
  messageId: string;
  from: string;
  destination: { to: string[] };
  subject: string;
  body: { text?: string; html?: string };
}

const message = (to: string): EmailMessage => ({
  to,
  subject: 'Vous êtes invité·e — PhotoEdit 📷',
  text: 'Open https://photoedit.example/invite?token=a+b/c= to accept.',
  html: '<p>Open <a href="https://photoedit.example/invite?token=a+b/c=">the invitation</a> &amp; accept.</p>',
});

/** The credentials the function's environment gives it, as a Lambda's role session does. */
const roleSession = { accessKeyId: 'ASIAROLESESSION', secretAccessKey: 'role-secret', sessionToken: 'session/token+=' };
const iamUser = { accessKeyId: 'AKIAIAMUSER', secretAccessKey: 'user-secret' };

interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

const useCredentials = (credentials: Credentials) => {
  vi.stubEnv('AWS_ACCESS_KEY_ID', credentials.accessKeyId);
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', credentials.secretAccessKey);
  vi.stubEnv('AWS_SESSION_TOKEN', credentials.sessionToken);
  vi.stubEnv('AWS_PROFILE', undefined);
};

const useEndpoint = (endpoint: string, credentials: Credentials = roleSession) => {
  useCredentials(credentials);
  vi.stubEnv('AWS_REGION', 'eu-west-1');
  vi.stubEnv('SES_ENDPOINT', endpoint);
  vi.stubEnv('MAIL_FROM', 'PhotoEdit Marketplace <no-reply@photoedit.example>');
  resetConfig();
};

afterEach(() => {
  vi.unstubAllEnvs();
  vi.useRealTimers();
  resetConfig();
});

describe('sending an email to the SES stand-in', () => {
  let standIn: Server;
  let endpoint: string;

  beforeAll(async () => {
    standIn = await startSesStandIn({ host: '127.0.0.1', port: 0 });
    endpoint = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    standIn.closeAllConnections();
    await new Promise((resolve) => standIn.close(resolve));
  });

  const inbox = async (to: string) => {
    const { emails } = (await (await fetch(`${endpoint}/store`)).json()) as { emails: StoredEmail[] };
    return emails.filter((email) => email.destination.to.includes(to));
  };

  it('delivers the subject and both bodies, from the configured sender, and answers with its id', async () => {
    useEndpoint(endpoint);
    const messageId = await sendEmail(message('ada@example.com'));
    const [stored, ...others] = await inbox('ada@example.com');
    expect(others).toEqual([]);
    expect(stored).toMatchObject({
      messageId,
      from: 'PhotoEdit Marketplace <no-reply@photoedit.example>',
      subject: message('').subject,
      body: { text: message('').text, html: message('').html },
    });
    expect(messageId).not.toBe('');
  });

  it('uses the endpoint configured when it sends: an unreachable one fails, the stand-in again succeeds', async () => {
    // Nothing listens on port 9.
    useEndpoint('http://127.0.0.1:9');
    await expect(sendEmail(message('grace@example.com'))).rejects.toThrow(/^SES SendEmail failed after 3 attempts/);
    useEndpoint(endpoint);
    await sendEmail(message('grace@example.com'));
    expect(await inbox('grace@example.com')).toHaveLength(1);
  });
});

describe('sending to an endpoint that checks signatures', () => {
  // A VPC endpoint, FIPS or a verifying stand-in checks SigV4 as SES does: the configured
  // credentials must sign, whatever the endpoint.
  let standIn: Server;
  let verifier: Awaited<ReturnType<typeof startVerifyingStandIn>>;
  let endpoint: string;

  beforeAll(async () => {
    standIn = await startSesStandIn({ host: '127.0.0.1', port: 0 });
    verifier = await startVerifyingStandIn({
      service: 'ses',
      region: 'eu-west-1',
      secrets: {
        [roleSession.accessKeyId]: roleSession.secretAccessKey,
        [iamUser.accessKeyId]: iamUser.secretAccessKey,
      },
      backendPort: (standIn.address() as AddressInfo).port,
    });
    endpoint = `http://127.0.0.1:${verifier.port}`;
  });
  afterAll(async () => {
    await verifier.close();
    standIn.closeAllConnections();
    await new Promise((resolve) => standIn.close(resolve));
  });

  it.each([
    ['a role session with its token', roleSession],
    ['an IAM user key', iamUser],
  ])('is signed with the configured credentials: %s', async (_, credentials) => {
    useEndpoint(endpoint, credentials);
    const messageId = await sendEmail(message('katherine@example.com'));
    expect(messageId).not.toBe('');
    expect(verifier.verdicts.at(-1)).toMatchObject({ accessKeyId: credentials.accessKeyId, problem: undefined });
  });

  it('is refused when the configured secret is wrong, and not sent', async () => {
    const before = verifier.verdicts.length;
    useEndpoint(endpoint, { ...iamUser, secretAccessKey: 'not-the-secret' });
    await expect(sendEmail(message('dorothy@example.com'))).rejects.toThrow(/SES SendEmail answered 403/);
    expect(verifier.verdicts.slice(before).map((v) => v.problem)).toEqual(['signature does not match']);
  });
});

describe('the request sent', () => {
  let recorder: Awaited<ReturnType<typeof startRecorder>>;
  beforeAll(async () => {
    recorder = await startRecorder(() => ({ body: { MessageId: '0100018e3f1c8b3a-example-000000' } }));
  });
  afterAll(() => recorder.close());

  it('is the one the SES client sends for the same email, signed alike', async () => {
    useEndpoint(recorder.url);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2025-03-14T15:09:26Z'));
    expect(await sendEmail(message('ada@example.com'))).toBe('0100018e3f1c8b3a-example-000000');
    const [ours] = recorder.received.splice(0);

    const sdk = signingOnlyOurHeaders(
      new SESv2Client({
        region: 'eu-west-1',
        endpoint: recorder.url,
        credentials: roleSession,
      }),
    );
    const { subject, text, html, to } = message('ada@example.com');
    await sdk.send(
      new SendEmailCommand({
        FromEmailAddress: 'PhotoEdit Marketplace <no-reply@photoedit.example>',
        Destination: { ToAddresses: [to] },
        Content: {
          Simple: {
            Subject: { Data: subject, Charset: 'UTF-8' },
            Body: { Text: { Data: text, Charset: 'UTF-8' }, Html: { Data: html, Charset: 'UTF-8' } },
          },
        },
      }),
    );
    const [reference] = recorder.received;
    expect(ours!.method).toBe('POST');
    expect(ours!.url).toBe('/v2/email/outbound-emails');
    expect(ours!.url).toBe(reference!.url);
    expect(ours!.body).toBe(reference!.body);
    for (const header of ['content-type', 'content-length', 'x-amz-date', 'authorization']) {
      expect(ours!.headers[header], header).toBe(reference!.headers[header]);
    }
    expect(ours!.headers.authorization).toContain('/20250314/eu-west-1/ses/aws4_request');
  });
});
