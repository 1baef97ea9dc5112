import { CloudFormationClient, paginateListStackResources } from '@aws-sdk/client-cloudformation';
import { CloudWatchClient, GetMetricDataCommand, type MetricDataQuery } from '@aws-sdk/client-cloudwatch';
import { CloudWatchLogsClient, type FilteredLogEvent, paginateFilterLogEvents } from '@aws-sdk/client-cloudwatch-logs';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { config } from '../config';
import { pipes } from '../pipes';
import { workers } from '../workers';
import type { Deployment, OutboxDelivery } from './deployment';
import type { QueueLocation } from './queues';
import { OpsError } from './roles';
import { describeLoggedError, type WorkerError } from './worker-errors';

/**
 * The deployed marketplace, found through its workers stack: CloudFormation lists the stack's
 * resources with their physical ids (a queue's URL, a log group's name, a pipe's name), which the
 * CDK app lets CloudFormation generate. No handler needs redeploying and nothing is guessed from
 * generated names. The logical ids are the construct ids of infra/lib/workers-stack.ts plus the
 * hash CDK appends (none for a resource made at the stack's top level, such as the pipes).
 */
export const WORKERS_STACK = 'MarketplaceWorkers';

const pascalCase = (name: string) =>
  name
    .split('-')
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');

/** The window the pipes' metrics are summed over. */
const PIPE_WINDOW_MINUTES = 15;
/** Windows searched for a worker's newest error, newest first: a busy log is not read for a whole day. */
const ERROR_WINDOWS_MINUTES = [15, 6 * 60, 24 * 60];
/** Pages of one window read at most (oldest first): a window with more reports the newest of these. */
const MAX_LOG_PAGES = 20;

/** The Powertools logger's errors (JSON), and the runtime's own failures (plain text). */
const ERROR_PATTERNS = ['{ $.level = "ERROR" }', '?"Task timed out" ?"Invoke Error"'];

const errorOf = (event: FilteredLogEvent): WorkerError => {
  const at = new Date(event.timestamp ?? Date.now()).toISOString();
  const text = (event.message ?? '').trim();
  try {
    const entry = JSON.parse(text) as Record<string, unknown>;
    const messageId = typeof entry.messageId === 'string' ? entry.messageId : undefined;
    return { at, ...(messageId ? { messageId } : {}), message: describeLoggedError(entry) };
  } catch {
    return { at, message: text.length > 300 ? `${text.slice(0, 300)}...` : text };
  }
};

export const awsDeployment = (
  sqs: SQSClient,
  {
    stackName = process.env.WORKERS_STACK_NAME ?? WORKERS_STACK,
    region = config().AWS_REGION,
    cloudFormation = new CloudFormationClient({ region }),
    logs = new CloudWatchLogsClient({ region }),
    cloudWatch = new CloudWatchClient({ region }),
  }: {
    stackName?: string;
    region?: string;
    cloudFormation?: CloudFormationClient;
    logs?: CloudWatchLogsClient;
    cloudWatch?: CloudWatchClient;
  } = {},
) => {
  let resources: Promise<Map<string, { type: string; physicalId: string }>> | undefined;
  const stackResources = () => {
    resources ??= (async () => {
      const found = new Map<string, { type: string; physicalId: string }>();
      try {
        for await (const page of paginateListStackResources({ client: cloudFormation }, { StackName: stackName })) {
          for (const r of page.StackResourceSummaries ?? []) {
            if (r.LogicalResourceId && r.PhysicalResourceId && r.ResourceType) {
              found.set(r.LogicalResourceId, { type: r.ResourceType, physicalId: r.PhysicalResourceId });
            }
          }
        }
      } catch (error) {
        if ((error as Error)?.name === 'ValidationError') {
          throw new OpsError(`No stack ${stackName} in ${region} (set WORKERS_STACK_NAME if it has another name)`);
        }
        throw error;
      }
      return found;
    })();
    return resources;
  };

  /** A resource's physical id, or why there is none (code newer than the deployed stack). */
  const physicalId = async (constructId: string, type: string) => {
    const pattern = new RegExp(`^${constructId}(?:[0-9A-F]{8})?$`);
    for (const [logicalId, resource] of await stackResources()) {
      if (resource.type === type && pattern.test(logicalId)) return { id: resource.physicalId };
    }
    return { missing: `the ${stackName} stack has no ${type} ${constructId}: deploy this code's stack` };
  };

  const newestError = async (logGroupName: string) => {
    const now = Date.now();
    let windowEnd = now;
    for (const minutes of ERROR_WINDOWS_MINUTES) {
      const windowStart = now - minutes * 60_000;
      let newest: FilteredLogEvent | undefined;
      for (const filterPattern of ERROR_PATTERNS) {
        let pages = 0;
        const request = { logGroupName, filterPattern, startTime: windowStart, endTime: windowEnd };
        for await (const page of paginateFilterLogEvents({ client: logs }, request)) {
          for (const event of page.events ?? []) {
            if ((event.timestamp ?? 0) >= (newest?.timestamp ?? 0)) newest = event;
          }
          if (++pages >= MAX_LOG_PAGES) break;
        }
      }
      if (newest) return errorOf(newest);
      windowEnd = windowStart;
    }
    return undefined;
  };

  const pipeMetrics = async (pipeNames: string[]) => {
    const metrics = ['EventCount', 'ExecutionFailed', 'ExecutionTimeout', 'ExecutionThrottled'] as const;
    const queries: MetricDataQuery[] = pipeNames.flatMap((pipeName, p) =>
      metrics.map((metric, m) => ({
        Id: `pipe${p}_${m}`,
        MetricStat: {
          Metric: {
            Namespace: 'AWS/EventBridge/Pipes',
            MetricName: metric,
            Dimensions: [{ Name: 'PipeName', Value: pipeName }],
          },
          Period: 60,
          Stat: 'Sum',
        },
      })),
    );
    const end = new Date();
    const start = new Date(end.getTime() - PIPE_WINDOW_MINUTES * 60_000);
    const { MetricDataResults = [] } = await cloudWatch.send(
      new GetMetricDataCommand({ MetricDataQueries: queries, StartTime: start, EndTime: end }),
    );
    const sum = (id: string) =>
      (MetricDataResults.find((r) => r.Id === id)?.Values ?? []).reduce((total, value) => total + value, 0);
    return pipeNames.map((_, p) => {
      const [events, failed, timedOut, throttled] = metrics.map((__, m) => sum(`pipe${p}_${m}`));
      return { events: events!, failed: failed! + timedOut!, throttled: throttled! };
    });
  };

  const deployment: Deployment = {
    description: `AWS stack ${stackName} in ${region}`,
    sqs,
    queues: async () => {
      const workerQueues = await Promise.all(
        workers.map(async (worker): Promise<QueueLocation> => {
          const { id, missing } = await physicalId(`${pascalCase(worker.queue)}Queue`, 'AWS::SQS::Queue');
          return { name: worker.queue, kind: 'worker', ...(id ? { url: id } : { missing }) };
        }),
      );
      const pipeQueues = await Promise.all(
        pipes.map(async (pipe): Promise<QueueLocation> => {
          const { id, missing } = await physicalId(`${pascalCase(pipe.name)}PipeDeadLetterQueue`, 'AWS::SQS::Queue');
          return { name: pipe.name, kind: 'pipe', ...(id ? { deadLetterQueueUrl: id } : { missing }) };
        }),
      );
      return [...workerQueues, ...pipeQueues];
    },
    workerErrors: async () => {
      const found = await Promise.all(
        workers.map(async (worker) => {
          const logGroup = await physicalId(`${pascalCase(worker.queue)}WorkerLogs`, 'AWS::Logs::LogGroup');
          return [worker.queue, logGroup.id ? await newestError(logGroup.id) : undefined] as const;
        }),
      );
      return Object.fromEntries(found.filter(([, error]) => error)) as Record<string, WorkerError>;
    },
    outbox: async (): Promise<OutboxDelivery> => {
      const found = await Promise.all(
        pipes.map(async (pipe) => ({
          pipe,
          ...(await physicalId(`${pascalCase(pipe.name)}Pipe`, 'AWS::Pipes::Pipe')),
        })),
      );
      const deployed = found.filter((f) => f.id);
      const measured = await pipeMetrics(deployed.map((f) => f.id!));
      return {
        // Pipes publish no iterator age; their failures and the pipes' dead-letter queues are the signal.
        lagSeconds: null,
        failures: measured.reduce((total, m) => total + m.failed, 0),
        readers: found.map(({ pipe, id, missing }) => {
          const m = measured[deployed.findIndex((f) => f.pipe === pipe)];
          return {
            name: `${pipe.name} pipe${id ? ` (${id})` : ''}`,
            summary: m
              ? `${m.events} events, ${m.failed} failed, ${m.throttled} throttled in the last ${PIPE_WINDOW_MINUTES} minutes`
              : `not found: ${missing}`,
          };
        }),
      };
    },
  };
  return deployment;
};
