import { GetQueueUrlCommand, QueueDoesNotExist, type SQSClient } from '@aws-sdk/client-sqs';
import { config } from '../config';
import { workers } from '../workers';
import type { QueueLocation } from './queues';
import { OpsError } from './roles';
import type { WorkerError } from './worker-errors';

/**
 * What the status and redrive commands need to know about where they run. The queues are read
 * through the SQS API in both places (queues.ts); only finding them, the workers' errors and the
 * outbox's delivery differ: the local stack answers these itself, the cloud has CloudFormation,
 * CloudWatch Logs and CloudWatch metrics (aws-deployment.ts).
 */
export interface Deployment {
  /** Said on the command's first line. */
  description: string;
  sqs: SQSClient;
  queues(): Promise<QueueLocation[]>;
  /** Each worker's newest error, by queue name; a worker with none is absent. */
  workerErrors(): Promise<Record<string, WorkerError>>;
  outbox(): Promise<OutboxDelivery>;
}

/** How the outbox's records get from the table's stream to the queues. */
export interface OutboxDelivery {
  /**
   * At most this many seconds pass between a change and its delivery to the queues; null where
   * the platform does not say (EventBridge Pipes publish no iterator age).
   */
  lagSeconds: number | null;
  /** Deliveries that failed in the window the readers describe. */
  failures: number;
  /** One line for each reader of the stream: the local poller, or each pipe. */
  readers: { name: string; summary: string }[];
}

interface LocalStreamStatus {
  lagSeconds: number;
  caughtUpAt: string | null;
  lastRecordCreatedAt: string | null;
  recordsRead: number;
  lastError: { at: string; message: string } | null;
}

const seconds = (value: number) => (value < 10 ? value.toFixed(1) : Math.round(value).toLocaleString('en-US'));

/** The queue runner of `npm run dev` (or of the tests' stack): SQS calls and its Local.* controls. */
export const localDeployment = (sqs: SQSClient): Deployment => {
  const endpoint = config().SQS_ENDPOINT;
  if (!endpoint) throw new OpsError('No SQS_ENDPOINT: the local stack sets it (start `npm run dev`)');
  const notRunning = () => new OpsError(`Nothing answers at ${endpoint}: start the local stack with \`npm run dev\``);
  const control = async <T>(action: string): Promise<T> => {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'x-amz-target': `Local.${action}`, 'content-type': 'application/x-amz-json-1.0' },
      body: '{}',
    }).catch(() => {
      throw notRunning();
    });
    if (!response.ok) throw new Error(`Local.${action}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  return {
    description: 'local stack',
    sqs,
    queues: async () => {
      try {
        return await Promise.all(
          workers.map(async (worker): Promise<QueueLocation> => {
            try {
              const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: worker.queue }));
              return { name: worker.queue, kind: 'worker', url: QueueUrl! };
            } catch (error) {
              if (!(error instanceof QueueDoesNotExist)) throw error;
              return {
                name: worker.queue,
                kind: 'worker',
                missing: 'the running stack started before it was added: restart `npm run dev`',
              };
            }
          }),
        );
      } catch (error) {
        if ((error as { code?: string })?.code === 'ECONNREFUSED' || (error as Error)?.name === 'TimeoutError') {
          throw notRunning();
        }
        throw error;
      }
    },
    workerErrors: async () =>
      (await control<{ WorkerErrors: Record<string, WorkerError> }>('WorkerErrors')).WorkerErrors,
    outbox: async () => {
      const stream = await control<LocalStreamStatus>('StreamStatus');
      const caughtUp = stream.caughtUpAt ? `caught up ${seconds(stream.lagSeconds)} s ago` : 'not caught up yet';
      const failed = stream.lastError ? `; last failed ${stream.lastError.at}: ${stream.lastError.message}` : '';
      return {
        lagSeconds: stream.lagSeconds,
        failures: 0,
        readers: [
          {
            name: 'stream poller',
            summary: `${caughtUp}; ${stream.recordsRead.toLocaleString('en-US')} records read${failed}`,
          },
        ],
      };
    },
  };
};
