import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { QueueAttributeName } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { describeLoggedError, type WorkerError } from '../src/ops/worker-errors';
import type { WorkerDefinition } from '../src/workers';

/**
 * SQS on one machine: queues with batches, visibility timeouts, retries, partial batch failures
 * and a dead-letter queue after maxReceiveCount receives, feeding the same SQS-event handlers
 * Lambda runs. It answers the SQS API calls our code makes (JSON protocol) with SQS's shapes and
 * errors: the publisher's SendMessage and SendMessageBatch, and the ops commands' GetQueueUrl,
 * ListQueues, GetQueueAttributes, StartMessageMoveTask and ListMessageMoveTasks, so code uses the
 * real AWS SDK locally too. Each queue's dead-letter queue is a queue of its own, `<queue>-dlq`.
 */
type SqsHandler = (event: SQSEvent) => Promise<SQSBatchResponse | undefined>;

interface QueuedMessage {
  messageId: string;
  receiptHandle: string;
  body: string;
  sentAt: number;
  receiveCount: number;
  firstReceivedAt?: number;
  visibleAt: number;
  /** Being handled right now: its visibility timeout is running, and nothing may shorten it. */
  handling?: boolean;
}

/** A dead-letter queue redrive, as SQS's ListMessageMoveTasks reports it. */
interface MessageMoveTask {
  taskHandle: string;
  sourceArn: string;
  destinationArn?: string;
  status: 'RUNNING' | 'COMPLETED' | 'FAILED';
  moved: number;
  toMove: number;
  startedAt: number;
}

/**
 * What the cloud's alarm on a dead-letter queue reports (infra: one CloudWatch alarm per
 * dead-letter queue, at one visible message): raised here the moment a message lands there.
 */
export interface DeadLetterAlarm {
  queue: string;
  deadLetterQueue: string;
  messageId: string;
  receiveCount: number;
  maxReceiveCount: number;
  body: string;
  raisedAt: string;
}

interface Queue {
  name: string;
  messages: QueuedMessage[];
  deadLetters: QueuedMessage[];
  worker?: WorkerDefinition;
  handler?: SqsHandler;
  inFlight: number;
  /** The newest failure of its worker: what the worker's log group shows in the cloud. */
  lastError?: WorkerError;
  /** Redrives of its dead-letter queue, newest first. */
  moveTasks: MessageMoveTask[];
}

const SENT_MESSAGES_KEPT = 5000;
const REGION = 'us-east-1';
const ACCOUNT = '000000000000';
/** What the CDK app gives every dead-letter queue; SQS's defaults otherwise. */
const DEAD_LETTER_RETENTION_SECONDS = 14 * 24 * 3600;
const RETENTION_SECONDS = 4 * 24 * 3600;
const DEAD_LETTER_VISIBILITY_TIMEOUT_SECONDS = 30;

export const deadLetterQueueName = (queue: string) => `${queue}-dlq`;
export const localQueueArn = (name: string) => `arn:aws:sqs:${REGION}:${ACCOUNT}:${name}`;

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

type Answer = [status: number, body: unknown];

const sqsError = (status: number, type: string, message: string): Answer => [
  status,
  { __type: `com.amazonaws.sqs#${type}`, message },
];
const noSuchQueue = () => sqsError(400, 'QueueDoesNotExist', 'The specified queue does not exist.');
const noSuchArn = (parameter: string) =>
  sqsError(
    400,
    'ResourceNotFoundException',
    `The resource that you specified for the ${parameter} parameter does not exist.`,
  );
const notADeadLetterQueue = () =>
  sqsError(400, 'UnsupportedOperation', 'Source queue must be configured as a Dead Letter Queue.');

/** A queue of the runner, or the dead-letter queue of one. */
interface LocatedQueue {
  queue: Queue;
  deadLetter: boolean;
  name: string;
}

/** What a batch being handled has logged, so a failure is told with the worker's own words. */
interface Delivery {
  queue: Queue;
  loggedFailures: Set<string>;
}

export class LocalQueueRunner {
  private readonly queues = new Map<string, Queue>();
  private timer: NodeJS.Timeout | undefined;
  private server: http.Server | undefined;
  private readonly idleWaiters: (() => void)[] = [];
  /**
   * Fault injection for tests: the next N sends (to one queue, or to any) are refused, as a
   * throttled or failing SQS would.
   */
  private failingSends: { count: number; queue?: string; bodyContains?: string } = { count: 0 };
  private injectedSendFailures = 0;
  private readonly alarms: DeadLetterAlarm[] = [];
  /** The latest messages sent, for tests to count what reached a queue (duplicates included). */
  private readonly sent: { queue: string; messageId: string; body: string; sentAt: number }[] = [];
  /** The batch being handled, in its handler's async context: whose log line is whose. */
  private readonly deliveries = new AsyncLocalStorage<Delivery>();
  private restoreStderr: (() => void) | undefined;
  private port = 0;
  /** While paused, messages wait in their queues, as behind a disabled event source mapping. */
  private deliveriesPaused = false;

  constructor(
    private readonly options: {
      workers: readonly WorkerDefinition[];
      loadHandler: (worker: WorkerDefinition) => Promise<SqsHandler>;
      onError?: (error: unknown, worker: WorkerDefinition) => void;
      /** Told of each message moved to a dead-letter queue; by default a line on stderr. */
      onDeadLetter?: (alarm: DeadLetterAlarm) => void;
      pollIntervalMs?: number;
      /**
       * Keep each worker's newest error from the ERROR lines its handler logs (stderr, where the
       * Powertools logger writes them), as each Lambda's log group holds its own in the cloud.
       */
      captureErrorLogs?: boolean;
      /** The stream poller's status, served as `Local.StreamStatus` to the ops commands' process. */
      streamStatus?: () => unknown;
    },
  ) {
    for (const worker of options.workers) {
      this.queues.set(worker.queue, {
        name: worker.queue,
        messages: [],
        deadLetters: [],
        worker,
        inFlight: 0,
        moveTasks: [],
      });
    }
  }

  queueUrl(name: string, port: number) {
    return `http://127.0.0.1:${port}/${ACCOUNT}/${name}`;
  }

  /** A worker queue or a dead-letter queue (`<queue>-dlq`) by name. */
  private locate(name: string | undefined): LocatedQueue | undefined {
    if (!name) return undefined;
    const queue = this.queues.get(name);
    if (queue) return { queue, deadLetter: false, name };
    const owner = this.queues.get(name.replace(/-dlq$/, ''));
    return owner && name === deadLetterQueueName(owner.name) ? { queue: owner, deadLetter: true, name } : undefined;
  }

  private locateArn(arn: unknown) {
    const prefix = `arn:aws:sqs:${REGION}:${ACCOUNT}:`;
    return typeof arn === 'string' && arn.startsWith(prefix) ? this.locate(arn.slice(prefix.length)) : undefined;
  }

  /**
   * `delaySeconds` as SQS's DelaySeconds: the message is received no sooner (0 to 900). A
   * dead-letter queue's name sends to it, as SQS allows.
   */
  send(queueName: string, body: string, delaySeconds = 0) {
    const located = this.locate(queueName);
    if (!located) throw new Error(`No local queue named ${queueName}`);
    const message: QueuedMessage = {
      messageId: randomUUID(),
      receiptHandle: randomUUID(),
      body,
      sentAt: Date.now(),
      receiveCount: 0,
      visibleAt: Date.now() + Math.min(900, Math.max(0, delaySeconds)) * 1000,
    };
    (located.deadLetter ? located.queue.deadLetters : located.queue.messages).push(message);
    this.sent.push({ queue: queueName, messageId: message.messageId, body, sentAt: message.sentAt });
    if (this.sent.length > SENT_MESSAGES_KEPT) this.sent.shift();
    return message;
  }

  depth(queueName: string) {
    const queue = this.queues.get(queueName);
    return { messages: queue?.messages.length ?? 0, deadLetters: queue?.deadLetters.length ?? 0 };
  }

  deadLetters(queueName: string) {
    return [...(this.queues.get(queueName)?.deadLetters ?? [])];
  }

  /** Each worker's newest error (time, message id, what it logged), by queue. */
  workerErrors() {
    return Object.fromEntries(
      [...this.queues.values()].filter((q) => q.lastError).map((q) => [q.name, { ...q.lastError }]),
    ) as Record<string, WorkerError>;
  }

  /** Every dead-letter alarm raised so far, oldest first. */
  deadLetterAlarms() {
    return [...this.alarms];
  }

  /**
   * Makes the messages of a queue that wait out a visibility timeout visible now, as if that time
   * had passed (tests cannot wait the zip queue's 16 minutes). Messages being handled keep theirs.
   */
  expireVisibility(queueName: string, bodyContains = '') {
    const now = Date.now();
    const waiting = (this.queues.get(queueName)?.messages ?? []).filter(
      (m) => m.visibleAt > now && !m.handling && m.body.includes(bodyContains),
    );
    for (const message of waiting) message.visibleAt = now;
    return waiting.length;
  }

  /**
   * Moves a queue's dead letters (holding that text) back to it with their receives reset, as an
   * SQS dead-letter queue redrive does once the cause of the failures is fixed.
   */
  redrive(queueName: string, bodyContains = '') {
    const queue = this.queues.get(queueName);
    const moved = (queue?.deadLetters ?? []).filter((m) => m.body.includes(bodyContains));
    for (const message of moved) {
      queue!.deadLetters.splice(queue!.deadLetters.indexOf(message), 1);
      Object.assign(message, { receiveCount: 0, firstReceivedAt: undefined, visibleAt: Date.now() });
      queue!.messages.push(message);
    }
    return moved.length;
  }

  start() {
    this.timer = setInterval(() => this.tick(), this.options.pollIntervalMs ?? 100);
    if (this.options.captureErrorLogs) this.captureErrorLogs();
    return this;
  }

  /**
   * Every worker runs in this one process, so their log lines share one stderr; the batch being
   * handled (its async context) says whose line it is. Lines pass through unchanged.
   */
  private captureErrorLogs() {
    const stderr = process.stderr;
    const write = stderr.write;
    stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const delivery = this.deliveries.getStore();
      if (delivery) this.noteLoggedError(delivery, String(chunk));
      return (write as (...args: unknown[]) => boolean).call(stderr, chunk, ...rest);
    }) as typeof stderr.write;
    this.restoreStderr = () => {
      stderr.write = write;
    };
  }

  private noteLoggedError(delivery: Delivery, text: string) {
    for (const line of text.split('\n')) {
      if (!line.startsWith('{')) continue;
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line);
      } catch {
        continue;
      }
      if (entry.level !== 'ERROR' && entry.level !== 'CRITICAL') continue;
      const messageId = typeof entry.messageId === 'string' ? entry.messageId : undefined;
      if (messageId) delivery.loggedFailures.add(messageId);
      delivery.queue.lastError = {
        at: typeof entry.timestamp === 'string' ? entry.timestamp : new Date().toISOString(),
        ...(messageId ? { messageId } : {}),
        message: describeLoggedError(entry),
      };
    }
  }

  /** Resolves once every queue is empty and no batch is running (tests wait on this). */
  whenIdle(timeoutMs = 30_000) {
    if (this.isIdle()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('queues did not drain in time')), timeoutMs);
      this.idleWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private isIdle() {
    return [...this.queues.values()].every((q) => q.messages.length === 0 && q.inFlight === 0);
  }

  /**
   * Holds every worker's messages in their queues until the returned function is called, as
   * disabling the event source mappings would: a benchmark times the request path alone, without
   * the workers it sets off sharing this machine's cores (in the cloud they run on their own).
   */
  pauseDeliveries() {
    this.deliveriesPaused = true;
    return () => {
      this.deliveriesPaused = false;
    };
  }

  private tick() {
    if (this.deliveriesPaused) return;
    const now = Date.now();
    for (const queue of this.queues.values()) {
      const worker = queue.worker;
      if (!worker) continue;
      // Like SQS with an event source mapping: a message received more than maxReceiveCount times
      // goes to the dead-letter queue instead of to the handler.
      for (const message of queue.messages.filter(
        (m) => m.visibleAt <= now && m.receiveCount >= worker.maxReceiveCount,
      )) {
        queue.messages.splice(queue.messages.indexOf(message), 1);
        queue.deadLetters.push(message);
        this.raiseDeadLetterAlarm(queue, worker, message);
      }
      const batch = queue.messages.filter((m) => m.visibleAt <= now).slice(0, worker.batchSize);
      if (batch.length > 0) void this.deliver(queue, worker, batch);
    }
    if (this.isIdle()) for (const wake of this.idleWaiters.splice(0)) wake();
  }

  private raiseDeadLetterAlarm(queue: Queue, worker: WorkerDefinition, message: QueuedMessage) {
    const alarm: DeadLetterAlarm = {
      queue: queue.name,
      deadLetterQueue: deadLetterQueueName(queue.name),
      messageId: message.messageId,
      receiveCount: message.receiveCount,
      maxReceiveCount: worker.maxReceiveCount,
      body: message.body,
      raisedAt: new Date().toISOString(),
    };
    this.alarms.push(alarm);
    const report =
      this.options.onDeadLetter ??
      ((a: DeadLetterAlarm) =>
        console.error(
          `ALARM: message ${a.messageId} of the ${a.queue} queue moved to ${a.deadLetterQueue} after ${a.receiveCount} receives (maxReceiveCount ${a.maxReceiveCount})`,
        ));
    report(alarm);
  }

  private async deliver(queue: Queue, worker: WorkerDefinition, batch: QueuedMessage[]) {
    const now = Date.now();
    for (const message of batch) {
      message.receiveCount += 1;
      message.firstReceivedAt ??= now;
      message.visibleAt = now + worker.visibilityTimeoutSeconds * 1000;
      message.receiptHandle = randomUUID();
      message.handling = true;
    }
    queue.inFlight += 1;
    const delivery: Delivery = { queue, loggedFailures: new Set() };
    try {
      queue.handler ??= await this.options.loadHandler(worker);
      const handler = queue.handler;
      const records = batch.map((m) => toRecord(queue.name, m));
      const result = await this.deliveries.run(delivery, () => handler({ Records: records }));
      const failed = new Set((result?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
      // Succeeded messages are deleted; failed ones stay invisible until their timeout, then retry.
      queue.messages = queue.messages.filter((m) => !batch.includes(m) || failed.has(m.messageId));
      const untold = [...failed].filter((id) => !delivery.loggedFailures.has(id));
      if (untold.length) {
        queue.lastError = {
          at: new Date().toISOString(),
          messageId: untold.at(-1)!,
          message: 'reported as failed by the worker, which logged no error for it',
        };
      }
    } catch (error) {
      // A thrown handler fails the whole batch: every message comes back after its visibility timeout.
      queue.lastError = {
        at: new Date().toISOString(),
        messageId: batch.at(-1)!.messageId,
        message: `the batch of ${batch.length} failed: ${(error as Error)?.message ?? error}`,
      };
      this.options.onError?.(error, worker);
    } finally {
      for (const message of batch) message.handling = false;
      queue.inFlight -= 1;
    }
  }

  /** The SQS API for the AWS SDK's SQS client (JSON protocol), plus the local controls below. */
  listen(port: number) {
    this.server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk) => {
        raw += chunk;
      });
      req.on('end', () => {
        const reply = ([status, body]: Answer) => {
          res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' });
          res.end(JSON.stringify(body));
        };
        try {
          const action = String(req.headers['x-amz-target'] ?? '').replace('AmazonSQS.', '');
          const input = JSON.parse(raw || '{}');
          const queueName = String(input.QueueUrl ?? '')
            .split('/')
            .pop();
          // Not SQS actions: local controls for tests (faults, the passing of time, the alarms raised).
          if (action.startsWith('Local.')) return reply(this.control(action, input, queueName));
          return reply(this.answer(action, input, queueName, raw));
        } catch (error) {
          return reply([500, { __type: 'InternalFailure', message: String(error) }]);
        }
      });
    });
    return new Promise<void>((resolve) =>
      this.server?.listen(port, '127.0.0.1', () => {
        this.port = (this.server?.address() as AddressInfo).port;
        resolve();
      }),
    );
  }

  private answer(action: string, input: Record<string, unknown>, queueName: string | undefined, raw: string): Answer {
    if (action === 'GetQueueUrl') {
      const located = this.locate(String(input.QueueName ?? ''));
      return located ? [200, { QueueUrl: this.queueUrl(located.name, this.port) }] : noSuchQueue();
    }
    if (action === 'ListQueues') {
      const prefix = String(input.QueueNamePrefix ?? '');
      const names = [...this.queues.keys()].flatMap((name) => [name, deadLetterQueueName(name)]);
      const urls = names
        .filter((name) => name.startsWith(prefix))
        .sort()
        .map((name) => this.queueUrl(name, this.port));
      return [200, urls.length ? { QueueUrls: urls } : {}];
    }
    if (action === 'StartMessageMoveTask') return this.startMessageMoveTask(input);
    if (action === 'ListMessageMoveTasks') return this.listMessageMoveTasks(input);

    const located = this.locate(queueName);
    if (!located) return noSuchQueue();
    if (action === 'GetQueueAttributes') return this.queueAttributes(located, input.AttributeNames);
    const failing = this.failingSends;
    if (
      (action === 'SendMessage' || action === 'SendMessageBatch') &&
      failing.count > 0 &&
      (!failing.queue || failing.queue === located.name) &&
      (!failing.bodyContains || raw.includes(failing.bodyContains))
    ) {
      failing.count -= 1;
      this.injectedSendFailures += 1;
      return [500, { __type: 'com.amazonaws.sqs#InternalError', message: 'Injected failure' }];
    }
    if (action === 'SendMessage') {
      const body = String(input.MessageBody);
      const message = this.send(located.name, body, Number(input.DelaySeconds ?? 0));
      return [200, { MessageId: message.messageId, MD5OfMessageBody: md5(body) }];
    }
    if (action === 'SendMessageBatch') {
      const entries = input.Entries as { Id: string; MessageBody: string; DelaySeconds?: number }[];
      return [
        200,
        {
          Successful: entries.map((entry) => ({
            Id: entry.Id,
            MessageId: this.send(located.name, entry.MessageBody, entry.DelaySeconds).messageId,
            MD5OfMessageBody: md5(entry.MessageBody),
          })),
          Failed: [],
        },
      ];
    }
    return sqsError(400, 'UnsupportedOperation', `${action} is not served locally`);
  }

  /** SQS's counts: visible now, received and not yet deleted, and waiting out a DelaySeconds. */
  private counts(messages: readonly QueuedMessage[]) {
    const now = Date.now();
    const waiting = (m: QueuedMessage) => m.handling || m.visibleAt > now;
    return {
      visible: messages.filter((m) => !waiting(m)).length,
      inFlight: messages.filter((m) => waiting(m) && m.receiveCount > 0).length,
      delayed: messages.filter((m) => waiting(m) && m.receiveCount === 0).length,
    };
  }

  private queueAttributes({ queue, deadLetter, name }: LocatedQueue, requested: unknown): Answer {
    const names = Array.isArray(requested) ? requested.map(String) : [];
    const known = new Set<string>(Object.values(QueueAttributeName));
    const unknown = names.find((n) => !known.has(n));
    if (unknown) return sqsError(400, 'InvalidAttributeName', `Unknown Attribute ${unknown}.`);
    const counts = this.counts(deadLetter ? queue.deadLetters : queue.messages);
    const worker = queue.worker;
    const all: Record<string, string> = {
      QueueArn: localQueueArn(name),
      ApproximateNumberOfMessages: String(counts.visible),
      ApproximateNumberOfMessagesNotVisible: String(counts.inFlight),
      ApproximateNumberOfMessagesDelayed: String(counts.delayed),
      VisibilityTimeout: String(
        deadLetter || !worker ? DEAD_LETTER_VISIBILITY_TIMEOUT_SECONDS : worker.visibilityTimeoutSeconds,
      ),
      MessageRetentionPeriod: String(deadLetter ? DEAD_LETTER_RETENTION_SECONDS : RETENTION_SECONDS),
      DelaySeconds: '0',
      SqsManagedSseEnabled: 'true',
    };
    if (!deadLetter && worker) {
      all.RedrivePolicy = JSON.stringify({
        deadLetterTargetArn: localQueueArn(deadLetterQueueName(queue.name)),
        maxReceiveCount: worker.maxReceiveCount,
      });
    }
    // As SQS: only the attributes asked for (or All), and only those the queue has.
    const wanted = names.includes('All') ? Object.keys(all) : names.filter((n) => n in all);
    return [200, wanted.length ? { Attributes: Object.fromEntries(wanted.map((n) => [n, all[n]])) } : {}];
  }

  /**
   * SQS's dead-letter queue redrive: every message the dead-letter queue holds goes back to the
   * queue it came from (or DestinationArn), its receives reset. SQS moves them in the background;
   * here the task is done before the answer, and ListMessageMoveTasks reports it completed.
   */
  private startMessageMoveTask(input: Record<string, unknown>): Answer {
    const source = this.locateArn(input.SourceArn);
    if (!source) return noSuchArn('SourceArn');
    if (!source.deadLetter) return notADeadLetterQueue();
    const destination = input.DestinationArn === undefined ? source : this.locateArn(input.DestinationArn);
    if (!destination) return noSuchArn('DestinationArn');
    const tasks = source.queue.moveTasks;
    if (tasks.some((t) => t.status === 'RUNNING')) {
      return sqsError(
        400,
        'UnsupportedOperation',
        'There is already a task running. Only one active task is allowed for a source queue ARN at a given time.',
      );
    }
    const now = Date.now();
    const moving = source.queue.deadLetters.filter((m) => m.visibleAt <= now);
    for (const message of moving) {
      source.queue.deadLetters.splice(source.queue.deadLetters.indexOf(message), 1);
      Object.assign(message, { receiveCount: 0, firstReceivedAt: undefined, visibleAt: now });
      (destination.deadLetter ? destination.queue.deadLetters : destination.queue.messages).push(message);
    }
    const task: MessageMoveTask = {
      taskHandle: randomUUID(),
      sourceArn: localQueueArn(source.name),
      ...(input.DestinationArn === undefined ? {} : { destinationArn: localQueueArn(destination.name) }),
      status: 'COMPLETED',
      moved: moving.length,
      toMove: moving.length,
      startedAt: now,
    };
    tasks.unshift(task);
    return [200, { TaskHandle: task.taskHandle }];
  }

  private listMessageMoveTasks(input: Record<string, unknown>): Answer {
    const source = this.locateArn(input.SourceArn);
    if (!source) return noSuchArn('SourceArn');
    if (!source.deadLetter) return notADeadLetterQueue();
    const maxResults = Math.min(10, Math.max(1, Number(input.MaxResults ?? 1)));
    return [
      200,
      {
        Results: source.queue.moveTasks.slice(0, maxResults).map((task) => ({
          ...(task.status === 'RUNNING' ? { TaskHandle: task.taskHandle } : {}),
          Status: task.status,
          SourceArn: task.sourceArn,
          ...(task.destinationArn ? { DestinationArn: task.destinationArn } : {}),
          ApproximateNumberOfMessagesMoved: task.moved,
          ApproximateNumberOfMessagesToMove: task.toMove,
          StartedTimestamp: task.startedAt,
        })),
      },
    ];
  }

  /**
   * Local.FailNextSends {Count, QueueUrl?, BodyContains?}: the next Count sends (to that queue, of
   * messages holding that text) fail. A sender retries a failed send twice itself
   * (aws-requests.ts, as the SDK does): it takes three failures in a row before the sender sees one.
   * Local.ExpireVisibility {QueueUrl, BodyContains?}: that queue's waiting messages (holding that
   * text) are visible again now.
   * Local.Redrive {QueueUrl, BodyContains?}: that queue's dead letters (holding that text) go back to it.
   * Local.Sent {QueueUrl?, BodyContains?}: the messages sent lately (to that queue, holding that text).
   * Local.Messages {QueueUrl, BodyContains?}: the messages that queue (or dead-letter queue) holds now.
   * Local.Status: the injected failures so far and left, and every dead-letter alarm raised.
   * Local.WorkerErrors: each worker's newest error, by queue (the ops status command reads it).
   * Local.StreamStatus: the stream poller's status, when the stack gave one (the ops status command reads it).
   */
  private control(action: string, input: Record<string, unknown>, queueName: string | undefined): Answer {
    const known = queueName !== undefined && this.queues.has(queueName);
    if (action === 'Local.FailNextSends') {
      if (input.QueueUrl !== undefined && !known) return [400, { message: `No local queue named ${queueName}` }];
      this.failingSends = {
        count: Number(input.Count ?? 1),
        ...(input.QueueUrl ? { queue: queueName } : {}),
        ...(input.BodyContains ? { bodyContains: String(input.BodyContains) } : {}),
      };
      return [200, { FailingSends: this.failingSends.count }];
    }
    if (action === 'Local.ExpireVisibility') {
      if (!known) return [400, { message: `No local queue named ${queueName}` }];
      return [200, { Released: this.expireVisibility(queueName, String(input.BodyContains ?? '')) }];
    }
    if (action === 'Local.Redrive') {
      if (!known) return [400, { message: `No local queue named ${queueName}` }];
      return [200, { Moved: this.redrive(queueName, String(input.BodyContains ?? '')) }];
    }
    if (action === 'Local.Sent') {
      const text = String(input.BodyContains ?? '');
      const messages = this.sent.filter((m) => (!input.QueueUrl || m.queue === queueName) && m.body.includes(text));
      return [200, { Messages: messages }];
    }
    if (action === 'Local.Messages') {
      const located = this.locate(queueName);
      if (!located) return [400, { message: `No local queue named ${queueName}` }];
      const text = String(input.BodyContains ?? '');
      const held = located.deadLetter ? located.queue.deadLetters : located.queue.messages;
      return [
        200,
        {
          Messages: held
            .filter((m) => m.body.includes(text))
            .map((m) => ({ MessageId: m.messageId, ReceiveCount: m.receiveCount })),
        },
      ];
    }
    if (action === 'Local.Status') {
      return [
        200,
        {
          FailingSends: this.failingSends.count,
          InjectedSendFailures: this.injectedSendFailures,
          DeadLetterAlarms: this.deadLetterAlarms(),
        },
      ];
    }
    if (action === 'Local.WorkerErrors') return [200, { WorkerErrors: this.workerErrors() }];
    if (action === 'Local.StreamStatus') {
      const status = this.options.streamStatus?.();
      return status ? [200, status] : [400, { message: 'No stream poller runs beside this queue runner' }];
    }
    return sqsError(400, 'UnsupportedOperation', `${action} is not a local control`);
  }

  async stop() {
    clearInterval(this.timer);
    this.restoreStderr?.();
    this.restoreStderr = undefined;
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

const toRecord = (queueName: string, m: QueuedMessage): SQSRecord => ({
  messageId: m.messageId,
  receiptHandle: m.receiptHandle,
  body: m.body,
  attributes: {
    ApproximateReceiveCount: String(m.receiveCount),
    SentTimestamp: String(m.sentAt),
    SenderId: 'local',
    ApproximateFirstReceiveTimestamp: String(m.firstReceivedAt ?? Date.now()),
  },
  messageAttributes: {},
  md5OfBody: md5(m.body),
  eventSource: 'aws:sqs',
  eventSourceARN: `arn:aws:sqs:us-east-1:000000000000:${queueName}`,
  awsRegion: 'us-east-1',
});
