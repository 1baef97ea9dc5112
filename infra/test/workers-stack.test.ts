import { type PipeDefinition, pipeFilterPattern, pipes } from '@marketplace/services/pipes';
import { workers } from '@marketplace/services/workers';
import { App, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { AttributeType, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { beforeAll, describe, expect, it } from 'vitest';
import { WorkersStack, workerGrants } from '../lib/workers-stack';
import { marketplaceApp, resourcesOfType } from './synthesize-marketplace';

let template: Template;
let workersStack: WorkersStack;

beforeAll(() => {
  workersStack = marketplaceApp().stacks.workers;
  template = Template.fromStack(workersStack);
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
  it('has one work queue and one dead-letter queue, beside one dead-letter queue per pipe', () => {
    expect(workQueues()).toHaveLength(workers.length);
    template.resourceCountIs('AWS::SQS::Queue', workers.length * 2 + pipes.length);
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

  it("runs as an arm64 Node.js 24 function with the table's timeout and memory", () => {
    for (const worker of workers) {
      const { consumer } = wiringOf(`${pascalCase(worker.queue)}Queue`);
      expect(consumer.Properties).toMatchObject({
        Runtime: 'nodejs24.x',
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
  it('are each named in an output and handed to the monitoring stack, which raises their alarms (monitoring-stack.test.ts)', () => {
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
    for (const worker of workers) {
      const { redrive } = wiringOf(`${pascalCase(worker.queue)}Queue`);
      const deadLetterId = logicalIdOf(redrive.deadLetterTargetArn);
      expect(outputs[`${pascalCase(worker.queue)}DeadLetterQueueName`]?.Value).toEqual({
        'Fn::GetAtt': [deadLetterId, 'QueueName'],
      });
      const handedOver = workersStack.deadLetterQueues.get(worker.queue);
      expect(handedOver && workersStack.resolve(handedOver.queueArn)).toEqual(redrive.deadLetterTargetArn);
    }
    // Alarms here would have no action: the topic they notify lives in the monitoring stack.
    template.resourceCountIs('AWS::CloudWatch::Alarm', 0);
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

describe('the zip-builds worker', () => {
  it('builds one zip at a time from its queue, for up to 15 minutes with 1 GB of memory', () => {
    const { mapping, consumer } = wiringOf('ZipBuildsQueue');
    expect(mapping.BatchSize).toBe(1);
    expect(consumer.Properties).toMatchObject({ Timeout: 900, MemorySize: 1024 });
    expect(consumer.Properties.Description).toBe('Consumes the zip-builds queue');
  });

  it('may read the photos and write the zip', () => {
    const { consumer } = wiringOf('ZipBuildsQueue');
    const actions = statementsOfRole(logicalIdOf(consumer.Properties.Role)!).flatMap((statement) => statement.Action);
    expect(actions).toEqual(expect.arrayContaining(['s3:GetObject', 's3:PutObject', 'dynamodb:Query']));
  });
});

type Statement = { Action: string | string[]; Resource: unknown; Effect: string };

const statementsOfRole = (roleId: string) =>
  resourcesOfType(template, 'AWS::IAM::Policy')
    .filter(([, policy]) => logicalIdOf(policy.Properties.Roles) === roleId)
    .flatMap(([, policy]) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement)
    .map((statement) => ({ ...statement, Action: [statement.Action].flat() }));

/** The logical ids a statement's resources point at (CDK merges statements with the same actions). */
const resourceIds = (statement: Statement) => [statement.Resource].flat().map(logicalIdOf);

/** The pipe resource of one entry of the pipe table, with its role and policy. */
const pipeOf = (pipe: PipeDefinition) => {
  const found = resourcesOfType(template, 'AWS::Pipes::Pipe').find(([id]) => id.startsWith(pascalCase(pipe.name)));
  if (!found) throw new Error(`no pipe ${pipe.name}`);
  const [pipeId, resource] = found;
  const properties = resource.Properties as {
    RoleArn: unknown;
    Source: unknown;
    Target: unknown;
    TargetParameters?: unknown;
    SourceParameters: {
      DynamoDBStreamParameters: Record<string, unknown> & { DeadLetterConfig: { Arn: unknown } };
      FilterCriteria: { Filters: { Pattern: string }[] };
    };
  };
  const roleId = logicalIdOf(properties.RoleArn)!;
  return { pipeId, properties, roleId, dependsOn: (resource as { DependsOn?: string[] }).DependsOn ?? [] };
};

/** The table's stream, as the workers stack imports it from the data stack. */
const isTableStream = (value: unknown) => /MarketplaceData.*Table.*StreamArn/.test(JSON.stringify(value));

describe('the pipes from the outbox', () => {
  it('are one EventBridge Pipe per entry of the pipe table, from the table stream to the target queue', () => {
    template.resourceCountIs('AWS::Pipes::Pipe', pipes.length);
    for (const pipe of pipes) {
      const { properties } = pipeOf(pipe);
      expect(isTableStream(properties.Source), pipe.name).toBe(true);
      expect(logicalIdOf(properties.Target), pipe.name).toMatch(new RegExp(`^${pascalCase(pipe.target)}Queue`));
    }
  });

  it('carry only the outbox records of their event types, as the stream record itself', () => {
    for (const pipe of pipes) {
      const { properties } = pipeOf(pipe);
      expect(properties.SourceParameters.FilterCriteria).toEqual({
        Filters: [{ Pattern: JSON.stringify(pipeFilterPattern(pipe)) }],
      });
      // No input template: the workers parse the DynamoDB stream record.
      expect(properties.TargetParameters).toBeUndefined();
    }
    const completed = pipeOf(pipes.find((pipe) => pipe.target === 'zip-builds')!);
    expect(completed.properties.SourceParameters.FilterCriteria.Filters[0]!.Pattern).toContain('order_completed');
  });

  it('read from the oldest record the stream holds, ten at a time', () => {
    for (const pipe of pipes) {
      expect(pipeOf(pipe).properties.SourceParameters.DynamoDBStreamParameters).toMatchObject({
        StartingPosition: 'TRIM_HORIZON',
        BatchSize: 10,
        MaximumRetryAttempts: expect.any(Number),
      });
    }
  });

  it('may read exactly the table stream and send to exactly their target and dead-letter queues', () => {
    for (const pipe of pipes) {
      const { properties, roleId } = pipeOf(pipe);
      const deadLetterId = logicalIdOf(properties.SourceParameters.DynamoDBStreamParameters.DeadLetterConfig.Arn);
      const targetId = logicalIdOf(properties.Target);
      const statements = statementsOfRole(roleId);
      for (const statement of statements) {
        expect(statement.Effect).toBe('Allow');
        const service = statement.Action[0]!.split(':')[0];
        expect(statement.Action.every((action) => action.startsWith(`${service}:`))).toBe(true);
        if (service === 'dynamodb' && statement.Action.includes('dynamodb:ListStreams')) {
          // ListStreams has no resource-level permissions in IAM.
          expect(statement).toMatchObject({ Action: ['dynamodb:ListStreams'], Resource: '*' });
        } else if (service === 'dynamodb') {
          expect(statement.Action.sort()).toEqual(
            ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'].sort(),
          );
          expect(isTableStream(statement.Resource)).toBe(true);
        } else {
          expect(service).toBe('sqs');
          expect(statement.Action).toContain('sqs:SendMessage');
          for (const queueId of resourceIds(statement)) expect([targetId, deadLetterId]).toContain(queueId);
        }
      }
      const sentTo = statements.filter((s) => s.Action.includes('sqs:SendMessage')).flatMap(resourceIds);
      expect(sentTo.sort()).toEqual([targetId, deadLetterId].sort());
    }
  });

  it('are the only ones who may use their roles, and wait for the role policy before starting', () => {
    for (const pipe of pipes) {
      const { roleId, dependsOn } = pipeOf(pipe);
      template.hasResourceProperties('AWS::IAM::Role', {
        AssumeRolePolicyDocument: {
          Statement: [
            Match.objectLike({
              Principal: { Service: 'pipes.amazonaws.com' },
              Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
            }),
          ],
        },
      });
      const policyIds = resourcesOfType(template, 'AWS::IAM::Policy')
        .filter(([, policy]) => logicalIdOf(policy.Properties.Roles) === roleId)
        .map(([id]) => id);
      expect(policyIds).toHaveLength(1);
      expect(dependsOn).toContain(policyIds[0]);
    }
  });

  it('put what they cannot deliver in a dead-letter queue, handed with the pipe to the monitoring stack', () => {
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
    for (const pipe of pipes) {
      const { pipeId, properties } = pipeOf(pipe);
      const deadLetterArn = properties.SourceParameters.DynamoDBStreamParameters.DeadLetterConfig.Arn;
      const deadLetterId = logicalIdOf(deadLetterArn);
      expect(deadLetterId).toMatch(/DeadLetterQueue/);
      expect(outputs[`${pascalCase(pipe.name)}PipeDeadLetterQueueName`]?.Value).toEqual({
        'Fn::GetAtt': [deadLetterId, 'QueueName'],
      });
      const handedOver = workersStack.pipes.find(({ definition }) => definition === pipe);
      expect(handedOver && workersStack.resolve(handedOver.deadLetterQueue.queueArn)).toEqual(deadLetterArn);
      // The pipe's Ref is its name, the PipeName dimension of its metrics.
      expect(handedOver && workersStack.resolve(handedOver.pipeName)).toEqual({ Ref: pipeId });
    }
  });
});

/** A workers stack of its own, to try tables the live ones do not contain. */
const buildWorkers = (options: {
  pipes?: readonly PipeDefinition[];
  workers?: typeof workers;
  stream?: boolean;
  email?: { mailFrom: string; siteUrl: string };
}) => {
  // Synthesis checks only: no esbuild run for these functions.
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const shared = new Stack(app, 'Shared');
  const table = new Table(shared, 'Table', {
    partitionKey: { name: 'pk', type: AttributeType.STRING },
    ...(options.stream === false ? {} : { stream: StreamViewType.NEW_IMAGE }),
  });
  return new WorkersStack(app, 'Workers', {
    table,
    workers: options.workers ?? workers,
    pipes: options.pipes ?? [],
    firebaseProjectId: 'acme-photos',
    firebaseAdminSecret: Secret.fromSecretNameV2(shared, 'FirebaseAdminSecret', 'marketplace/firebase-admin'),
    unsubscribeKeySecret: Secret.fromSecretNameV2(shared, 'UnsubscribeKeySecret', 'marketplace/unsubscribe-key'),
    // The late-delivery credit's worker refunds through Stripe.
    stripeSecret: Secret.fromSecretNameV2(shared, 'StripeSecret', 'marketplace/stripe'),
    ...(options.email ? { email: options.email } : {}),
    live: {
      stageArn: 'arn:aws:execute-api:us-east-1:111122223333:a1b2c3d4e5/live/',
      managementUrl: 'https://a1b2c3d4e5.execute-api.us-east-1.amazonaws.com/live',
    },
  });
};

describe('the worker table', () => {
  it('is refused when a queue would hand a message out again before its worker may have finished', () => {
    const build = () =>
      buildWorkers({ workers: [{ ...workers[0]!, visibilityTimeoutSeconds: 10, timeoutSeconds: 30 }] });
    expect(build).toThrow(/visibility timeout is shorter/);
  });
});

describe('the pipe table', () => {
  it('is refused with a third pipe, since a stream shard serves at most two readers', () => {
    const three = [...pipes, { name: 'third', target: 'order-events' as const }, ...pipes].slice(0, 3);
    expect(() => buildWorkers({ pipes: three })).toThrow(/at most 2/);
    expect(() => buildWorkers({ pipes: three.slice(0, 2) })).not.toThrow();
  });

  it('is refused when a pipe targets a queue no worker consumes', () => {
    // Only workers that send to no queue, so the missing zip worker is the one thing amiss.
    const withoutZips = workers.filter(
      (worker) => worker.queue !== 'zip-builds' && !workerGrants[worker.queue].some((g) => g.startsWith('queue:')),
    );
    const build = () => buildWorkers({ workers: withoutZips, pipes: [{ name: 'zips', target: 'zip-builds' }] });
    expect(build).toThrow(/"zip-builds" queue, which no worker consumes/);
  });

  it('is refused when the table has no stream to read', () => {
    expect(() => buildWorkers({ pipes, stream: false })).toThrow(/stream, which is off/);
  });
});

describe('the notifications worker', () => {
  const email = {
    mailFrom: 'PhotoEdit Marketplace <no-reply@photoedit.example>',
    siteUrl: 'https://photoedit.example',
  };
  const notificationsConsumer = (stack: WorkersStack) => {
    const stackTemplate = Template.fromStack(stack);
    const [, mapping] = resourcesOfType(stackTemplate, 'AWS::Lambda::EventSourceMapping').find(([, m]) =>
      logicalIdOf(m.Properties.EventSourceArn)?.startsWith('NotificationsQueue'),
    )!;
    const [, consumer] = resourcesOfType(stackTemplate, 'AWS::Lambda::Function').find(
      ([id]) => id === logicalIdOf(mapping.Properties.FunctionName),
    )!;
    const environment = (consumer.Properties.Environment as { Variables: Properties }).Variables;
    return { stackTemplate, consumer, environment };
  };

  it('may send email and learns the sender and the site its links open; of the others only the data download worker does', () => {
    const { stackTemplate, consumer, environment } = notificationsConsumer(buildWorkers({ email }));
    expect(environment).toMatchObject({ MAIL_FROM: email.mailFrom, SITE_URL: email.siteUrl });
    const roleId = logicalIdOf(consumer.Properties.Role);
    stackTemplate.hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: roleId }],
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Action: 'ses:SendEmail' })]) },
    });
    const senders = resourcesOfType(stackTemplate, 'AWS::Lambda::Function').filter(
      ([, f]) => (f.Properties.Environment as { Variables?: Properties } | undefined)?.Variables?.MAIL_FROM,
    );
    expect(senders.map(([, f]) => f.Properties.Description).sort()).toEqual([
      'Consumes the account-exports queue',
      'Consumes the notifications queue',
    ]);
  });

  it('warns before deploying when no sender or site is configured', () => {
    const stack = buildWorkers({});
    expect(notificationsConsumer(stack).environment).not.toHaveProperty('MAIL_FROM');
    const warnings = Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('mailFrom'));
    expect(warnings).toHaveLength(1);
    expect(
      Annotations.fromStack(buildWorkers({ email })).findWarning('*', Match.stringLikeRegexp('mailFrom')),
    ).toHaveLength(0);
  });

  it('gets the sender and the site from the marketplace settings', () => {
    const { environment } = notificationsConsumer(marketplaceApp({ settings: email }).stacks.workers);
    expect(environment).toMatchObject({ MAIL_FROM: email.mailFrom, SITE_URL: email.siteUrl });
  });
});

describe('the identity worker', () => {
  it('alone of all functions may read the Firebase service account, and learns where it is', () => {
    const { stacks } = marketplaceApp();
    const readers = ['api', 'workers'].flatMap((name) => {
      const stackTemplate = Template.fromStack(stacks[name as 'api' | 'workers']);
      return resourcesOfType(stackTemplate, 'AWS::Lambda::Function')
        .filter(([, f]) =>
          JSON.stringify(
            (f.Properties.Environment as { Variables?: Properties } | undefined)?.Variables ?? {},
          ).includes('FirebaseAdminSecret'),
        )
        .map(([, f]) => f.Properties.Description);
    });
    expect(readers).toEqual(['Consumes the identity queue']);
  });

  it('is fed by the event log, which forwards the user events to its queue', () => {
    const identity = workers.find((worker) => worker.queue === 'identity')!;
    expect(identity.forwardedEvents).toEqual([
      'user_suspended',
      'user_deleted',
      'user_reactivated',
      // Account security (docs/decisions/0103): Firebase follows the email and the sign-out cutoff.
      'email_changed',
      'signed_out_everywhere',
    ]);
    expect(identity.visibilityTimeoutSeconds).toBeGreaterThanOrEqual(identity.timeoutSeconds);
  });
});

describe('each scheduled worker of the worker table', () => {
  it('runs on an EventBridge rule at its rate, without retries, with its timeout and memory', async () => {
    const { schedules } = await import('@marketplace/services/workers');
    expect(schedules.length).toBeGreaterThan(0);
    for (const schedule of schedules) {
      const [functionId, fn] = resourcesOfType(template, 'AWS::Lambda::Function').find(
        ([, f]) => f.Properties.Description === `Runs the ${schedule.name} schedule`,
      )!;
      expect(fn.Properties).toMatchObject({ Timeout: schedule.timeoutSeconds, MemorySize: schedule.memoryMb });
      const rules = resourcesOfType(template, 'AWS::Events::Rule').filter(([, rule]) =>
        JSON.stringify(rule.Properties.Targets).includes(`"${functionId}"`),
      );
      expect(rules).toHaveLength(1);
      expect(rules[0]![1].Properties).toMatchObject({
        ScheduleExpression: `rate(${schedule.everyMinutes} minutes)`,
        State: 'ENABLED',
        Targets: [expect.objectContaining({ RetryPolicy: { MaximumRetryAttempts: 0 } })],
      });
    }
  });

  it('may read the Stripe keys and learns where they are: the release of earnings sends transfers', () => {
    const [, fn] = resourcesOfType(template, 'AWS::Lambda::Function').find(
      ([, f]) => f.Properties.Description === 'Runs the release-earnings schedule',
    )!;
    const environment = (fn.Properties.Environment as { Variables: Properties }).Variables;
    expect(environment.STRIPE_SECRET_ARN).toBeDefined();
    expect(environment.STRIPE_SECRET_KEY).toBeUndefined();
  });
});
