import type { AddressInfo } from 'node:net';
import { SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkerDefinition } from '../src/workers';
import { type DeadLetterAlarm, LocalQueueRunner } from './queue-runner';

const worker = (overrides: Partial<WorkerDefinition> = {}): WorkerDefinition => ({
  queue: 'order-events',
  handler: 'test',
  batchSize: 3,
  visibilityTimeoutSeconds: 0.2,
  maxReceiveCount: 3,
  timeoutSeconds: 5,
  memoryMb: 128,
  ...overrides,
});

let runner: LocalQueueRunner | undefined;
afterEach(async () => {
  await runner?.stop();
  runner = undefined;
});

const start = (definition: WorkerDefinition, handler: (event: SQSEvent) => Promise<unknown>) => {
  runner = new LocalQueueRunner({
    workers: [definition],
    loadHandler: async () => handler as never,
    pollIntervalMs: 20,
  }).start();
  return runner;
};

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the local queue runner', () => {
  it('delivers messages in batches no larger than the batch size', async () => {
    const batches: number[] = [];
    const queues = start(worker({ batchSize: 3 }), async (event) => {
      batches.push(event.Records.length);
    });
    for (let i = 0; i < 7; i++) queues.send('order-events', `m${i}`);

    await queues.whenIdle();

    expect(batches.reduce((a, b) => a + b, 0)).toBe(7);
    expect(Math.max(...batches)).toBeLessThanOrEqual(3);
  });

  it('retries only the messages a handler reports as failed, after the visibility timeout', async () => {
    const seen: string[] = [];
    const queues = start(worker(), async (event) => {
      seen.push(...event.Records.map((r) => `${r.body}#${r.attributes.ApproximateReceiveCount}`));
      const failures = event.Records.filter((r) => r.body === 'bad' && r.attributes.ApproximateReceiveCount === '1');
      return { batchItemFailures: failures.map((r) => ({ itemIdentifier: r.messageId })) };
    });
    queues.send('order-events', 'good');
    queues.send('order-events', 'bad');

    await queues.whenIdle();

    expect(seen.sort()).toEqual(['bad#1', 'bad#2', 'good#1']);
  });

  it('redelivers the whole batch when the handler throws', async () => {
    let calls = 0;
    const queues = start(worker(), async (event) => {
      calls += 1;
      if (calls === 1) throw new Error('boom');
      expect(event.Records.map((r) => r.attributes.ApproximateReceiveCount)).toEqual(['2', '2']);
    });
    queues.send('order-events', 'a');
    queues.send('order-events', 'b');

    await queues.whenIdle();

    expect(calls).toBe(2);
  });

  it('moves a message to the dead-letter queue after maxReceiveCount receives', async () => {
    let receives = 0;
    const queues = start(worker({ maxReceiveCount: 3 }), async (event) => {
      receives += event.Records.length;
      return { batchItemFailures: event.Records.map((r) => ({ itemIdentifier: r.messageId })) };
    });
    queues.send('order-events', 'poison');

    await queues.whenIdle();
    await settle(50);

    expect(receives).toBe(3);
    expect(queues.deadLetters('order-events').map((m) => m.body)).toEqual(['poison']);
  });

  it('raises an alarm naming the queue, the message and its receives when it is dead-lettered', async () => {
    const raised: DeadLetterAlarm[] = [];
    runner = new LocalQueueRunner({
      workers: [worker({ maxReceiveCount: 2 })],
      loadHandler: async () =>
        (async (event: SQSEvent) => ({
          batchItemFailures: event.Records.map((r) => ({ itemIdentifier: r.messageId })),
        })) as never,
      onDeadLetter: (alarm) => raised.push(alarm),
      pollIntervalMs: 20,
    }).start();
    const sent = runner.send('order-events', 'poison');

    await runner.whenIdle();
    await settle(50);

    expect(raised).toEqual([
      expect.objectContaining({
        queue: 'order-events',
        deadLetterQueue: 'order-events-dlq',
        messageId: sent.messageId,
        receiveCount: 2,
        maxReceiveCount: 2,
        body: 'poison',
      }),
    ]);
    expect(runner.deadLetterAlarms()).toEqual(raised);
  });

  it('does not deliver a message again while it is invisible', async () => {
    let receives = 0;
    const queues = start(worker({ visibilityTimeoutSeconds: 60 }), async (event) => {
      receives += event.Records.length;
      return { batchItemFailures: event.Records.map((r) => ({ itemIdentifier: r.messageId })) };
    });
    queues.send('order-events', 'slow');

    await settle(300);

    expect(receives).toBe(1);
    expect(queues.depth('order-events').messages).toBe(1);
  });

  it('accepts SendMessage and SendMessageBatch from the AWS SDK', async () => {
    const bodies: string[] = [];
    const queues = start(worker(), async (event) => {
      bodies.push(...event.Records.map((r) => r.body));
    });
    await queues.listen(0);
    const port = ((queues as unknown as { server: { address(): AddressInfo } }).server.address() as AddressInfo).port;
    const sqs = new SQSClient({
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${port}`,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const QueueUrl = queues.queueUrl('order-events', port);

    await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: 'one' }));
    await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl,
        Entries: [
          { Id: 'a', MessageBody: 'two' },
          { Id: 'b', MessageBody: 'three' },
        ],
      }),
    );
    await expect(
      sqs.send(new SendMessageCommand({ QueueUrl: queues.queueUrl('no-such-queue', port), MessageBody: 'x' })),
    ).rejects.toThrow(/does not exist/);
    await queues.whenIdle();

    expect(bodies.sort()).toEqual(['one', 'three', 'two']);
  });
});
