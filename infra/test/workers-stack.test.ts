import { workers } from '@marketplace/services/workers';
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Table } from 'aws-cdk-lib/aws-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { WorkersStack } from '../lib/workers-stack';
import { marketplaceApp, resourcesOfType } from './synthesize-marketplace';

let template: Template;

beforeAll(() => {
  template = Template.fromStack(marketplaceApp().stacks.workers);
});

type Properties = Record<string, unknown>;
const workQueues = () => resourcesOfType(template, 'AWS::SQS::Queue').filter(([, q]) => q.Properties.RedrivePolicy);
const logicalIdOf = (value: unknown) => JSON.stringify(value).match(/"(?:Ref|Fn::GetAtt)":\[?"([A-Za-z0-9]+)"/)?.[1];

/** The queue, dead-letter queue, mapping and function of one worker, found by following references. */
const wiringOf = (queueLogicalIdPrefix: string) => {
  const [queueId, queue] = workQueues().find(([id]) => id.startsWith(queueLogicalIdPrefix))!;
  const redrive = queue.Properties.RedrivePolicy as Properties;
  const deadLetterQueue = resourcesOfType(template, 'AWS::SQS::Queue').find(
    ([id]) => id === logicalIdOf(redrive.deadLetterTargetArn),
  )!;
  const [, mapping] = resourcesOfType(template, 'AWS::Lambda::EventSourceMapping').find(
    ([, m]) => logicalIdOf(m.Properties.EventSourceArn) === queueId,
  )!;
  const [, consumer] = resourcesOfType(template, 'AWS::Lambda::Function').find(
    ([id]) => id === logicalIdOf(mapping.Properties.FunctionName),
  )!;
  return {
    queue: queue.Properties,
    redrive,
    deadLetterQueue: deadLetterQueue[1].Properties,
    mapping: mapping.Properties,
    consumer,
  };
};

const pascalCase = (name: string) => name.replace(/(^|-)([a-z])/g, (_, __, letter: string) => letter.toUpperCase());

describe('each worker of the worker table', () => {
  it('has one work queue and one dead-letter queue', () => {
    expect(workQueues()).toHaveLength(workers.length);
    template.resourceCountIs('AWS::SQS::Queue', workers.length * 2);
  });

  it("moves a message to its dead-letter queue after the table's receive count, with the table's visibility timeout", () => {
    for (const worker of workers) {
      const { queue, redrive, deadLetterQueue } = wiringOf(`${pascalCase(worker.queue)}Queue`);
      expect(redrive.maxReceiveCount).toBe(worker.maxReceiveCount);
      expect(queue.VisibilityTimeout).toBe(worker.visibilityTimeoutSeconds);
      expect(queue.SqsManagedSseEnabled).toBe(true);
      expect(deadLetterQueue.SqsManagedSseEnabled).toBe(true);
    }
  });

  it('is consumed in batches of the table size, reporting failed messages one by one', () => {
    for (const worker of workers) {
      const { mapping } = wiringOf(`${pascalCase(worker.queue)}Queue`);
      expect(mapping.BatchSize).toBe(worker.batchSize);
      expect(mapping.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    }
  });

  it("runs as an arm64 Node.js 22 function with the table's timeout and memory", () => {
    for (const worker of workers) {
      const { consumer } = wiringOf(`${pascalCase(worker.queue)}Queue`);
      expect(consumer.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Timeout: worker.timeoutSeconds,
        MemorySize: worker.memoryMb,
      });
      const environment = (consumer.Properties.Environment as { Variables: Properties }).Variables;
      expect(environment).toHaveProperty('TABLE_NAME');
      expect(environment).not.toHaveProperty('DYNAMODB_ENDPOINT');
    }
  });
});

describe('the dead-letter queues', () => {
  it('each raise an alarm as soon as one message lands in them', () => {
    for (const [queueId] of workQueues()) {
      const { redrive } = wiringOf(queueId);
      const deadLetterId = logicalIdOf(redrive.deadLetterTargetArn);
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Namespace: 'AWS/SQS',
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [deadLetterId, 'QueueName'] } }],
      });
    }
  });
});

describe('the order-events worker', () => {
  it('may write to the table', () => {
    const { consumer } = wiringOf('OrderEventsQueue');
    const roleId = logicalIdOf(consumer.Properties.Role);
    template.hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: roleId }],
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Action: Match.arrayWith(['dynamodb:PutItem']) })]),
      },
    });
  });
});

describe('the worker table', () => {
  it('is refused when a queue would hand a message out again before its worker may have finished', () => {
    const app = new App();
    const shared = new Stack(app, 'Shared');
    const build = () =>
      new WorkersStack(app, 'Workers', {
        table: Table.fromTableName(shared, 'Table', 'marketplace'),
        workers: [{ ...workers[0]!, visibilityTimeoutSeconds: 10, timeoutSeconds: 30 }],
        firebaseProjectId: 'acme-photos',
      });
    expect(build).toThrow(/visibility timeout is shorter/);
  });
});
