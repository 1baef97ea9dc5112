import { checkCounters } from './check-counters';
import type { Deployment, OutboxDelivery } from './deployment';
import { describeQueue, held, type QueueState, type RedriveResult, redriveDeadLetters } from './queues';
import { OpsError } from './roles';
import type { WorkerError } from './worker-errors';

/**
 * `npm run ops -- status` and `npm run ops -- redrive <queue>`: the operator's view of the
 * queues, the workers and the outbox, the same code locally and in the cloud (deployment.ts).
 */
export interface StatusReport {
  where: string;
  checkedAt: string;
  queues: QueueState[];
  workerErrors: Record<string, WorkerError>;
  outbox: OutboxDelivery;
  /** Counters whose stored value differs from their count; null when the check was skipped. */
  counterDifferences: number | null;
}

/** The outbox may fall this far behind before status reports it (the alarm's threshold too). */
export const DEFAULT_MAX_LAG_SECONDS = 60;

export const collectStatus = async (
  deployment: Deployment,
  { counters = true }: { counters?: boolean } = {},
): Promise<StatusReport> => {
  const locations = await deployment.queues();
  const [queues, workerErrors, outbox, differences] = await Promise.all([
    Promise.all(locations.map((location) => describeQueue(deployment.sqs, location))),
    deployment.workerErrors(),
    deployment.outbox(),
    counters ? checkCounters() : null,
  ]);
  return {
    where: deployment.description,
    checkedAt: new Date().toISOString(),
    queues,
    workerErrors,
    outbox,
    counterDifferences: differences ? differences.length : null,
  };
};

const queueLabel = (queue: Pick<QueueState, 'name' | 'kind'>) =>
  queue.kind === 'pipe' ? `${queue.name} (pipe)` : queue.name;

/** What needs someone: each is a reason for exit code 1. */
export const problemsOf = (
  report: StatusReport,
  { maxLagSeconds = DEFAULT_MAX_LAG_SECONDS }: { maxLagSeconds?: number } = {},
) => {
  const problems: string[] = [];
  for (const queue of report.queues) {
    if (queue.missing) problems.push(`${queueLabel(queue)} was not found: ${queue.missing}`);
    const deadLetterQueue = queue.deadLetterQueue;
    const count = deadLetterQueue ? held(deadLetterQueue.depth) : 0;
    if (!deadLetterQueue || count === 0) continue;
    problems.push(
      queue.kind === 'pipe'
        ? `${deadLetterQueue.name} holds ${count} failed batch${count === 1 ? '' : 'es'} of the ${queue.name} pipe: see "A pipe's dead-letter queue" in docs/operations.md`
        : `${deadLetterQueue.name} holds ${count} message${count === 1 ? '' : 's'}: find the cause (the last error above), fix it, then \`npm run ops -- redrive ${queue.name}\``,
    );
  }
  const { lagSeconds, failures } = report.outbox;
  if (lagSeconds !== null && lagSeconds > maxLagSeconds) {
    problems.push(
      `the outbox is ${Math.round(lagSeconds)} s behind the table (more than ${maxLagSeconds} s): order events reach the workers late`,
    );
  }
  if (failures > 0) problems.push(`the outbox's delivery failed ${failures} time${failures === 1 ? '' : 's'} lately`);
  if (report.counterDifferences) {
    problems.push(
      `${report.counterDifferences} counter${report.counterDifferences === 1 ? '' : 's'} differ from their items: \`npm run ops -- check-counters\` lists them`,
    );
  }
  return problems;
};

const table = (rows: string[][], rightAligned: ReadonlySet<number>) => {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) =>
    row
      .map((cell, column) => (rightAligned.has(column) ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd(),
  );
};

const count = (value: number | undefined) => (value === undefined ? '-' : value.toLocaleString('en-US'));

export const formatStatus = (report: StatusReport, problems: readonly string[]) => {
  const lines: string[] = [];
  const rows = [
    ['Queue', 'waiting', 'in flight', 'delayed', 'dead letters'],
    ...report.queues.map((q) => [
      queueLabel(q),
      count(q.queue?.depth.visible),
      count(q.queue?.depth.inFlight),
      count(q.queue?.depth.delayed),
      count(q.deadLetterQueue ? held(q.deadLetterQueue.depth) : undefined),
    ]),
  ];
  lines.push(...table(rows, new Set([1, 2, 3, 4])), '');

  lines.push('Outbox (the table stream to the queues)');
  for (const reader of report.outbox.readers) lines.push(`  ${reader.name}: ${reader.summary}`);
  lines.push('');

  lines.push('Last error of each worker');
  const errors = Object.entries(report.workerErrors).sort(([, a], [, b]) => b.at.localeCompare(a.at));
  if (!errors.length) lines.push('  none');
  for (const [queue, error] of errors) {
    lines.push(`  ${queue}  ${error.at}${error.messageId ? `  message ${error.messageId}` : ''}`);
    lines.push(`    ${error.message}`);
  }
  lines.push('');

  lines.push(
    report.counterDifferences === null
      ? 'Counters: not checked (--no-counters)'
      : report.counterDifferences === 0
        ? 'Counters: every counter matches its items'
        : `Counters: ${report.counterDifferences} differ from their items`,
    '',
  );

  if (!problems.length) lines.push('No problems found.');
  else lines.push(`${problems.length} problem${problems.length === 1 ? '' : 's'}:`, ...problems.map((p) => `  - ${p}`));
  return lines.join('\n');
};

/**
 * Moves every dead letter of a worker queue back to it. Refuses a name that is no worker queue
 * with the list of those that are, and a pipe's dead-letter queue, whose messages describe stream
 * batches rather than being messages a worker could take.
 */
export const redriveQueue = async (deployment: Deployment, name: string, options?: { pollMs?: number }) => {
  const locations = await deployment.queues();
  const location = locations.find((l) => l.kind === 'worker' && l.name === name);
  if (!location) {
    const names = locations.filter((l) => l.kind === 'worker').map((l) => l.name);
    if (locations.some((l) => l.kind === 'pipe' && l.name === name)) {
      throw new OpsError(
        `${name} is a pipe: its dead-letter queue holds descriptions of stream batches that could not be sent, not messages to deliver again (see "A pipe's dead-letter queue" in docs/operations.md). Queues: ${names.join(', ')}`,
      );
    }
    throw new OpsError(`No queue named "${name}". Queues: ${names.join(', ')}`);
  }
  return redriveDeadLetters(deployment.sqs, await describeQueue(deployment.sqs, location), options);
};

export const formatRedrive = (result: RedriveResult) => {
  const messages = `${result.moved} message${result.moved === 1 ? '' : 's'}`;
  if (result.joinedEarlierMove)
    return `A move started earlier from ${result.from} to ${result.to} ended: ${messages} moved.`;
  if (result.moved === 0) return `${result.from} holds no messages: nothing moved.`;
  return `Moved ${messages} from ${result.from} back to ${result.to}.`;
};
