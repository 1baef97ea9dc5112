import type { QueueName } from '@marketplace/events/order-events';
import type { Grant } from '@marketplace/services/routes';
import type { WorkerDefinition } from '@marketplace/services/workers';
import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { type IQueue, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { grantAccess, type ServiceResources, serviceEnvironment } from './service-access';
import { serviceFunction } from './service-function';
import { photosBucketName } from './storage-stack';

/** What each worker may touch; the worker table says how it consumes, this says what it does. */
export const workerGrants: Record<QueueName, readonly Grant[]> = {
  // Appends each event to the order's activity log with a conditional put.
  'order-events': ['table:write'],
  // Reads the order's photos and writes the zip and its status.
  'zip-builds': ['table:read', 'table:write', 'photos:read', 'photos:write'],
};

export interface WorkersStackProps extends StackProps {
  table: ITable;
  workers: readonly WorkerDefinition[];
  firebaseProjectId: string;
}

const pascalCase = (name: string) =>
  name
    .split('-')
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');

/** One queue, dead-letter queue and consuming function per entry of the worker table. */
export class WorkersStack extends Stack {
  readonly queues = new Map<QueueName, IQueue>();

  constructor(scope: Construct, id: string, props: WorkersStackProps) {
    super(scope, id, props);

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
      new CfnOutput(this, `${name}DeadLetterQueueName`, { value: deadLetterQueue.queueName });
      // A message in a dead-letter queue is work that failed every retry: someone must look.
      deadLetterQueue
        .metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5) })
        .createAlarm(this, `${name}DeadLetterAlarm`, {
          alarmDescription: `Messages of the ${worker.queue} queue failed ${worker.maxReceiveCount} times and wait in its dead-letter queue`,
          threshold: 1,
          evaluationPeriods: 1,
          comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          treatMissingData: TreatMissingData.NOT_BREACHING,
        });
      return { worker, name, queue };
    });

    // Queues first, functions second: a worker may publish to another worker's queue.
    const resources: ServiceResources = {
      table: props.table,
      photosBucket: Bucket.fromBucketName(this, 'PhotosBucket', photosBucketName()),
      queues: this.queues,
      firebaseProjectId: props.firebaseProjectId,
    };
    for (const { worker, name, queue } of queued) {
      const grants = workerGrants[worker.queue];
      const consumer = serviceFunction(this, `${name}Worker`, {
        module: `workers/${worker.handler}`,
        description: `Consumes the ${worker.queue} queue`,
        timeoutSeconds: worker.timeoutSeconds,
        memoryMb: worker.memoryMb,
        environment: serviceEnvironment(this, grants, resources),
      });
      grantAccess(consumer, grants, resources);
      consumer.addEventSource(
        new SqsEventSource(queue, { batchSize: worker.batchSize, reportBatchItemFailures: true }),
      );
    }
  }
}
