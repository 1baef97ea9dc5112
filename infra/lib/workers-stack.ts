import type { QueueName } from '@marketplace/events/order-events';
import { type PipeDefinition, pipeFilterPattern } from '@marketplace/services/pipes';
import type { Grant } from '@marketplace/services/routes';
import type { ScheduleDefinition, WorkerDefinition } from '@marketplace/services/workers';
import { Annotations, Aws, CfnOutput, Duration, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { CfnPipe } from 'aws-cdk-lib/aws-pipes';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { type IQueue, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import {
  type EmailSettings,
  grantAccess,
  type LiveEndpoint,
  type ServiceResources,
  serviceEnvironment,
} from './service-access';
import { serviceFunction } from './service-function';
import { photosBucketName } from './storage-stack';

/** What each worker may touch; the worker table says how it consumes, this says what it does. */
export const workerGrants: Record<QueueName, readonly Grant[]> = {
  // Appends each order event to the order's activity log with a conditional put, then forwards it
  // (and each user event) to the queues that consume it.
  'order-events': [
    'table:write',
    'queue:thumbnails',
    'queue:notifications',
    'queue:identity',
    'queue:renditions',
    'queue:live-updates',
    'queue:insights',
    'queue:receipts',
  ],
  // Reads the order's photos and writes the zip and its status, then says the zip is ready.
  'zip-builds': ['table:read', 'table:write', 'photos:read', 'photos:write', 'queue:live-updates'],
  // Reads an uploaded file, writes its thumbnail and preview, records them on the image, says so.
  thumbnails: ['table:read', 'table:write', 'photos:read', 'photos:write', 'queue:live-updates'],
  // Reads the order and its people, marks each email sent (once per event), sends it.
  // Signs each switchable email's unsubscribe link with the unsubscribe key.
  notifications: ['table:read', 'table:write', 'email:send', 'unsubscribe:key'],
  // Reads the user's standing, sets sign-in at Firebase with the service account, marks it applied.
  identity: ['table:read', 'table:write', 'identity:admin'],
  // Reads the order, its edited files and their MLS-ready copies, writes the copies and their
  // records, and asks the zip worker for the MLS zip once the set is complete; a run out of time
  // hands the rest to a new message of its own queue.
  renditions: [
    'table:read',
    'table:write',
    'photos:read',
    'photos:write',
    'queue:zip-builds',
    'queue:renditions',
    'queue:live-updates',
  ],
  // Reads the order (who may see it) and the connections of those who may, posts to each, and
  // deletes the connections API Gateway says are gone; a busy second's pool news waits in a
  // delayed message of its own queue.
  'live-updates': ['table:read', 'table:write', 'live:post', 'queue:live-updates'],
  // Reads and adds to the hour's rollups, each event once (its idempotency mark in the same transaction).
  insights: ['table:read', 'table:write'],
  // Reads the billing entry (and the order's refunds), puts the PDF under receipts/, names it on the entry.
  receipts: ['table:read', 'table:write', 'receipts:write'],
  // Reads the order and its round, refunds the credit with the Stripe key, records it with its entry and event.
  'late-credits': ['table:read', 'table:write', 'stripe'],
  // Reads the account's records by its own keys, signs links to its photos, streams the zip under
  // exports/ (and reads it back for its size), records it ready and emails the link.
  'account-exports': ['table:read', 'table:write', 'photos:read', 'exports:read', 'exports:write', 'email:send'],
};

/** What each scheduled worker may touch. */
export const scheduleGrants: Record<string, readonly Grant[]> = {
  // Reads the release queue and the editors' accounts, leases and records each earning with its
  // outbox event, and sends the transfers with the Stripe key.
  'release-earnings': ['table:read', 'table:write', 'stripe'],
  // Reads the due purges, lists and deletes a deleted account's pictures (profiles/) and data
  // downloads (exports/), detaches its saved cards with the Stripe key, clears its personal fields.
  'purge-deleted-accounts': ['table:read', 'table:write', 'photos:read', 'photos:write', 'exports:write', 'stripe'],
};

/**
 * How each pipe reads the table's stream. TRIM_HORIZON: a new pipe starts from the oldest record
 * the stream still holds (24 hours), so outbox records written while it was being created are
 * delivered, not skipped; the consumers are idempotent, so a replay is harmless.
 */
export const pipeStreamReading = {
  startingPosition: 'TRIM_HORIZON',
  batchSize: 10,
  // Sending to SQS fails only while SQS or IAM is failing; past this the batch goes to the pipe's dead-letter queue.
  maximumRetryAttempts: 10,
} as const;

/** DynamoDB Streams throttles a shard read by more than two consumers at once. */
export const maxStreamReaders = 2;

export interface WorkersStackProps extends StackProps {
  /** The table, with its stream enabled when there are pipes. */
  table: ITable;
  workers: readonly WorkerDefinition[];
  /** Outbox records from the table's stream to the worker queues. */
  pipes: readonly PipeDefinition[];
  firebaseProjectId: string;
  /** A Firebase service account key, for the workers granted 'identity:admin' (the identity worker). */
  firebaseAdminSecret?: ISecret;
  /** For the workers granted 'email:send' (the notification worker). */
  email?: Partial<EmailSettings>;
  /** The WebSocket API's stage, for the workers granted 'live:post' (the push worker). */
  live?: LiveEndpoint;
  /** Workers run on a schedule (an EventBridge rule each), not fed by a queue. */
  schedules?: readonly ScheduleDefinition[];
  /** The Stripe keys, for the workers granted 'stripe' (the release of earnings). */
  stripeSecret?: ISecret;
  /** The unsubscribe links' signing key, for the workers granted 'unsubscribe:key' (the notification worker). */
  unsubscribeKeySecret?: ISecret;
}

const pascalCase = (name: string) =>
  name
    .split('-')
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');

/** A pipe as deployed, for the monitoring stack: its name in CloudWatch's metrics and its dead-letter queue. */
export interface DeployedPipe {
  definition: PipeDefinition;
  /** The pipe's name (CloudFormation makes it), the PipeName dimension of its metrics. */
  pipeName: string;
  deadLetterQueue: IQueue;
}

/**
 * One queue, dead-letter queue and consuming function per entry of the worker table, and one
 * EventBridge Pipe per entry of the pipe table: this stack holds both the table's stream and the queues.
 * Their alarms live in the monitoring stack, which reads these through `queues`, `deadLetterQueues` and `pipes`.
 */
export class WorkersStack extends Stack {
  readonly queues = new Map<QueueName, IQueue>();
  readonly deadLetterQueues = new Map<QueueName, IQueue>();
  readonly pipes: DeployedPipe[] = [];

  constructor(scope: Construct, id: string, props: WorkersStackProps) {
    super(scope, id, props);
    if (props.pipes.length > maxStreamReaders) {
      throw new Error(
        `${props.pipes.length} pipes would read the table's stream, which serves at most ${maxStreamReaders}: let a third consumer read a queue`,
      );
    }

    const queued = props.workers.map((worker) => {
      const name = pascalCase(worker.queue);
      if (worker.visibilityTimeoutSeconds < worker.timeoutSeconds) {
        // Lambda refuses such a mapping at deploy time; a message would reappear while still being handled.
        throw new Error(`The ${worker.queue} queue's visibility timeout is shorter than its worker's timeout`);
      }
      const deadLetterQueue = new Queue(this, `${name}DeadLetterQueue`, {
        retentionPeriod: Duration.days(14),
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      });
      const queue = new Queue(this, `${name}Queue`, {
        visibilityTimeout: Duration.seconds(worker.visibilityTimeoutSeconds),
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: worker.maxReceiveCount },
      });
      this.queues.set(worker.queue, queue);
      this.deadLetterQueues.set(worker.queue, deadLetterQueue);
      new CfnOutput(this, `${name}DeadLetterQueueName`, { value: deadLetterQueue.queueName });
      return { worker, name, queue };
    });

    const { mailFrom, siteUrl } = props.email ?? {};
    if (props.workers.some((w) => workerGrants[w.queue].includes('email:send')) && !(mailFrom && siteUrl)) {
      Annotations.of(this).addWarningV2(
        'marketplace:email-not-configured',
        'Notification emails need -c mailFrom=<an SES-verified sender> and -c siteUrl=<the SiteUrl output> before deploying.',
      );
    }

    // Queues first, functions second: a worker may publish to another worker's queue.
    const resources: ServiceResources = {
      table: props.table,
      photosBucket: Bucket.fromBucketName(this, 'PhotosBucket', photosBucketName()),
      queues: this.queues,
      firebaseProjectId: props.firebaseProjectId,
      ...(props.firebaseAdminSecret ? { firebaseAdminSecret: props.firebaseAdminSecret } : {}),
      ...(mailFrom && siteUrl ? { email: { mailFrom, siteUrl } } : {}),
      ...(props.live ? { live: props.live } : {}),
      ...(props.stripeSecret ? { stripeSecret: props.stripeSecret } : {}),
      ...(props.unsubscribeKeySecret ? { unsubscribeKeySecret: props.unsubscribeKeySecret } : {}),
    };
    for (const { worker, name, queue } of queued) {
      const grants = workerGrants[worker.queue];
      const consumer = serviceFunction(this, `${name}Worker`, {
        module: `workers/${worker.handler}`,
        description: `Consumes the ${worker.queue} queue`,
        timeoutSeconds: worker.timeoutSeconds,
        memoryMb: worker.memoryMb,
        environment: serviceEnvironment(this, grants, resources),
        nativeModules: worker.nativeModules,
        keepArrowFunctions: worker.keepArrowFunctions,
      });
      grantAccess(consumer, grants, resources);
      consumer.addEventSource(
        new SqsEventSource(queue, { batchSize: worker.batchSize, reportBatchItemFailures: true }),
      );
    }

    for (const schedule of props.schedules ?? []) this.addSchedule(schedule, resources);

    for (const pipe of props.pipes) this.addPipe(pipe, props.table);
  }

  /** A scheduled worker: its function, with exactly its grants, invoked by an EventBridge rule at its rate. */
  private addSchedule(schedule: ScheduleDefinition, resources: ServiceResources) {
    const grants = scheduleGrants[schedule.name];
    if (!grants) throw new Error(`The ${schedule.name} schedule has no grants in scheduleGrants`);
    const name = pascalCase(schedule.name);
    const worker = serviceFunction(this, `${name}Schedule`, {
      module: `workers/${schedule.handler}`,
      description: `Runs the ${schedule.name} schedule`,
      timeoutSeconds: schedule.timeoutSeconds,
      memoryMb: schedule.memoryMb,
      environment: serviceEnvironment(this, grants, resources),
    });
    grantAccess(worker, grants, resources);
    new Rule(this, `${name}Rule`, {
      description: `Runs the ${schedule.name} worker every ${schedule.everyMinutes} minutes`,
      schedule: Schedule.rate(Duration.minutes(schedule.everyMinutes)),
      // A failed run is not retried: the next one comes in a few minutes and takes what this one left.
      targets: [new LambdaFunction(worker, { retryAttempts: 0 })],
    });
  }

  /**
   * An EventBridge Pipe from the table's stream to one worker queue, filtered to the pipe's outbox
   * records. No input template: the queue receives the stream record itself, which the workers parse.
   */
  private addPipe(pipe: PipeDefinition, table: ITable) {
    const name = `${pascalCase(pipe.name)}Pipe`;
    const target = this.queues.get(pipe.target);
    if (!target) {
      throw new Error(`The ${pipe.name} pipe targets the "${pipe.target}" queue, which no worker consumes`);
    }
    if (!table.tableStreamArn) throw new Error(`The ${pipe.name} pipe needs the table's stream, which is off`);

    // Batches that failed every retry are reported here; the stream keeps the records for 24 hours.
    const deadLetterQueue = new Queue(this, `${name}DeadLetterQueue`, {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    Validations.of(deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        "It is a dead-letter queue: the pipe's deadLetterConfig, which cdk-nag does not follow, sends failed batches here.",
    });
    new CfnOutput(this, `${name}DeadLetterQueueName`, { value: deadLetterQueue.queueName });

    const role = new Role(this, `${name}Role`, {
      description: `Reads the table's stream and sends ${pipe.name} records to the ${pipe.target} queue`,
      // Only pipes of this account may use the role.
      assumedBy: new ServicePrincipal('pipes.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID } },
      }),
    });
    table.grantStreamRead(role);
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'dynamodb:ListStreams alone, which IAM cannot scope to a resource; the stream reads are scoped to the table stream.',
    });
    target.grantSendMessages(role);
    deadLetterQueue.grantSendMessages(role);

    const pipeResource = new CfnPipe(this, name, {
      description: `Outbox records (${pipe.eventTypes?.join(', ') ?? 'every event'}) to the ${pipe.target} queue`,
      roleArn: role.roleArn,
      source: table.tableStreamArn,
      sourceParameters: {
        dynamoDbStreamParameters: { ...pipeStreamReading, deadLetterConfig: { arn: deadLetterQueue.queueArn } },
        filterCriteria: { filters: [{ pattern: JSON.stringify(pipeFilterPattern(pipe)) }] },
      },
      target: target.queueArn,
    });
    // Pipes checks its role's permissions on creation: the policy must exist first.
    pipeResource.node.addDependency(role);
    // A pipe's Ref is its name.
    this.pipes.push({ definition: pipe, pipeName: pipeResource.ref, deadLetterQueue });
  }
}
