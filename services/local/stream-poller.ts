import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { QueueName } from '@marketplace/events/order-events';
import { type PipeDefinition, pipeMatches } from '../src/pipes';

/**
 * DynamoDB Streams + EventBridge Pipes on one machine: reads DynamoDB Local's own stream of the
 * table, applies the pipe table's filters and sends each matching record, as the stream record
 * JSON a Pipe sends, to its queue with the real SQS client. A record is checkpointed only after
 * its queue accepted it, so a failed send is retried and nothing is lost; dev keeps the
 * checkpoint on disk so a restart neither loses nor floods events.
 */
interface ShardState {
  iterator?: string;
  closed: boolean;
}

export interface StreamPollerOptions {
  dynamodbEndpoint: string;
  sqsEndpoint: string;
  region: string;
  tableName: string;
  pipes: readonly PipeDefinition[];
  queueUrls: Record<string, string>;
  /** Where the last delivered sequence number of each shard is kept (dev); in memory when absent. */
  checkpointFile?: string;
  intervalMs?: number;
  onError?: (error: unknown) => void;
}

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

/** Records read from a shard at a time; a read that returns fewer has reached the shard's end. */
const READ_LIMIT = 100;

/** How far behind the table the poller is, for `npm run ops -- status` (Local.StreamStatus). */
export interface StreamPollerStatus {
  /**
   * Seconds since the poller last read every shard to its end: every record written before then
   * has been delivered, so no record waits longer than this.
   */
  lagSeconds: number;
  caughtUpAt: string | null;
  /** The table's time of the newest record read (ApproximateCreationDateTime). */
  lastRecordCreatedAt: string | null;
  recordsRead: number;
  lastError: { at: string; message: string } | null;
}

export class LocalStreamPoller {
  private readonly streams: DynamoDBStreamsClient;
  private readonly sqs: SQSClient;
  private readonly shards = new Map<string, ShardState>();
  private checkpoints: Record<string, string> = {};
  private streamArn: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private stopped = false;
  /** Set when a whole pass found nothing new and sent nothing: what drain() waits for. */
  private quietPasses = 0;
  private readonly startedAt = Date.now();
  private caughtUpAt: number | undefined;
  private lastRecordCreatedAt: Date | undefined;
  private recordsRead = 0;
  private lastError: { at: string; message: string } | undefined;

  constructor(private readonly options: StreamPollerOptions) {
    const endpoint = options.dynamodbEndpoint;
    this.streams = new DynamoDBStreamsClient({ region: options.region, endpoint, credentials });
    this.sqs = new SQSClient({ region: options.region, endpoint: options.sqsEndpoint, credentials });
    if (options.checkpointFile && existsSync(options.checkpointFile)) {
      this.checkpoints = JSON.parse(readFileSync(options.checkpointFile, 'utf8'));
    }
  }

  async start() {
    const dynamo = new DynamoDBClient({
      region: this.options.region,
      endpoint: this.options.dynamodbEndpoint,
      credentials,
    });
    const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: this.options.tableName }));
    dynamo.destroy();
    this.streamArn = Table?.LatestStreamArn;
    if (!this.streamArn) throw new Error(`The table ${this.options.tableName} has no stream`);
    const tick = () => {
      if (this.stopped) return;
      this.polling = this.pollOnce()
        .catch((error) => {
          this.lastError = { at: new Date().toISOString(), message: (error as Error)?.message ?? String(error) };
          this.options.onError?.(error);
        })
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(tick, this.options.intervalMs ?? 100);
        });
    };
    tick();
    return this;
  }

  /** Resolves once a full pass over every shard found nothing left to deliver. */
  async drain(timeoutMs = 30_000) {
    const deadline = Date.now() + timeoutMs;
    const start = this.quietPasses;
    while (this.quietPasses < start + 2) {
      if (Date.now() > deadline) throw new Error('the stream poller did not drain in time');
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  status(): StreamPollerStatus {
    const since = this.caughtUpAt ?? this.startedAt;
    return {
      lagSeconds: Math.max(0, (Date.now() - since) / 1000),
      caughtUpAt: this.caughtUpAt ? new Date(this.caughtUpAt).toISOString() : null,
      lastRecordCreatedAt: this.lastRecordCreatedAt?.toISOString() ?? null,
      recordsRead: this.recordsRead,
      lastError: this.lastError ?? null,
    };
  }

  async stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.polling?.catch(() => {});
    this.streams.destroy();
    this.sqs.destroy();
  }

  private async pollOnce() {
    const passStartedAt = Date.now();
    await this.discoverShards();
    let delivered = 0;
    let readToTheEnd = true;
    for (const [shardId, state] of this.shards) {
      if (state.closed || !state.iterator) continue;
      const { Records = [], NextShardIterator } = await this.streams.send(
        new GetRecordsCommand({ ShardIterator: state.iterator, Limit: READ_LIMIT }),
      );
      // Deliver before moving the iterator on: if a send fails, the same records are read again.
      await this.deliver(Records);
      delivered += Records.length;
      if (Records.length >= READ_LIMIT) readToTheEnd = false;
      const lastRecord = Records.at(-1)?.dynamodb;
      if (lastRecord?.ApproximateCreationDateTime) this.lastRecordCreatedAt = lastRecord.ApproximateCreationDateTime;
      const last = lastRecord?.SequenceNumber;
      if (last) this.checkpoint(shardId, last);
      state.iterator = NextShardIterator;
      if (!NextShardIterator) state.closed = true;
    }
    this.recordsRead += delivered;
    if (readToTheEnd) this.caughtUpAt = passStartedAt;
    this.quietPasses = delivered === 0 ? this.quietPasses + 1 : this.quietPasses;
  }

  private async discoverShards() {
    const { StreamDescription } = await this.streams.send(new DescribeStreamCommand({ StreamArn: this.streamArn }));
    for (const shard of StreamDescription?.Shards ?? []) {
      const shardId = shard.ShardId!;
      if (this.shards.has(shardId)) continue;
      const after = this.checkpoints[shardId];
      const { ShardIterator } = await this.streams.send(
        new GetShardIteratorCommand({
          StreamArn: this.streamArn,
          ShardId: shardId,
          ...(after
            ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: after }
            : { ShardIteratorType: 'TRIM_HORIZON' }),
        }),
      );
      this.shards.set(shardId, { iterator: ShardIterator, closed: !ShardIterator });
    }
  }

  private async deliver(records: StreamRecord[]) {
    for (const pipe of this.options.pipes) {
      const matching = records.filter((r) => pipeMatches(pipe, r as Parameters<typeof pipeMatches>[1]));
      for (let start = 0; start < matching.length; start += 10) {
        await this.send(pipe.target, matching.slice(start, start + 10));
      }
    }
  }

  private async send(queue: QueueName, records: StreamRecord[]) {
    const queueUrl = this.options.queueUrls[queue];
    if (!queueUrl) throw new Error(`No local queue ${queue} for the pipe`);
    const result = await this.sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: records.map((record, i) => ({ Id: String(i), MessageBody: JSON.stringify(record) })),
      }),
    );
    if (result.Failed?.length) throw new Error(`${result.Failed.length} stream record(s) not accepted by ${queue}`);
  }

  private checkpoint(shardId: string, sequenceNumber: string) {
    this.checkpoints[shardId] = sequenceNumber;
    if (this.options.checkpointFile) writeFileSync(this.options.checkpointFile, JSON.stringify(this.checkpoints));
  }
}
