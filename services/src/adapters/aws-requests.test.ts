import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressOf, awsJsonHeaders, awsService } from './aws-requests';

/**
 * The signed, retried exchange every AWS call of the request paths goes through (S3's requests,
 * SQS's SendMessageBatch, Secrets Manager's GetSecretValue, SES's SendEmail), against a local
 * server that answers each request with the next of a script of answers and notes what it was
 * sent. Each call's signature is compared with its SDK client's in that call's own tests.
 */
const credentials = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
};

type Scripted = (request: IncomingMessage, response: ServerResponse) => void;

const answer =
  (status: number, body: unknown = {}, headers: Record<string, string> = {}): Scripted =>
  (_, response) => {
    response.writeHead(status, { 'content-type': 'application/x-amz-json-1.0', ...headers });
    response.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
const dropConnection: Scripted = (request) => request.socket.destroy();
const neverAnswer: Scripted = () => {};
const throttled = answer(400, { __type: 'com.amazonaws.sqs#ThrottlingException', message: 'Rate exceeded' });

let server: Server;
let script: Scripted[] = [];
const received: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const body = (await buffer(request)).toString('utf8');
    received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
    (script.shift() ?? answer(500))(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const endpoint = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const run = (...answers: Scripted[]) => {
  script = answers;
  received.length = 0;
};

const sqs = () =>
  awsService({ name: 'SQS', signingName: 'sqs', region: 'eu-west-1', credentials, attemptTimeoutMs: 300 });
const sendBatch = () =>
  sqs().sendJson<{ Successful: unknown[] }>('SendMessageBatch', {
    url: endpoint(),
    headers: awsJsonHeaders('1.0', 'AmazonSQS.SendMessageBatch'),
    input: { QueueUrl: `${endpoint()}/000000000000/zip-builds`, Entries: [{ Id: '1', MessageBody: 'été' }] },
  });

describe('a JSON call', () => {
  it('POSTs its input signed for the service and region, and reads the JSON answer', async () => {
    run(answer(200, { Successful: [{ Id: '1' }], Failed: [] }));
    expect(await sendBatch()).toEqual({ Successful: [{ Id: '1' }], Failed: [] });
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request).toMatchObject({ method: 'POST', url: '/' });
    expect(JSON.parse(request!.body)).toEqual({
      QueueUrl: `${endpoint()}/000000000000/zip-builds`,
      Entries: [{ Id: '1', MessageBody: 'été' }],
    });
    expect(request!.headers).toMatchObject({
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-target': 'AmazonSQS.SendMessageBatch',
      'content-length': String(Buffer.byteLength(request!.body)),
      host: new URL(endpoint()).host,
    });
    expect(request!.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\/\d{8}\/eu-west-1\/sqs\/aws4_request, SignedHeaders=content-length;content-type;host;x-amz-content-sha256;x-amz-date;x-amz-target, Signature=[0-9a-f]{64}$/,
    );
  });

  it('is tried again after throttling and a dropped connection, each attempt signed afresh', async () => {
    run(throttled, dropConnection, answer(200, { Successful: [], Failed: [] }));
    expect(await sendBatch()).toEqual({ Successful: [], Failed: [] });
    expect(received).toHaveLength(3);
    expect(new Set(received.map((r) => r.body)).size).toBe(1);
  });

  it('gives an attempt that hangs up to its deadline, then tries again', async () => {
    run(neverAnswer, answer(200, {}));
    const started = performance.now();
    await sendBatch();
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(received).toHaveLength(2);
  });

  it('stops after three attempts, naming the service, the operation and what AWS last answered', async () => {
    run(...Array(3).fill(answer(500, { __type: 'com.amazonaws.sqs#InternalError', message: 'Injected failure' })));
    await expect(sendBatch()).rejects.toThrow('SQS SendMessageBatch answered 500 InternalError: Injected failure');
    expect(received).toHaveLength(3);

    run(neverAnswer, dropConnection, neverAnswer);
    await expect(sendBatch()).rejects.toThrow(/^SQS SendMessageBatch failed after 3 attempts/);
    expect(received).toHaveLength(3);

    run(throttled, throttled, throttled, answer(200));
    await expect(sendBatch()).rejects.toThrow('SQS SendMessageBatch answered 400 ThrottlingException: Rate exceeded');
    expect(received).toHaveLength(3);
  });

  it('is refused at once on any other error, with AWS code from the body or from x-amzn-ErrorType', async () => {
    run(answer(400, { __type: 'com.amazonaws.sqs#QueueDoesNotExist', message: 'The specified queue does not exist.' }));
    await expect(sendBatch()).rejects.toThrow(
      'SQS SendMessageBatch answered 400 QueueDoesNotExist: The specified queue does not exist.',
    );
    expect(received).toHaveLength(1);

    run(
      answer(
        400,
        { message: 'Email address is not verified.' },
        { 'x-amzn-ErrorType': 'MessageRejected:http://internal.amazon.com/coral/com.amazonaws.sesv2/' },
      ),
    );
    const ses = awsService({ name: 'SES', signingName: 'ses', region: 'eu-west-1', credentials });
    await expect(
      ses.sendJson('SendEmail', {
        url: `${endpoint()}/v2/email/outbound-emails`,
        headers: { 'content-type': 'application/json' },
        input: {},
      }),
    ).rejects.toThrow('SES SendEmail answered 400 MessageRejected: Email address is not verified.');
    expect(received.map((r) => r.url)).toEqual(['/v2/email/outbound-emails']);

    run(answer(403, ''));
    await expect(sendBatch()).rejects.toThrow(/^SQS SendMessageBatch answered 403$/);
  });

  it('sends a call that is not idempotent again only when it cannot have been carried out', async () => {
    const ses = awsService({
      name: 'SES',
      signingName: 'ses',
      region: 'eu-west-1',
      credentials,
      attemptTimeoutMs: 300,
      idempotent: false,
    });
    const sendEmailTo = (url: string) =>
      ses.sendJson<{ MessageId?: string }>('SendEmail', {
        url: `${url}/v2/email/outbound-emails`,
        headers: { 'content-type': 'application/json' },
        input: { Destination: { ToAddresses: ['editor@example.com'] } },
      });
    const notSentAgain = /^SES SendEmail got no answer and may have been carried out, so it is not sent again/;

    // Sent, and no answer: SES may have sent the mail, and a second attempt would send it twice.
    run(neverAnswer, answer(200, { MessageId: 'twice' }));
    await expect(sendEmailTo(endpoint())).rejects.toThrow(notSentAgain);
    expect(received).toHaveLength(1);
    run(dropConnection, answer(200, { MessageId: 'twice' }));
    await expect(sendEmailTo(endpoint())).rejects.toThrow(notSentAgain);
    expect(received).toHaveLength(1);

    // Refused: SES did nothing, so it is asked again.
    run(answer(503, { message: 'Service unavailable' }), answer(200, { MessageId: 'once' }));
    expect(await sendEmailTo(endpoint())).toEqual({ MessageId: 'once' });
    expect(received).toHaveLength(2);

    // A connection never made: the request did not leave, and is tried again like any other.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    await expect(sendEmailTo(closedUrl)).rejects.toThrow(/^SES SendEmail failed after 3 attempts: .*ECONNREFUSED/);
  });

  it("sends the path as signed, without resolving its '.' and '..' segments", async () => {
    const s3 = awsService({ name: 'S3', signingName: 's3', region: 'us-east-1', credentials, uriEscapePath: false });
    for (const path of ['/photos/orders/a/%2E%2E/b.jpg', '/photos/orders/a/../b.jpg', '/photos/./c.jpg']) {
      run(answer(200, ''));
      await s3.send('HeadObject', { method: 'HEAD', address: { ...addressOf(endpoint()), path } });
      expect(received.map((r) => r.url)).toEqual([path]);
    }
  });

  it('signs with the session token when the credentials carry one', async () => {
    run(answer(200, {}));
    await awsService({
      name: 'Secrets Manager',
      signingName: 'secretsmanager',
      region: 'us-east-1',
      credentials: { ...credentials, sessionToken: 'session/token+=' },
    }).sendJson('GetSecretValue', {
      url: endpoint(),
      headers: awsJsonHeaders('1.1', 'secretsmanager.GetSecretValue'),
      input: { SecretId: 'stripe-keys' },
    });
    expect(received[0]!.headers['x-amz-security-token']).toBe('session/token+=');
    expect(received[0]!.headers.authorization).toContain('/us-east-1/secretsmanager/aws4_request');
    expect(received[0]!.headers.authorization).toContain(';x-amz-security-token;x-amz-target,');
  });
});
