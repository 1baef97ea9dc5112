import { describe, expect, it } from 'vitest';
import { formatRedrive, formatStatus, problemsOf, type StatusReport } from './status';

const depth = (visible = 0, inFlight = 0, delayed = 0) => ({ visible, inFlight, delayed });

const report = (changes: Partial<StatusReport> = {}): StatusReport => ({
  where: 'local stack',
  checkedAt: '2026-11-25T10:00:00.000Z',
  queues: [
    {
      name: 'order-events',
      kind: 'worker',
      queue: { url: 'http://q/order-events', arn: 'arn:order-events', depth: depth(3, 2, 1) },
      deadLetterQueue: { name: 'order-events-dlq', url: 'http://q/order-events-dlq', arn: 'arn:dlq', depth: depth() },
    },
    {
      name: 'order-zips',
      kind: 'pipe',
      queue: null,
      deadLetterQueue: { name: 'order-zips-pipe-dlq', url: 'http://q/p', arn: 'arn:p', depth: depth() },
    },
  ],
  workerErrors: {},
  outbox: { lagSeconds: 0.1, failures: 0, readers: [{ name: 'stream poller', summary: 'caught up 0.1 s ago' }] },
  counterDifferences: 0,
  ...changes,
});

const withDeadLetters = (queue: number, pipe: number) => {
  const base = report();
  base.queues[0]!.deadLetterQueue!.depth = depth(queue - 1, 1);
  base.queues[1]!.deadLetterQueue!.depth = depth(pipe);
  return base;
};

describe('the status report', () => {
  it('finds nothing wrong when no queue holds dead letters, the outbox keeps up and the counters match', () => {
    const clear = report();

    expect(problemsOf(clear)).toEqual([]);
    expect(formatStatus(clear, [])).toContain('No problems found.');
  });

  it('names each dead-letter queue that holds messages, and what to do about it', () => {
    expect(problemsOf(withDeadLetters(2, 1))).toEqual([
      'order-events-dlq holds 2 messages: find the cause (the last error above), fix it, then `npm run ops -- redrive order-events`',
      `order-zips-pipe-dlq holds 1 failed batch of the order-zips pipe: see "A pipe's dead-letter queue" in docs/operations.md`,
    ]);
  });

  it('reports a queue that was not found', () => {
    const missing = report();
    missing.queues[0] = {
      name: 'insights',
      kind: 'worker',
      queue: null,
      deadLetterQueue: null,
      missing: 'the running stack started before it was added: restart `npm run dev`',
    };

    expect(problemsOf(missing)).toEqual([
      'insights was not found: the running stack started before it was added: restart `npm run dev`',
    ]);
    expect(formatStatus(missing, [])).toMatch(/^insights\s+-\s+-\s+-\s+-$/m);
  });

  it('reports an outbox behind by more than the limit, failed deliveries and counters that differ', () => {
    const late = report({
      outbox: { lagSeconds: 95, failures: 2, readers: [] },
      counterDifferences: 3,
    });

    expect(problemsOf(late)).toEqual([
      'the outbox is 95 s behind the table (more than 60 s): order events reach the workers late',
      "the outbox's delivery failed 2 times lately",
      '3 counters differ from their items: `npm run ops -- check-counters` lists them',
    ]);
    expect(problemsOf(late, { maxLagSeconds: 120 })).not.toContainEqual(expect.stringContaining('behind'));
    // A platform that gives no lag (Pipes) is judged by its failures alone.
    expect(problemsOf(report({ outbox: { lagSeconds: null, failures: 0, readers: [] } }))).toEqual([]);
  });

  it('prints one row a queue, the outbox, the newest errors first and the problems', () => {
    const text = formatStatus(
      {
        ...withDeadLetters(2, 0),
        workerErrors: {
          'zip-builds': { at: '2026-11-25T09:00:00.000Z', message: 'zip not built: NoSuchKey' },
          'order-events': {
            at: '2026-11-25T09:59:00.000Z',
            messageId: 'm-1',
            message: 'storing an order event failed',
          },
        },
        counterDifferences: null,
      },
      ['order-events-dlq holds 2 messages'],
    );

    expect(text.split('\n')).toEqual([
      'Queue              waiting  in flight  delayed  dead letters',
      'order-events             3          2        1             2',
      'order-zips (pipe)        -          -        -             0',
      '',
      'Outbox (the table stream to the queues)',
      '  stream poller: caught up 0.1 s ago',
      '',
      'Last error of each worker',
      '  order-events  2026-11-25T09:59:00.000Z  message m-1',
      '    storing an order event failed',
      '  zip-builds  2026-11-25T09:00:00.000Z',
      '    zip not built: NoSuchKey',
      '',
      'Counters: not checked (--no-counters)',
      '',
      '1 problem:',
      '  - order-events-dlq holds 2 messages',
    ]);
  });

  it('says how many messages a redrive moved, or that there was nothing to move', () => {
    const result = { from: 'order-events-dlq', to: 'order-events', joinedEarlierMove: false };

    expect(formatRedrive({ ...result, moved: 2 })).toBe('Moved 2 messages from order-events-dlq back to order-events.');
    expect(formatRedrive({ ...result, moved: 0 })).toBe('order-events-dlq holds no messages: nothing moved.');
    expect(formatRedrive({ ...result, moved: 1, joinedEarlierMove: true })).toBe(
      'A move started earlier from order-events-dlq to order-events ended: 1 message moved.',
    );
  });
});
