import type { AddressInfo } from 'node:net';
import {
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  ListMessageMoveTasksCommand,
  ListQueuesCommand,
  QueueDoesNotExist,
  ResourceNotFoundException,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
  StartMessageMoveTaskCommand,
  UnsupportedOperation,
} from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { logger } from '../src/adapters/logger';
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

  it('holds every message while deliveries are paused, and delivers them once resumed', async () => {
    const received: string[] = [];
    const queues = start(worker(), async (event) => {
      received.push(...event.Records.map((r) => r.body));
    });
    const resume = queues.pauseDeliveries();
    queues.send('order-events', 'held-1');
    queues.send('order-events', 'held-2');

    await settle(200);
    expect(received).toEqual([]);
    expect(queues.depth('order-events').messages).toBe(2);

    resume();
    await queues.whenIdle();
    expect(received.sort()).toEqual(['held-1', 'held-2']);
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

describe("the local queue runner's SQS API for the ops commands", () => {
  const failEverything = async (event: SQSEvent) => ({
    batchItemFailures: event.Records.map((r) => ({ itemIdentifier: r.messageId })),
  });

  /** A runner listening on a free port, and an SQS client pointed at it as the ops commands' is. */
  const serve = async (definition: WorkerDefinition, handler: (event: SQSEvent) => Promise<unknown>, extra = {}) => {
    runner = new LocalQueueRunner({
      workers: [definition],
      loadHandler: async () => handler as never,
      onDeadLetter: () => {},
      pollIntervalMs: 20,
      ...extra,
    }).start();
    await runner.listen(0);
    const port = ((runner as unknown as { server: { address(): AddressInfo } }).server.address() as AddressInfo).port;
    const sqs = new SQSClient({
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${port}`,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    return { queues: runner, sqs, port };
  };

  const deadLettered = async (queues: LocalQueueRunner, count: number) => {
    for (let i = 0; i < 100 && queues.depth('order-events').deadLetters < count; i++) await settle(20);
    expect(queues.depth('order-events').deadLetters).toBe(count);
  };

  it('names each queue and its dead-letter queue, and counts their messages as GetQueueAttributes does', async () => {
    const { queues, sqs, port } = await serve(worker({ maxReceiveCount: 2 }), failEverything);
    queues.send('order-events', 'poison');
    await deadLettered(queues, 1);
    queues.send('order-events', 'later', 60);

    const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: 'order-events' }));
    const deadLetterUrl = (await sqs.send(new GetQueueUrlCommand({ QueueName: 'order-events-dlq' }))).QueueUrl;
    expect(QueueUrl).toBe(queues.queueUrl('order-events', port));
    expect(deadLetterUrl).toBe(queues.queueUrl('order-events-dlq', port));
    await expect(sqs.send(new GetQueueUrlCommand({ QueueName: 'no-such-queue' }))).rejects.toBeInstanceOf(
      QueueDoesNotExist,
    );
    expect((await sqs.send(new ListQueuesCommand({}))).QueueUrls).toEqual([QueueUrl, deadLetterUrl]);

    const queue = await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['All'] }));
    expect(queue.Attributes).toMatchObject({
      QueueArn: 'arn:aws:sqs:us-east-1:000000000000:order-events',
      ApproximateNumberOfMessages: '0',
      ApproximateNumberOfMessagesNotVisible: '0',
      ApproximateNumberOfMessagesDelayed: '1',
    });
    expect(JSON.parse(queue.Attributes!.RedrivePolicy!)).toEqual({
      deadLetterTargetArn: 'arn:aws:sqs:us-east-1:000000000000:order-events-dlq',
      maxReceiveCount: 2,
    });
    const deadLetters = await sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: deadLetterUrl,
        AttributeNames: ['ApproximateNumberOfMessages', 'RedrivePolicy'],
      }),
    );
    // Only what was asked for, and only what the queue has: a dead-letter queue has no redrive policy.
    expect(deadLetters.Attributes).toEqual({ ApproximateNumberOfMessages: '1' });
    await expect(
      sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['NoSuchAttribute' as never] })),
    ).rejects.toThrow(/Unknown Attribute NoSuchAttribute/);
  });

  it('counts a message being handled, or waiting out its visibility timeout, as not visible', async () => {
    let release = () => {};
    const { queues, sqs } = await serve(
      worker({ visibilityTimeoutSeconds: 60 }),
      () =>
        new Promise<void>((resolve) => {
          release = resolve;
        }),
    );
    queues.send('order-events', 'slow');
    await settle(100);
    const QueueUrl = (await sqs.send(new GetQueueUrlCommand({ QueueName: 'order-events' }))).QueueUrl;

    const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['All'] }));

    expect(Attributes).toMatchObject({ ApproximateNumberOfMessages: '0', ApproximateNumberOfMessagesNotVisible: '1' });
    release();
  });

  it('moves every dead letter back with StartMessageMoveTask, and ListMessageMoveTasks reports how many', async () => {
    let fixed = false;
    const delivered: string[] = [];
    const { queues, sqs } = await serve(worker({ maxReceiveCount: 2 }), async (event) => {
      if (!fixed) return failEverything(event);
      delivered.push(...event.Records.map((r) => `${r.body}#${r.attributes.ApproximateReceiveCount}`));
    });
    queues.send('order-events', 'first');
    queues.send('order-events', 'second');
    await deadLettered(queues, 2);
    fixed = true;
    const SourceArn = 'arn:aws:sqs:us-east-1:000000000000:order-events-dlq';
    const DestinationArn = 'arn:aws:sqs:us-east-1:000000000000:order-events';

    const { TaskHandle } = await sqs.send(new StartMessageMoveTaskCommand({ SourceArn, DestinationArn }));
    await queues.whenIdle();

    expect(TaskHandle).toEqual(expect.any(String));
    expect((await sqs.send(new ListMessageMoveTasksCommand({ SourceArn }))).Results).toEqual([
      expect.objectContaining({
        Status: 'COMPLETED',
        SourceArn,
        DestinationArn,
        ApproximateNumberOfMessagesMoved: 2,
        ApproximateNumberOfMessagesToMove: 2,
      }),
    ]);
    // Back in their queue with their receives counted afresh, as SQS's redrive does.
    expect(delivered.sort()).toEqual(['first#1', 'second#1']);
    expect(queues.depth('order-events')).toEqual({ messages: 0, deadLetters: 0 });

    // A second move finds nothing; the newest task comes first.
    await sqs.send(new StartMessageMoveTaskCommand({ SourceArn }));
    const { Results } = await sqs.send(new ListMessageMoveTasksCommand({ SourceArn, MaxResults: 10 }));
    expect(Results?.map((r) => r.ApproximateNumberOfMessagesMoved)).toEqual([0, 2]);
  });

  it('refuses a move from a queue that is no dead-letter queue, or from one that does not exist', async () => {
    const { sqs } = await serve(worker(), failEverything);

    await expect(
      sqs.send(new StartMessageMoveTaskCommand({ SourceArn: 'arn:aws:sqs:us-east-1:000000000000:order-events' })),
    ).rejects.toBeInstanceOf(UnsupportedOperation);
    await expect(
      sqs.send(new ListMessageMoveTasksCommand({ SourceArn: 'arn:aws:sqs:us-east-1:000000000000:nothing-dlq' })),
    ).rejects.toBeInstanceOf(ResourceNotFoundException);
  });

  it("keeps each worker's newest error: what its handler logged for the message, or what it threw", async () => {
    let mode: 'log' | 'throw' | 'silent' = 'log';
    const { queues } = await serve(
      worker({ maxReceiveCount: 1 }),
      async (event: SQSEvent) => {
        const [record] = event.Records;
        if (mode === 'throw') throw new Error('the table is unreachable');
        if (mode === 'log') {
          logger.error('storing an order event failed', {
            messageId: record!.messageId,
            error: new Error('Item size has exceeded the maximum allowed size'),
          });
        }
        return { batchItemFailures: [{ itemIdentifier: record!.messageId }] };
      },
      { captureErrorLogs: true },
    );

    const logged = queues.send('order-events', 'too big');
    await deadLettered(queues, 1);
    expect(queues.workerErrors()).toEqual({
      'order-events': {
        at: expect.any(String),
        messageId: logged.messageId,
        message: 'storing an order event failed: Item size has exceeded the maximum allowed size',
      },
    });

    mode = 'throw';
    const thrown = queues.send('order-events', 'any');
    await deadLettered(queues, 2);
    expect(queues.workerErrors()['order-events']).toMatchObject({
      messageId: thrown.messageId,
      message: 'the batch of 1 failed: the table is unreachable',
    });

    mode = 'silent';
    const silent = queues.send('order-events', 'quiet');
    await deadLettered(queues, 3);
    expect(queues.workerErrors()['order-events']).toMatchObject({
      messageId: silent.messageId,
      message: 'reported as failed by the worker, which logged no error for it',
    });
  });

  it('serves the stream poller status and the worker errors to another process as local controls', async () => {
    const { port } = await serve(worker(), failEverything, { streamStatus: () => ({ lagSeconds: 0.2 }) });
    const control = async (action: string) =>
      (
        await fetch(`http://127.0.0.1:${port}`, {
          method: 'POST',
          headers: { 'x-amz-target': `Local.${action}` },
          body: '{}',
        })
      ).json();

    expect(await control('StreamStatus')).toEqual({ lagSeconds: 0.2 });
    expect(await control('WorkerErrors')).toEqual({ WorkerErrors: {} });
  });
});
