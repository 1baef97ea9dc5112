import {
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  ListMessageMoveTasksCommand,
  type ListMessageMoveTasksResultEntry,
  type QueueAttributeName,
  SQSClient,
  StartMessageMoveTaskCommand,
  UnsupportedOperation,
} from '@aws-sdk/client-sqs';
import { config } from '../config';
import { OpsError } from './roles';

/**
 * The queues as the SQS API reports them, with the same calls locally (the queue runner answers
 * them) and in the cloud: GetQueueAttributes for the depths and the RedrivePolicy that names a
 * queue's dead-letter queue, GetQueueUrl to reach that one, and StartMessageMoveTask, SQS's own
 * dead-letter queue redrive, to move its messages back.
 */

/** Where one of the marketplace's queues is; what a deployment (local or AWS) knows. */
export interface QueueLocation {
  /** The worker table's queue name, or the pipe table's pipe name for a pipe's dead-letter queue. */
  name: string;
  kind: 'worker' | 'pipe';
  /** A worker queue's URL; its dead-letter queue is found from its RedrivePolicy. */
  url?: string;
  /** A pipe's dead-letter queue (a pipe has no queue of its own, only this one). */
  deadLetterQueueUrl?: string;
  /** Why it was not found (a worker added since the stack was deployed or started). */
  missing?: string;
}

export interface QueueDepth {
  /** Waiting to be received. */
  visible: number;
  /** Received and not yet deleted: being handled, or waiting out a visibility timeout after a failure. */
  inFlight: number;
  /** Sent with a delay that has not passed yet. */
  delayed: number;
}

export interface QueueState {
  name: string;
  kind: 'worker' | 'pipe';
  /** The queue itself (worker queues only). */
  queue: { url: string; arn: string; depth: QueueDepth } | null;
  deadLetterQueue: { name: string; url: string; arn: string; depth: QueueDepth } | null;
  missing?: string;
}

export const sqsClient = () => {
  const { AWS_REGION, SQS_ENDPOINT } = config();
  return new SQSClient({ region: AWS_REGION, ...(SQS_ENDPOINT ? { endpoint: SQS_ENDPOINT } : {}) });
};

export const held = (depth: QueueDepth) => depth.visible + depth.inFlight + depth.delayed;

const DEPTH: QueueAttributeName[] = [
  'ApproximateNumberOfMessages',
  'ApproximateNumberOfMessagesNotVisible',
  'ApproximateNumberOfMessagesDelayed',
];

const attributesOf = async (sqs: SQSClient, url: string, names: QueueAttributeName[]) =>
  (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: names }))).Attributes ?? {};

const depthOf = (attributes: Record<string, string>): QueueDepth => ({
  visible: Number(attributes.ApproximateNumberOfMessages ?? 0),
  inFlight: Number(attributes.ApproximateNumberOfMessagesNotVisible ?? 0),
  delayed: Number(attributes.ApproximateNumberOfMessagesDelayed ?? 0),
});

/** arn:aws:sqs:<region>:<account>:<name> */
const nameOfArn = (arn: string) => {
  const [, , , , account, name] = arn.split(':');
  if (!account || !name) throw new Error(`Not a queue ARN: ${arn}`);
  return { account, name };
};

const nameOfUrl = (url: string) => url.split('/').pop() ?? url;

const describeDeadLetterQueue = async (sqs: SQSClient, url: string) => {
  const attributes = await attributesOf(sqs, url, ['QueueArn', ...DEPTH]);
  return { name: nameOfUrl(url), url, arn: attributes.QueueArn ?? '', depth: depthOf(attributes) };
};

export const describeQueue = async (sqs: SQSClient, location: QueueLocation): Promise<QueueState> => {
  if (!location.url) {
    return {
      name: location.name,
      kind: location.kind,
      ...(location.missing ? { missing: location.missing } : {}),
      queue: null,
      deadLetterQueue: location.deadLetterQueueUrl
        ? await describeDeadLetterQueue(sqs, location.deadLetterQueueUrl)
        : null,
    };
  }
  const attributes = await attributesOf(sqs, location.url, ['QueueArn', 'RedrivePolicy', ...DEPTH]);
  const redrive = attributes.RedrivePolicy
    ? (JSON.parse(attributes.RedrivePolicy) as { deadLetterTargetArn?: string })
    : undefined;
  let deadLetterQueue: QueueState['deadLetterQueue'] = null;
  if (redrive?.deadLetterTargetArn) {
    const { name, account } = nameOfArn(redrive.deadLetterTargetArn);
    const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: name, QueueOwnerAWSAccountId: account }));
    deadLetterQueue = await describeDeadLetterQueue(sqs, QueueUrl!);
  }
  return {
    name: location.name,
    kind: location.kind,
    queue: { url: location.url, arn: attributes.QueueArn ?? '', depth: depthOf(attributes) },
    deadLetterQueue,
  };
};

export interface RedriveResult {
  from: string;
  to: string;
  moved: number;
  /** A redrive someone started before this one was still moving; this one waited for it. */
  joinedEarlierMove: boolean;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Moves every message of the queue's dead-letter queue back to it with SQS's StartMessageMoveTask,
 * and waits until SQS says the move is done. An empty dead-letter queue starts nothing, and a move
 * already running (a second operator, a redrive from the console) is waited for rather than
 * doubled, so running it twice is safe.
 */
export const redriveDeadLetters = async (
  sqs: SQSClient,
  state: QueueState,
  { pollMs = 1000, timeoutMs = 15 * 60_000 }: { pollMs?: number; timeoutMs?: number } = {},
): Promise<RedriveResult> => {
  const queue = state.queue;
  const deadLetterQueue = state.deadLetterQueue;
  if (state.missing) throw new OpsError(`The ${state.name} queue was not found: ${state.missing}`);
  if (!queue || !deadLetterQueue) throw new OpsError(`The ${state.name} queue has no dead-letter queue to redrive`);
  const result = { from: deadLetterQueue.name, to: nameOfUrl(queue.url), joinedEarlierMove: false };
  const latestMove = async () =>
    (await sqs.send(new ListMessageMoveTasksCommand({ SourceArn: deadLetterQueue.arn, MaxResults: 1 }))).Results?.[0];
  const finished = async () => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const task = await latestMove();
      if (task?.Status !== 'RUNNING') return task;
      if (Date.now() > deadline) {
        throw new OpsError(
          `${result.from} is still being moved (${task.ApproximateNumberOfMessagesMoved ?? 0} of ${task.ApproximateNumberOfMessagesToMove ?? '?'} so far); run the command again later to see it end`,
        );
      }
      await pause(pollMs);
    }
  };
  const movedBy = (task: ListMessageMoveTasksResultEntry | undefined) => {
    if (task?.Status === 'FAILED') throw new OpsError(`The move from ${result.from} failed: ${task.FailureReason}`);
    return task?.ApproximateNumberOfMessagesMoved ?? 0;
  };

  if ((await latestMove())?.Status === 'RUNNING') {
    return { ...result, moved: movedBy(await finished()), joinedEarlierMove: true };
  }
  const { depth } = await describeDeadLetterQueue(sqs, deadLetterQueue.url);
  if (held(depth) === 0) return { ...result, moved: 0 };
  try {
    await sqs.send(new StartMessageMoveTaskCommand({ SourceArn: deadLetterQueue.arn, DestinationArn: queue.arn }));
  } catch (error) {
    // Another move started between the check and this one: SQS runs one a queue, so wait for it.
    if (!(error instanceof UnsupportedOperation) || (await latestMove())?.Status !== 'RUNNING') throw error;
    return { ...result, moved: movedBy(await finished()), joinedEarlierMove: true };
  }
  return { ...result, moved: movedBy(await finished()) };
};
