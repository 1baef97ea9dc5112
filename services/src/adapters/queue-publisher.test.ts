import { createServer } from 'node:net';
import { GetQueueAttributesCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LocalQueueRunner } from '../../local/queue-runner';
import { signingOnlyOurHeaders, startRecorder } from '../../test/aws-requests-recorder';
import { resetConfig } from '../config';
import type { WorkerDefinition } from '../workers';
import { publish } from './queue-publisher';

/**
 * The publisher sends SQS's SendMessageBatch itself (JSON protocol, signed with aws-requests.ts):
 * against the local queue runner, which speaks SQS's API to the SDK and feeds the workers, and
 * against a recording server to compare each request with the one the SQS client sends.
 */
const credentials = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  sessionToken: 'IQoJb3JpZ2luX2VjEXAMPLE//token+with=padding',
};

const runAs = (environment: { SQS_ENDPOINT: string; queueUrl: string }) => {
  vi.stubEnv('AWS_REGION', 'us-east-1');
  vi.stubEnv('AWS_ACCESS_KEY_ID', credentials.accessKeyId);
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', credentials.secretAccessKey);
  vi.stubEnv('AWS_SESSION_TOKEN', credentials.sessionToken);
  vi.stubEnv('SQS_ENDPOINT', environment.SQS_ENDPOINT);
  vi.stubEnv('QUEUE_URLS', JSON.stringify({ 'zip-builds': environment.queueUrl }));
  resetConfig();
};

afterEach(() => {
  vi.unstubAllEnvs();
  vi.useRealTimers();
  resetConfig();
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

const zipBuild = (n: number) => ({ orderId: `order-${n}`, kind: 'edited', note: `é "${n}" & <more>` });

describe('publishing to the local queue runner', () => {
  const worker: WorkerDefinition = {
    queue: 'zip-builds',
    handler: 'build-zip',
    batchSize: 10,
    visibilityTimeoutSeconds: 30,
    maxReceiveCount: 3,
    timeoutSeconds: 5,
    memoryMb: 128,
  };
  const delivered: unknown[] = [];
  let runner: LocalQueueRunner;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    runner = new LocalQueueRunner({
      workers: [worker],
      loadHandler: async () => async (event) => {
        delivered.push(...event.Records.map((record) => JSON.parse(record.body)));
        return undefined;
      },
      pollIntervalMs: 20,
    });
    await runner.listen(port);
    runner.start();
  });
  afterAll(() => runner.stop());

  const endpoint = () => `http://127.0.0.1:${port}`;
  const useRunner = () => runAs({ SQS_ENDPOINT: endpoint(), queueUrl: runner.queueUrl('zip-builds', port) });
  const control = (action: string, input: Record<string, unknown>) =>
    fetch(endpoint(), { method: 'POST', headers: { 'x-amz-target': action }, body: JSON.stringify(input) });

  it("delivers every message, more than a batch's ten, to the queue's worker", async () => {
    useRunner();
    delivered.length = 0;
    const messages = Array.from({ length: 23 }, (_, n) => zipBuild(n));
    await publish('zip-builds', messages);
    await runner.whenIdle();
    expect(delivered).toEqual(expect.arrayContaining(messages));
    expect(delivered).toHaveLength(23);
  });

  it('sends again what the queue refused twice, and throws when it refuses a third time', async () => {
    useRunner();
    delivered.length = 0;
    await control('Local.FailNextSends', { Count: 2 });
    await publish('zip-builds', [zipBuild(1)]);
    await runner.whenIdle();
    expect(delivered).toEqual([zipBuild(1)]);

    await control('Local.FailNextSends', { Count: 3 });
    await expect(publish('zip-builds', [zipBuild(2)])).rejects.toThrow(
      'SQS SendMessageBatch answered 500 InternalError: Injected failure',
    );
    await runner.whenIdle();
    expect(delivered).toEqual([zipBuild(1)]);
  });

  it('throws, naming the queue, when no URL is configured for it', async () => {
    useRunner();
    await expect(publish('thumbnails', [zipBuild(1)])).rejects.toThrow('No URL configured for queue thumbnails');
  });

  // Last: the delayed messages stay in the queue.
  it('holds the messages back for their delay', async () => {
    useRunner();
    delivered.length = 0;
    await publish('zip-builds', [zipBuild(1), zipBuild(2)], { delaySeconds: 900 });
    const sdk = new SQSClient({ region: 'us-east-1', endpoint: endpoint(), credentials });
    const { Attributes } = await sdk.send(
      new GetQueueAttributesCommand({
        QueueUrl: runner.queueUrl('zip-builds', port),
        AttributeNames: ['ApproximateNumberOfMessagesDelayed'],
      }),
    );
    expect(Attributes?.ApproximateNumberOfMessagesDelayed).toBe('2');
    expect(delivered).toEqual([]);
  });
});

describe('the requests sent', () => {
  const queueUrl = 'https://sqs.us-east-1.amazonaws.com/123456789012/marketplace-zip-builds';
  let recorder: Awaited<ReturnType<typeof startRecorder>>;
  let refuseEntries = false;

  beforeAll(async () => {
    recorder = await startRecorder(({ body }) => {
      const { Entries } = JSON.parse(body) as { Entries: { Id: string }[] };
      return {
        headers: { 'content-type': 'application/x-amz-json-1.0' },
        body: refuseEntries
          ? {
              Successful: [],
              Failed: Entries.map(({ Id }) => ({ Id, Code: 'InternalError', SenderFault: false })),
            }
          : { Successful: Entries.map(({ Id }) => ({ Id, MessageId: `m-${Id}`, MD5OfMessageBody: '' })), Failed: [] },
      };
    });
  });
  afterAll(() => recorder.close());

  it('are signed as the SQS client signs the same batch, ten messages at most in each', async () => {
    runAs({ SQS_ENDPOINT: recorder.url, queueUrl });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2025-03-14T15:09:26Z'));
    recorder.received.length = 0;
    await publish(
      'zip-builds',
      Array.from({ length: 12 }, (_, n) => zipBuild(n)),
      { delaySeconds: 30 },
    );
    const ours = [...recorder.received];
    expect(ours.map((request) => JSON.parse(request.body).Entries.length)).toEqual([10, 2]);

    for (const request of ours) {
      // A client per request: the recorder's Date header would skew a client's clock past its first answer.
      // The MD5 check of the answer is the SQS client's own; the recorder's answer has none.
      const sdk = signingOnlyOurHeaders(
        new SQSClient({ region: 'us-east-1', endpoint: recorder.url, credentials, md5: false }),
      );
      const input = JSON.parse(request.body);
      expect(input).toMatchObject({ QueueUrl: queueUrl });
      expect(input.Entries[0]).toEqual({ Id: expect.any(String), MessageBody: expect.any(String), DelaySeconds: 30 });
      recorder.received.length = 0;
      await sdk.send(new SendMessageBatchCommand(input));
      const [reference] = recorder.received;
      expect(request.body).toBe(reference!.body);
      for (const header of ['content-type', 'x-amz-target', 'x-amz-date', 'x-amz-security-token', 'authorization']) {
        expect(request.headers[header], header).toBe(reference!.headers[header]);
      }
      expect(request.url).toBe(reference!.url);
    }
  });

  it('throw when SQS accepts a batch but not every message in it', async () => {
    runAs({ SQS_ENDPOINT: recorder.url, queueUrl });
    refuseEntries = true;
    try {
      await expect(publish('zip-builds', [zipBuild(1), zipBuild(2)])).rejects.toThrow(
        '2 message(s) were not accepted by queue zip-builds',
      );
    } finally {
      refuseEntries = false;
    }
  });
});
