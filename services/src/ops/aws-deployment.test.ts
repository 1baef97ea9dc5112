import { CloudFormationClient, ListStackResourcesCommand } from '@aws-sdk/client-cloudformation';
import { CloudWatchClient, GetMetricDataCommand, type GetMetricDataCommandInput } from '@aws-sdk/client-cloudwatch';
import {
  CloudWatchLogsClient,
  FilterLogEventsCommand,
  type FilterLogEventsCommandInput,
} from '@aws-sdk/client-cloudwatch-logs';
import { SQSClient } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { pipes } from '../pipes';
import { workers } from '../workers';
import { awsDeployment } from './aws-deployment';

/**
 * The cloud side of the status command, against AWS's answers as the SDK returns them (each
 * client's send answers from the data below): which resource is which worker's, the newest error
 * of a log group, and the pipes' metrics.
 */
const pascalCase = (name: string) => name.replace(/(^|-)([a-z])/g, (_, __, letter: string) => letter.toUpperCase());
const hash = (text: string) =>
  [...text]
    .reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7)
    .toString(16)
    .toUpperCase()
    .padStart(8, '0');

/** The workers stack's resources with logical ids as CDK makes them (construct id, then a hash). */
const stackResources = [
  ...workers.flatMap((w) => {
    const name = pascalCase(w.queue);
    return [
      // Listed first so a loose match would take them: the dead-letter queue and the queue's policy.
      [`${name}DeadLetterQueue${hash(`${name}d`)}`, 'AWS::SQS::Queue', `https://sqs/1/${name}-dead`],
      [`${name}QueuePolicy${hash(`${name}p`)}`, 'AWS::SQS::QueuePolicy', 'policy'],
      [`${name}Queue${hash(name)}`, 'AWS::SQS::Queue', `https://sqs/1/${name}-queue`],
      [`${name}WorkerLogs${hash(`${name}l`)}`, 'AWS::Logs::LogGroup', `/logs/${name}`],
      [`${name}Worker${hash(`${name}w`)}`, 'AWS::Lambda::Function', `${name}-function`],
    ];
  }),
  ...pipes.flatMap((p) => {
    const name = `${pascalCase(p.name)}Pipe`;
    return [
      [`${name}DeadLetterQueue${hash(name)}`, 'AWS::SQS::Queue', `https://sqs/1/${name}-dead`],
      // A pipe is made at the stack's top level: its logical id has no hash.
      [name, 'AWS::Pipes::Pipe', `${name}-generated`],
    ];
  }),
].map(([LogicalResourceId, ResourceType, PhysicalResourceId]) => ({
  LogicalResourceId,
  ResourceType,
  PhysicalResourceId,
}));

type Send = (command: { input: unknown }) => Promise<unknown>;
const answering = <T extends { send: unknown }>(client: T, send: Send) => {
  (client as unknown as { send: Send }).send = send;
  return client;
};

const cloudFormation = () =>
  answering(new CloudFormationClient({ region: 'eu-west-1' }), async (command) => {
    if (!(command instanceof ListStackResourcesCommand)) throw new Error('unexpected call');
    expect(command.input.StackName).toBe('MarketplaceWorkers');
    // Two pages, as CloudFormation pages a stack of this size.
    const half = Math.floor(stackResources.length / 2);
    return command.input.NextToken
      ? { StackResourceSummaries: stackResources.slice(half) }
      : { StackResourceSummaries: stackResources.slice(0, half), NextToken: 'page-2' };
  });

const deployment = (
  logs: (input: FilterLogEventsCommandInput) => unknown = () => ({ events: [] }),
  metrics: (input: GetMetricDataCommandInput) => unknown = () => ({ MetricDataResults: [] }),
) =>
  awsDeployment(new SQSClient({ region: 'eu-west-1' }), {
    region: 'eu-west-1',
    cloudFormation: cloudFormation(),
    logs: answering(new CloudWatchLogsClient({ region: 'eu-west-1' }), async (command) => {
      if (!(command instanceof FilterLogEventsCommand)) throw new Error('unexpected call');
      return logs(command.input);
    }),
    cloudWatch: answering(new CloudWatchClient({ region: 'eu-west-1' }), async (command) => {
      if (!(command instanceof GetMetricDataCommand)) throw new Error('unexpected call');
      return metrics(command.input);
    }),
  });

describe('the deployed stack, found through CloudFormation', () => {
  it("takes each worker's queue and each pipe's dead-letter queue from the stack's resources", async () => {
    const queues = await deployment().queues();

    expect(queues).toEqual([
      ...workers.map((w) => ({
        name: w.queue,
        kind: 'worker',
        url: `https://sqs/1/${pascalCase(w.queue)}-queue`,
      })),
      ...pipes.map((p) => ({
        name: p.name,
        kind: 'pipe',
        deadLetterQueueUrl: `https://sqs/1/${pascalCase(p.name)}Pipe-dead`,
      })),
    ]);
  });

  it("reads each worker's newest error from its log group, looking further back only when the last minutes hold none", async () => {
    const now = Date.now();
    const asked: string[] = [];
    const found = await deployment((input) => {
      const windowMinutes = Math.round((input.endTime! - input.startTime!) / 60_000);
      asked.push(`${input.logGroupName} ${windowMinutes}`);
      if (input.logGroupName === '/logs/OrderEvents' && windowMinutes === 15) {
        const json = input.filterPattern!.startsWith('{');
        return {
          events: json
            ? [
                {
                  timestamp: now - 120_000,
                  message: JSON.stringify({
                    level: 'ERROR',
                    message: 'storing an order event failed',
                    messageId: 'm-older',
                    error: { name: 'Error', message: 'older' },
                  }),
                },
                {
                  timestamp: now - 60_000,
                  message: JSON.stringify({
                    level: 'ERROR',
                    message: 'storing an order event failed',
                    messageId: 'm-1',
                    error: { name: 'ValidationException', message: 'Item size has exceeded the maximum allowed size' },
                  }),
                },
              ]
            : [],
        };
      }
      // A zip build that ran out of time five hours ago: the runtime's own line, not JSON.
      if (
        input.logGroupName === '/logs/ZipBuilds' &&
        windowMinutes === 6 * 60 - 15 &&
        !input.filterPattern!.startsWith('{')
      ) {
        return {
          events: [
            {
              timestamp: now - 5 * 3_600_000,
              message: '2026-11-25T05:00:00.000Z abc Task timed out after 900.00 seconds\n',
            },
          ],
        };
      }
      return { events: [] };
    }).workerErrors();

    expect(found).toEqual({
      'order-events': {
        at: new Date(now - 60_000).toISOString(),
        messageId: 'm-1',
        message: 'storing an order event failed: Item size has exceeded the maximum allowed size',
      },
      'zip-builds': {
        at: new Date(now - 5 * 3_600_000).toISOString(),
        message: '2026-11-25T05:00:00.000Z abc Task timed out after 900.00 seconds',
      },
    });
    // The event log's errors were found in the last 15 minutes: no older window was read.
    expect(asked.filter((a) => a.startsWith('/logs/OrderEvents '))).toEqual([
      '/logs/OrderEvents 15',
      '/logs/OrderEvents 15',
    ]);
  });

  it("sums each pipe's events and failures over the last 15 minutes, and gives no lag (Pipes publish none)", async () => {
    let asked: GetMetricDataCommandInput | undefined;
    const outbox = await deployment(undefined, (input) => {
      asked = input;
      const values: Record<string, number[]> = {
        pipe0_0: [4, 6],
        pipe0_1: [1],
        pipe0_2: [1],
        pipe0_3: [2],
        pipe1_0: [3],
      };
      return { MetricDataResults: Object.entries(values).map(([Id, Values]) => ({ Id, Values })) };
    }).outbox();

    expect(asked?.MetricDataQueries?.[0]?.MetricStat?.Metric).toEqual({
      Namespace: 'AWS/EventBridge/Pipes',
      MetricName: 'EventCount',
      Dimensions: [{ Name: 'PipeName', Value: 'OrderEventsPipe-generated' }],
    });
    expect(outbox).toEqual({
      lagSeconds: null,
      failures: 2,
      readers: [
        {
          name: 'order-events pipe (OrderEventsPipe-generated)',
          summary: '10 events, 2 failed, 2 throttled in the last 15 minutes',
        },
        {
          name: 'order-zips pipe (OrderZipsPipe-generated)',
          summary: '3 events, 0 failed, 0 throttled in the last 15 minutes',
        },
      ],
    });
  });

  it('reports a queue the deployed stack lacks (code newer than the deployment) instead of failing', async () => {
    const older = awsDeployment(new SQSClient({ region: 'eu-west-1' }), {
      region: 'eu-west-1',
      cloudFormation: answering(new CloudFormationClient({ region: 'eu-west-1' }), async () => ({
        StackResourceSummaries: stackResources.filter((r) => !r.LogicalResourceId?.startsWith('ZipBuildsQueue')),
      })),
    });

    const queues = await older.queues();

    expect(queues.find((q) => q.name === 'zip-builds')).toEqual({
      name: 'zip-builds',
      kind: 'worker',
      missing: "the MarketplaceWorkers stack has no AWS::SQS::Queue ZipBuildsQueue: deploy this code's stack",
    });
    expect(queues.filter((q) => q.url)).toHaveLength(workers.length - 1);
  });
});
