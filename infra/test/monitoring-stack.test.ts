import { metricUnits } from '@marketplace/services/adapters/metrics';
import { pipes } from '@marketplace/services/pipes';
import { workers } from '@marketplace/services/workers';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { alarmNames } from '../lib/monitoring-stack';
import { marketplaceApp, resourcesOfType } from './synthesize-marketplace';

const alarmEmail = 'ops@photos.example.com';

let monitoring: Template;
let workersTemplate: Template;
let apiTemplate: Template;
let liveTemplate: Template;

beforeAll(() => {
  const { stacks } = marketplaceApp({ settings: { alarmEmail } });
  monitoring = Template.fromStack(stacks.monitoring);
  workersTemplate = Template.fromStack(stacks.workers);
  apiTemplate = Template.fromStack(stacks.api);
  liveTemplate = Template.fromStack(stacks.live);
});

type Properties = Record<string, unknown>;
type MetricQuery = {
  Id: string;
  Expression?: string;
  ReturnData?: boolean;
  MetricStat?: {
    Metric: { Namespace: string; MetricName: string; Dimensions?: { Name: string; Value: unknown }[] };
    Period: number;
    Stat: string;
  };
};

const pascalCase = (name: string) => name.replace(/(^|-)([a-z])/g, (_, __, letter: string) => letter.toUpperCase());
const logicalIdOf = (value: unknown) => JSON.stringify(value).match(/"(?:Ref|Fn::GetAtt)":\[?"([A-Za-z0-9]+)"/)?.[1];

const idOfType = (template: Template, type: string) => {
  const found = resourcesOfType(template, type);
  expect(found, type).toHaveLength(1);
  return found[0]![0];
};

const alarms = () => resourcesOfType(monitoring, 'AWS::CloudWatch::Alarm').map(([, alarm]) => alarm.Properties);

const alarmNamed = (name: string) => {
  const found = alarms().filter((alarm) => alarm.AlarmName === name);
  expect(found, name).toHaveLength(1);
  return found[0]!;
};

/**
 * What a weak cross-stack reference (Fn::GetStackOutput, cdk.json's defaultCrossStackReferences)
 * stands for: the value of the producing stack's output it names.
 */
const published = (producer: Template, value: unknown) => {
  const reference = (value as { 'Fn::GetStackOutput'?: { OutputName: string } })['Fn::GetStackOutput'];
  expect(reference, JSON.stringify(value)).toBeDefined();
  const outputs = producer.toJSON().Outputs as Record<string, { Value: unknown }>;
  return outputs[reference!.OutputName]?.Value;
};

/** The logical id of the worker queue, or of its dead-letter queue, in the workers stack. */
const queueIds = (queue: string) => {
  const [queueId, work] = resourcesOfType(workersTemplate, 'AWS::SQS::Queue').find(
    ([id, q]) => id.startsWith(`${pascalCase(queue)}Queue`) && q.Properties.RedrivePolicy,
  )!;
  const deadLetterId = logicalIdOf((work.Properties.RedrivePolicy as Properties).deadLetterTargetArn)!;
  return { queueId, deadLetterId };
};

const pipeIds = (pipeName: string) => {
  const [pipeId, pipe] = resourcesOfType(workersTemplate, 'AWS::Pipes::Pipe').find(([id]) =>
    id.startsWith(`${pascalCase(pipeName)}Pipe`),
  )!;
  const parameters = pipe.Properties.SourceParameters as {
    DynamoDBStreamParameters: { DeadLetterConfig: { Arn: unknown } };
  };
  return { pipeId, deadLetterId: logicalIdOf(parameters.DynamoDBStreamParameters.DeadLetterConfig.Arn)! };
};

const queueNameOf = (alarm: Properties) => {
  const dimensions = alarm.Dimensions as { Name: string; Value: unknown }[];
  expect(dimensions.map((d) => d.Name)).toEqual(['QueueName']);
  return published(workersTemplate, dimensions[0]!.Value);
};

const query = (alarm: Properties, id: string) => (alarm.Metrics as MetricQuery[]).find((m) => m.Id === id)!;

describe('the alarm topic', () => {
  it('is encrypted with a key of its own, rotated, that CloudWatch may use for our alarms only', () => {
    const keyId = idOfType(monitoring, 'AWS::KMS::Key');
    monitoring.hasResourceProperties('AWS::SNS::Topic', {
      TopicName: 'Marketplace-Alarms',
      KmsMasterKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] },
    });
    monitoring.hasResourceProperties('AWS::KMS::Key', {
      EnableKeyRotation: true,
      KeyPolicy: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Allow',
            Principal: { Service: 'cloudwatch.amazonaws.com' },
            Action: ['kms:Decrypt', 'kms:GenerateDataKey*'],
            Condition: {
              StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
              ArnLike: {
                'aws:SourceArn': Match.objectLike({ 'Fn::Join': ['', Match.arrayWith([':alarm:Marketplace-*'])] }),
              },
            },
          }),
        ]),
      },
    });
  });

  it("lets CloudWatch publish for our alarms, over TLS only (a topic policy replaces SNS's default one)", () => {
    const topicId = idOfType(monitoring, 'AWS::SNS::Topic');
    monitoring.hasResourceProperties('AWS::SNS::TopicPolicy', {
      Topics: [{ Ref: topicId }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Deny',
            Action: 'sns:Publish',
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
          Match.objectLike({
            Effect: 'Allow',
            Principal: { Service: 'cloudwatch.amazonaws.com' },
            Action: 'sns:Publish',
            Resource: { Ref: topicId },
            Condition: {
              StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
              ArnLike: {
                'aws:SourceArn': Match.objectLike({ 'Fn::Join': ['', Match.arrayWith([':alarm:Marketplace-*'])] }),
              },
            },
          }),
        ]),
      },
    });
  });

  it('emails the address the deploy gives (-c alarmEmail), and nobody, with a warning, when none is given', () => {
    const topicId = idOfType(monitoring, 'AWS::SNS::Topic');
    monitoring.resourceCountIs('AWS::SNS::Subscription', 1);
    monitoring.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: alarmEmail,
      TopicArn: { Ref: topicId },
    });

    const unconfigured = marketplaceApp().stacks.monitoring;
    Template.fromStack(unconfigured).resourceCountIs('AWS::SNS::Subscription', 0);
    Annotations.fromStack(unconfigured).hasWarning(
      '/MarketplaceMonitoring',
      Match.stringLikeRegexp('-c alarmEmail=<address>'),
    );
  });
});

describe('every alarm', () => {
  it('has a Marketplace- name, a description, and notifies the topic when it fires and when it clears', () => {
    const topic = { Ref: idOfType(monitoring, 'AWS::SNS::Topic') };
    // A dead-letter alarm per worker queue and per pipe, a failure alarm per pipe, and seven more.
    expect(alarms()).toHaveLength(workers.length + pipes.length * 2 + 7);
    for (const alarm of alarms()) {
      expect(alarm.AlarmName).toMatch(/^Marketplace-[A-Za-z0-9-]+$/);
      expect(String(alarm.AlarmDescription).length, String(alarm.AlarmName)).toBeGreaterThan(40);
      expect(alarm.AlarmActions, String(alarm.AlarmName)).toEqual([topic]);
      expect(alarm.OKActions, String(alarm.AlarmName)).toEqual([topic]);
      // No data is no traffic, never an alarm.
      expect(alarm.TreatMissingData, String(alarm.AlarmName)).toBe('notBreaching');
    }
  });
});

/** Any dead letter at all, seen within a minute. */
const deadLetterAlarm = {
  Namespace: 'AWS/SQS',
  MetricName: 'ApproximateNumberOfMessagesVisible',
  Statistic: 'Maximum',
  Period: 60,
  EvaluationPeriods: 1,
  Threshold: 1,
  ComparisonOperator: 'GreaterThanOrEqualToThreshold',
};

describe('the dead-letter alarms', () => {
  it("watch each worker queue's dead-letter queue, from the worker table, at one visible message in one minute", () => {
    for (const worker of workers) {
      const alarm = alarmNamed(alarmNames.deadLetters(worker.queue));
      expect(alarm).toMatchObject(deadLetterAlarm);
      expect(queueNameOf(alarm)).toEqual({ 'Fn::GetAtt': [queueIds(worker.queue).deadLetterId, 'QueueName'] });
    }
  });

  it("watch each pipe's dead-letter queue the same way", () => {
    for (const pipe of pipes) {
      const alarm = alarmNamed(alarmNames.pipeDeadLetters(pipe.name));
      expect(alarm).toMatchObject(deadLetterAlarm);
      expect(queueNameOf(alarm)).toEqual({ 'Fn::GetAtt': [pipeIds(pipe.name).deadLetterId, 'QueueName'] });
    }
  });
});

describe('the pipe failure alarms', () => {
  it("add each pipe's failed and timed-out executions over 5 minutes and fire at one", () => {
    for (const pipe of pipes) {
      const alarm = alarmNamed(alarmNames.pipeFailures(pipe.name));
      expect(alarm).toMatchObject({
        EvaluationPeriods: 1,
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      });
      const expression = (alarm.Metrics as MetricQuery[]).find((m) => m.Expression)!;
      expect(expression).toMatchObject({ Expression: 'failed + timedOut', ReturnData: true });
      for (const [id, metricName] of [
        ['failed', 'ExecutionFailed'],
        ['timedOut', 'ExecutionTimeout'],
      ] as const) {
        const { MetricStat } = query(alarm, id);
        expect(MetricStat).toMatchObject({
          Metric: { Namespace: 'AWS/EventBridge/Pipes', MetricName: metricName },
          Period: 300,
          Stat: 'Sum',
        });
        const [dimension] = MetricStat!.Metric.Dimensions!;
        expect(dimension!.Name).toBe('PipeName');
        expect(published(workersTemplate, dimension!.Value)).toEqual({ Ref: pipeIds(pipe.name).pipeId });
      }
    }
  });
});

describe('the HTTP API alarms', () => {
  const apiId = () => ({ Ref: idOfType(apiTemplate, 'AWS::ApiGatewayV2::Api') });

  it('5xx rate: 5xx over requests in 5 minutes, at 1 %, once 3 errors fell in them', () => {
    const alarm = alarmNamed(alarmNames.apiServerErrors);
    expect(alarm).toMatchObject({
      EvaluationPeriods: 1,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    expect((alarm.Metrics as MetricQuery[]).find((m) => m.Expression)).toMatchObject({
      Expression: 'IF(errors >= 3, 100 * errors / requests, 0)',
      ReturnData: true,
    });
    for (const [id, metricName] of [
      ['errors', '5xx'],
      ['requests', 'Count'],
    ] as const) {
      const { MetricStat } = query(alarm, id);
      expect(MetricStat).toMatchObject({
        Metric: { Namespace: 'AWS/ApiGateway', MetricName: metricName },
        Period: 300,
        Stat: 'Sum',
      });
      expect(published(apiTemplate, MetricStat!.Metric.Dimensions![0]!.Value)).toEqual(apiId());
    }
  });

  it('p99 latency: over 3 s in 3 of 5 periods of 5 minutes', () => {
    const alarm = alarmNamed(alarmNames.apiLatency);
    expect(alarm).toMatchObject({
      EvaluationPeriods: 5,
      DatapointsToAlarm: 3,
      Threshold: 3000,
      ComparisonOperator: 'GreaterThanThreshold',
    });
    const [latency] = alarm.Metrics as MetricQuery[];
    expect(latency!.MetricStat).toMatchObject({
      Metric: { Namespace: 'AWS/ApiGateway', MetricName: 'Latency' },
      Period: 300,
      Stat: 'p99',
    });
    expect(published(apiTemplate, latency!.MetricStat!.Metric.Dimensions![0]!.Value)).toEqual(apiId());
  });
});

describe('the function alarms', () => {
  it('count errors and throttles across the account (no dimensions), 5 or more in 5 minutes', () => {
    for (const [name, metricName] of [
      [alarmNames.lambdaErrors, 'Errors'],
      [alarmNames.lambdaThrottles, 'Throttles'],
    ] as const) {
      const alarm = alarmNamed(name);
      expect(alarm).toMatchObject({
        Namespace: 'AWS/Lambda',
        MetricName: metricName,
        Statistic: 'Sum',
        Period: 300,
        EvaluationPeriods: 1,
        Threshold: 5,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      });
      expect(alarm.Dimensions).toBeUndefined();
    }
  });
});

describe('the outbox delay alarm', () => {
  it("fires when the order-events queue's oldest message is 10 minutes old (Pipes publish no iterator age)", () => {
    const alarm = alarmNamed(alarmNames.outboxDelay);
    expect(alarm).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateAgeOfOldestMessage',
      Statistic: 'Maximum',
      Period: 300,
      EvaluationPeriods: 1,
      Threshold: 600,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    expect(queueNameOf(alarm)).toEqual({ 'Fn::GetAtt': [queueIds('order-events').queueId, 'QueueName'] });
  });
});

describe('the SES bounce alarm', () => {
  it("fires at a 2 % account bounce rate, well before SES's review at 5 %", () => {
    expect(alarmNamed(alarmNames.sesBounces)).toMatchObject({
      Namespace: 'AWS/SES',
      MetricName: 'Reputation.BounceRate',
      Statistic: 'Maximum',
      Period: 3600,
      EvaluationPeriods: 1,
      Threshold: 0.02,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });
});

describe('the live updates alarm', () => {
  it("fires at 5 WebSocket integration errors in 5 minutes, on the marketplace's WebSocket API", () => {
    const alarm = alarmNamed(alarmNames.liveIntegrationErrors);
    expect(alarm).toMatchObject({
      Namespace: 'AWS/ApiGateway',
      MetricName: 'IntegrationError',
      Statistic: 'Sum',
      Period: 300,
      EvaluationPeriods: 1,
      Threshold: 5,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    const [dimension] = alarm.Dimensions as { Name: string; Value: unknown }[];
    expect(dimension!.Name).toBe('ApiId');
    expect(published(liveTemplate, dimension!.Value)).toEqual({
      Ref: idOfType(liveTemplate, 'AWS::ApiGatewayV2::Api'),
    });
  });
});

describe('the Marketplace dashboard', () => {
  type Widget = {
    type: string;
    properties: {
      title?: string;
      metrics?: unknown[][];
      alarms?: string[];
      query?: string;
      markdown?: string;
    };
  };
  let widgets: Widget[];

  beforeAll(() => {
    const [, dashboard] = resourcesOfType(monitoring, 'AWS::CloudWatch::Dashboard')[0]!;
    expect(dashboard.Properties.DashboardName).toBe('Marketplace');
    // The body is a Fn::Join of JSON text and references: each reference stands in as a plain word.
    const [, parts] = (dashboard.Properties.DashboardBody as { 'Fn::Join': [string, unknown[]] })['Fn::Join'];
    const body = parts.map((part) => (typeof part === 'string' ? part : 'REFERENCE')).join('');
    widgets = (JSON.parse(body) as { widgets: Widget[] }).widgets;
  });

  const titled = (title: string) => {
    const found = widgets.filter((w) => w.properties.title === title);
    expect(found, title).toHaveLength(1);
    return found[0]!.properties;
  };
  /** [namespace, metric name] of each metric line of a graph, and the statistic it shows. */
  const metricLines = (title: string) =>
    (titled(title).metrics ?? [])
      .filter((line) => typeof line[0] === 'string' && typeof line[1] === 'string')
      .map((line) => {
        const options = line.find((part) => typeof part === 'object' && part !== null) as { stat?: string } | undefined;
        return `${line[0]} ${line[1]} ${options?.stat ?? ''}`.trim();
      });

  it('lists every alarm first', () => {
    const alarmWidget = widgets.find((w) => w.type === 'alarm')!;
    expect(alarmWidget.properties.alarms).toHaveLength(alarms().length);
  });

  it("shows each of the marketplace's own metrics: orders paid, revenue, claim conflicts, Stripe errors, zip build p50 and p90, thumbnail failures", () => {
    expect(metricLines('Orders paid (per hour)')).toEqual(['Marketplace OrdersPaid Sum']);
    expect(JSON.stringify(titled('Revenue (USD per hour)').metrics)).toContain('cents / 100');
    expect(metricLines('Revenue (USD per hour)')).toEqual(['Marketplace Revenue Sum']);
    expect(metricLines('Claim conflicts, Stripe errors')).toEqual([
      'Marketplace ClaimConflicts Sum',
      'Marketplace StripeErrors Sum',
    ]);
    expect(metricLines('Zip build (seconds)')).toEqual([
      'Marketplace ZipBuildSeconds p50',
      'Marketplace ZipBuildSeconds p90',
    ]);
    expect(metricLines('Thumbnail failures')).toEqual(['Marketplace ThumbnailFailures Sum']);
    // Every metric the services write has its graph.
    const shown = JSON.stringify(widgets);
    for (const name of Object.keys(metricUnits)) expect(shown, name).toContain(`"Marketplace","${name}"`);
  });

  it("shows the HTTP API's requests, 4xx, 5xx and its p50 and p99 latency, and the slowest routes from its access log", () => {
    expect(metricLines('API requests and errors')).toEqual([
      'AWS/ApiGateway Count Sum',
      'AWS/ApiGateway 4xx Sum',
      'AWS/ApiGateway 5xx Sum',
    ]);
    expect(metricLines('API latency (ms)')).toEqual(['AWS/ApiGateway Latency p50', 'AWS/ApiGateway Latency p99']);
    expect(titled('Slowest routes (access log)').query).toMatch(/pct\(responseLatency, 99\).*by routeKey/);
  });

  it('shows the depth and oldest message of every worker queue and every dead-letter queue', () => {
    const sqs = (title: string, metricName: string) =>
      metricLines(title).filter((line) => line === `AWS/SQS ${metricName} Maximum`);
    expect(sqs('Messages waiting, per queue', 'ApproximateNumberOfMessagesVisible')).toHaveLength(workers.length);
    expect(sqs('Age of the oldest message (s), per queue', 'ApproximateAgeOfOldestMessage')).toHaveLength(
      workers.length,
    );
    expect(sqs('Dead letters', 'ApproximateNumberOfMessagesVisible')).toHaveLength(workers.length + pipes.length);
  });

  it("shows the account's function errors, throttles and concurrency, and the functions with the most errors", () => {
    expect(metricLines('Functions: errors and throttles (account)')).toEqual([
      'AWS/Lambda Errors Sum',
      'AWS/Lambda Throttles Sum',
    ]);
    expect(metricLines('Functions: concurrent executions (account)')).toEqual([
      'AWS/Lambda ConcurrentExecutions Maximum',
    ]);
    expect(JSON.stringify(titled('Functions with the most errors').metrics)).toContain(
      'SELECT SUM(Errors) FROM SCHEMA(\\"AWS/Lambda\\", FunctionName)',
    );
  });

  it('shows the pipes, SES and the WebSocket API', () => {
    expect(metricLines('Pipes: outbox records delivered')).toHaveLength(pipes.length);
    expect(metricLines('Pipes: failed, timed out, throttled')).toHaveLength(pipes.length * 3);
    expect(metricLines('Email (SES): sent, delivered, bounced, complaints')).toEqual([
      'AWS/SES Send Sum',
      'AWS/SES Delivery Sum',
      'AWS/SES Bounce Sum',
      'AWS/SES Complaint Sum',
      'AWS/SES Reputation.BounceRate Maximum',
    ]);
    expect(metricLines('Live updates (WebSocket)')).toEqual([
      'AWS/ApiGateway ConnectCount Sum',
      'AWS/ApiGateway MessageCount Sum',
      'AWS/ApiGateway IntegrationError Sum',
      'AWS/ApiGateway ClientError Sum',
    ]);
  });
});
