import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { WorkerDefinition } from '../src/workers';

/**
 * SQS on one machine: queues with batches, visibility timeouts, retries, partial batch failures
 * and a dead-letter queue after maxReceiveCount receives, feeding the same SQS-event handlers
 * Lambda runs. It also answers the two SQS API calls our publisher makes (SendMessage,
 * SendMessageBatch, JSON protocol), so code sends with the real AWS SDK locally too.
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
}

const SENT_MESSAGES_KEPT = 5000;

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

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

  constructor(
    private readonly options: {
      workers: readonly WorkerDefinition[];
      loadHandler: (worker: WorkerDefinition) => Promise<SqsHandler>;
      onError?: (error: unknown, worker: WorkerDefinition) => void;
      /** Told of each message moved to a dead-letter queue; by default a line on stderr. */
      onDeadLetter?: (alarm: DeadLetterAlarm) => void;
      pollIntervalMs?: number;
    },
  ) {
    for (const worker of options.workers) {
      this.queues.set(worker.queue, { name: worker.queue, messages: [], deadLetters: [], worker, inFlight: 0 });
    }
  }

  queueUrl(name: string, port: number) {
    return `http://127.0.0.1:${port}/000000000000/${name}`;
  }

  /** `delaySeconds` as SQS's DelaySeconds: the message is received no sooner (0 to 900). */
  send(queueName: string, body: string, delaySeconds = 0) {
    const queue = this.queues.get(queueName);
    if (!queue) throw new Error(`No local queue named ${queueName}`);
    const message: QueuedMessage = {
      messageId: randomUUID(),
      receiptHandle: randomUUID(),
      body,
      sentAt: Date.now(),
      receiveCount: 0,
      visibleAt: Date.now() + Math.min(900, Math.max(0, delaySeconds)) * 1000,
    };
    queue.messages.push(message);
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
    return this;
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

  private tick() {
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
      deadLetterQueue: `${queue.name}-dlq`,
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
    try {
      queue.handler ??= await this.options.loadHandler(worker);
      const result = await queue.handler({ Records: batch.map((m) => toRecord(queue.name, m)) });
      const failed = new Set((result?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
      // Succeeded messages are deleted; failed ones stay invisible until their timeout, then retry.
      queue.messages = queue.messages.filter((m) => !batch.includes(m) || failed.has(m.messageId));
    } catch (error) {
      // A thrown handler fails the whole batch: every message comes back after its visibility timeout.
      this.options.onError?.(error, worker);
    } finally {
      for (const message of batch) message.handling = false;
      queue.inFlight -= 1;
    }
  }

  /** Serves SendMessage and SendMessageBatch for the AWS SDK's SQS client (JSON protocol). */
  listen(port: number) {
    this.server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk) => {
        raw += chunk;
      });
      req.on('end', () => {
        const reply = (status: number, body: unknown) => {
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
          if (action.startsWith('Local.')) return reply(...this.control(action, input, queueName));
          if (!queueName || !this.queues.has(queueName)) {
            return reply(400, {
              __type: 'com.amazonaws.sqs#QueueDoesNotExist',
              message: 'The specified queue does not exist.',
            });
          }
          const failing = this.failingSends;
          if (
            (action === 'SendMessage' || action === 'SendMessageBatch') &&
            failing.count > 0 &&
            (!failing.queue || failing.queue === queueName) &&
            (!failing.bodyContains || raw.includes(failing.bodyContains))
          ) {
            failing.count -= 1;
            this.injectedSendFailures += 1;
            return reply(500, { __type: 'com.amazonaws.sqs#InternalError', message: 'Injected failure' });
          }
          if (action === 'SendMessage') {
            const message = this.send(queueName!, input.MessageBody, input.DelaySeconds);
            return reply(200, { MessageId: message.messageId, MD5OfMessageBody: md5(input.MessageBody) });
          }
          if (action === 'SendMessageBatch') {
            const entries = input.Entries as { Id: string; MessageBody: string; DelaySeconds?: number }[];
            return reply(200, {
              Successful: entries.map((entry) => ({
                Id: entry.Id,
                MessageId: this.send(queueName!, entry.MessageBody, entry.DelaySeconds).messageId,
                MD5OfMessageBody: md5(entry.MessageBody),
              })),
              Failed: [],
            });
          }
          return reply(400, {
            __type: 'com.amazonaws.sqs#UnsupportedOperation',
            message: `${action} is not served locally`,
          });
        } catch (error) {
          return reply(500, { __type: 'InternalFailure', message: String(error) });
        }
      });
    });
    return new Promise<void>((resolve) => this.server?.listen(port, '127.0.0.1', resolve));
  }

  /**
   * Local.FailNextSends {Count, QueueUrl?, BodyContains?}: the next Count sends (to that queue, of
   * messages holding that text) fail. The SDK retries a failed send twice itself: it takes three
   * failures in a row before the sender sees one.
   * Local.ExpireVisibility {QueueUrl, BodyContains?}: that queue's waiting messages (holding that
   * text) are visible again now.
   * Local.Redrive {QueueUrl, BodyContains?}: that queue's dead letters (holding that text) go back to it.
   * Local.Sent {QueueUrl?, BodyContains?}: the messages sent lately (to that queue, holding that text).
   * Local.Status: the injected failures so far and left, and every dead-letter alarm raised.
   */
  private control(action: string, input: Record<string, unknown>, queueName: string | undefined): [number, unknown] {
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
    return [400, { __type: 'com.amazonaws.sqs#UnsupportedOperation', message: `${action} is not a local control` }];
  }

  async stop() {
    clearInterval(this.timer);
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
