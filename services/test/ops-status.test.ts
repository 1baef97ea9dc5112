import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../local/stack';
import { localDeployment } from '../src/ops/deployment';
import { held, sqsClient } from '../src/ops/queues';
import { OpsError } from '../src/ops/roles';
import { collectStatus, redriveQueue, type StatusReport } from '../src/ops/status';
import { workers } from '../src/workers';
import { outboxStreamRecord, sqsControl, waitFor } from './support';

/**
 * `npm run ops -- status` and `npm run ops -- redrive <queue>` against the running local stack,
 * spawned as an operator runs them. The poison messages are this file's own (a marker in their
 * body), sent to the event log's queue, which no other test dead-letters.
 */
const queueUrl = (queue: string) => JSON.parse(process.env.QUEUE_URLS!)[queue] as string;
const deadLetterQueueUrl = (queue: string) => `${queueUrl(queue)}-dlq`;

/** The ids of the messages a queue (or a dead-letter queue) holds now whose body holds the marker. */
const heldIds = async (url: string, marker: string) => {
  const { Messages } = (await sqsControl('Messages', { QueueUrl: url, BodyContains: marker })) as {
    Messages: { MessageId: string }[];
  };
  return Messages.map((m) => m.MessageId).sort();
};

/**
 * An outbox stream record of an order event too large for the activity log to store: the event
 * log's worker fails it on every receive (DynamoDB refuses items over 400 KB).
 */
const poisonRecord = (marker: string) =>
  JSON.stringify(
    outboxStreamRecord({
      eventId: ulid(),
      orderId: `ops-status-${marker}`,
      eventType: 'order_created',
      description: 'an order event too large to store',
      occurredAt: new Date().toISOString(),
      metadata: { marker, note: 'x'.repeat(410 * 1024) },
    }),
  );

/**
 * The ops command as an operator runs it; without TABLE_NAME it acts on the local stack, here the
 * tests'. The Powertools logger this process loaded set AWS_SDK_UA_APP_ID, which the child's own
 * logger would lengthen past the SDK's limit (a warning on stderr): an operator's shell has none.
 */
const ops = (...args: string[]) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const { TABLE_NAME: _table, AWS_SDK_UA_APP_ID: _appId, ...env } = process.env;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(repoRoot, 'services/src/ops/cli.ts'), ...args],
      {
        cwd: repoRoot,
        env,
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });

const orderEventsRow = (report: StatusReport) => report.queues.find((q) => q.name === 'order-events')!;

describe('the status and redrive ops commands', () => {
  it('report dead letters and the last error, then move exactly the dead letters back, and nothing the second time', async () => {
    const marker = randomUUID();
    const sqs = sqsClient();
    const sent = await Promise.all(
      [1, 2].map(() =>
        sqs.send(new SendMessageCommand({ QueueUrl: queueUrl('order-events'), MessageBody: poisonRecord(marker) })),
      ),
    );
    const ids = sent.map((s) => s.MessageId!).sort();
    const { maxReceiveCount } = workers.find((w) => w.queue === 'order-events')!;

    // Each receive fails; the queue's 60-second visibility timeout is made to pass at once until
    // SQS gives up on both (maxReceiveCount receives each).
    const deadLettered = await waitFor(
      async () => {
        await sqsControl('ExpireVisibility', { QueueUrl: queueUrl('order-events'), BodyContains: marker });
        return heldIds(deadLetterQueueUrl('order-events'), marker);
      },
      (found) => found.length === 2,
      60_000,
    );
    expect(deadLettered).toEqual(ids);
    expect(maxReceiveCount).toBeGreaterThan(1);

    const status = await ops('status', '--no-counters', '--json');
    expect(status.stderr).toContain('(local stack)');
    expect(status.code).toBe(1);
    const report = JSON.parse(status.stdout) as StatusReport & { problems: string[] };
    const row = orderEventsRow(report);
    expect(row.deadLetterQueue?.name).toBe('order-events-dlq');
    const before = held(row.deadLetterQueue!.depth);
    expect(before).toBeGreaterThanOrEqual(2);
    expect(report.workerErrors['order-events']).toEqual({
      at: expect.any(String),
      messageId: expect.toBeOneOf(ids),
      message: expect.stringMatching(/^storing an order event failed: .*size/i),
    });
    expect(report.problems).toContainEqual(expect.stringContaining(`order-events-dlq holds ${before} messages`));
    expect(report.counterDifferences).toBeNull();
    // The stack's stream poller keeps up with the table.
    expect(report.outbox.lagSeconds).toBeLessThan(60);

    const table = await ops('status', '--no-counters');
    expect(table.code).toBe(1);
    expect(table.stdout).toMatch(new RegExp(`^order-events\\s+\\d+\\s+\\d+\\s+\\d+\\s+${before}$`, 'm'));
    expect(table.stdout).toContain('storing an order event failed');
    expect(table.stdout).toContain(`npm run ops -- redrive order-events`);

    const redrive = await ops('redrive', 'order-events');
    expect(redrive.stderr).toBe('');
    expect(redrive.code).toBe(0);
    expect(redrive.stdout).toContain(`Moved ${before} messages from order-events-dlq back to order-events.`);
    expect(await heldIds(deadLetterQueueUrl('order-events'), marker)).toEqual([]);
    expect(await heldIds(queueUrl('order-events'), marker)).toEqual(ids);

    const again = await ops('redrive', 'order-events');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('order-events-dlq holds no messages: nothing moved.');
    expect(await heldIds(queueUrl('order-events'), marker)).toEqual(ids);
  }, 120_000);

  it('refuses a queue it does not know, naming those it does', async () => {
    const deployment = localDeployment(sqsClient());

    const refusal = redriveQueue(deployment, 'order-event');

    await expect(refusal).rejects.toBeInstanceOf(OpsError);
    await expect(refusal).rejects.toThrow(
      `No queue named "order-event". Queues: ${workers.map((w) => w.queue).join(', ')}`,
    );
  });

  it("reads every worker queue's depth and dead-letter queue, and how far behind the stream poller is", async () => {
    const report = await collectStatus(localDeployment(sqsClient()), { counters: false });

    expect(report.queues.map((q) => [q.name, q.deadLetterQueue?.name])).toEqual(
      workers.map((w) => [w.queue, `${w.queue}-dlq`]),
    );
    expect(report.outbox.readers).toEqual([
      { name: 'stream poller', summary: expect.stringMatching(/^caught up [\d.]+ s ago; [\d,]+ records read/) },
    ]);
    expect(report.outbox.lagSeconds).toBeLessThan(60);
  });
});

describe('rebuild-insights on the command line', () => {
  it("rebuilds a range's hours from the event log, and refuses a date it cannot read", async () => {
    // A range no test writes events in: nothing to count, nothing stored, nothing written.
    const rebuilt = await ops('rebuild-insights', '--from', '2042-01-01T00:00:00Z', '--to', '2042-01-01T03:00:00Z');
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.stdout).toContain('Insights rebuilt from 0 events: 0 hours written, 0 removed.');

    const refused = await ops('rebuild-insights', '--from', 'last week');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('rebuild-insights [--from <date>] [--to <date>]');
  }, 60_000);
});
