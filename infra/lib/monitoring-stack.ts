import type { QueueName } from '@marketplace/events/order-events';
import { METRICS_NAMESPACE, type MetricName } from '@marketplace/services/adapters/metrics';
import type { WorkerDefinition } from '@marketplace/services/workers';
import { Annotations, Aws, CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import type { IHttpApi, IWebSocketApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  type IWidget,
  LogQueryWidget,
  MathExpression,
  Metric,
  TextWidget,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { EdgeStack } from './edge-stack';
import type { DeployedPipe } from './workers-stack';

/** Every alarm's name starts so; the topic and its key let CloudWatch publish for these alarms only. */
export const alarmNamePrefix = 'Marketplace-';

/** The alarms' names, as the runbook (docs/operations.md) names them. */
export const alarmNames = {
  deadLetters: (queue: QueueName) => `${alarmNamePrefix}DeadLetters-${queue}`,
  pipeDeadLetters: (pipe: string) => `${alarmNamePrefix}PipeDeadLetters-${pipe}`,
  pipeFailures: (pipe: string) => `${alarmNamePrefix}PipeFailures-${pipe}`,
  apiServerErrors: `${alarmNamePrefix}Api-5xxRate`,
  apiLatency: `${alarmNamePrefix}Api-p99Latency`,
  lambdaErrors: `${alarmNamePrefix}Lambda-Errors`,
  lambdaThrottles: `${alarmNamePrefix}Lambda-Throttles`,
  outboxDelay: `${alarmNamePrefix}OutboxDelay`,
  sesBounces: `${alarmNamePrefix}Ses-BounceRate`,
  liveIntegrationErrors: `${alarmNamePrefix}Live-IntegrationErrors`,
  /** In the edge stack (us-east-1, beside WAF's metrics), on its own topic. */
  rateLimitedClients: `${alarmNamePrefix}RateLimitedClients`,
};

/** Each threshold and the window it is judged over; docs/decisions/0071-alarms-metrics-and-dashboard.md says why each. */
export const alarmThresholds = {
  /** Any message in a dead-letter queue: work that failed every retry. One 1-minute period. */
  deadLetterMessages: 1,
  /** The HTTP API's 5xx share of requests, in per cent, over 5 minutes... */
  apiServerErrorPercent: 1,
  /** ...once at least this many 5xx answers fell in those 5 minutes: one error of a quiet hour is no incident. */
  apiServerErrorMinimum: 3,
  /** p99 of the HTTP API's latency, in 3 of 5 periods of 5 minutes. */
  apiP99LatencyMs: 3000,
  /** Failed invocations (thrown, timed out, out of memory) of all the account's functions in 5 minutes. */
  lambdaErrors: 5,
  /** Invocations refused for lack of concurrency, across the account, in 5 minutes. */
  lambdaThrottles: 5,
  /** Failed or timed-out executions of a pipe in 5 minutes. */
  pipeFailures: 1,
  /** Age of the oldest message of the order-events queue, the outbox's first stop, in seconds. */
  outboxDelaySeconds: 600,
  /** SES's account bounce rate (0 to 1): under review at 0.05, so warn well before. */
  sesBounceRate: 0.02,
  /** WebSocket integration errors (a route's function failing) in 5 minutes. */
  liveIntegrationErrors: 5,
  /**
   * Requests WAF refused in 5 minutes to clients over a rate limit. An office that brushes its
   * limit loses a few; a flood loses thousands, and so does a real client whose use outgrew it.
   */
  rateLimitedRequests: 100,
};

export interface MonitoringStackProps extends StackProps {
  /** Who the alarms email; without one the topic has no subscriber and a warning says so. */
  alarmEmail?: string;
  workers: readonly WorkerDefinition[];
  queues: ReadonlyMap<QueueName, IQueue>;
  deadLetterQueues: ReadonlyMap<QueueName, IQueue>;
  pipes: readonly DeployedPipe[];
  httpApi: IHttpApi;
  /** The HTTP API's access log (one JSON line a request), for the per-route tables. */
  apiAccessLogs: ILogGroup;
  webSocketApi: IWebSocketApi;
  /** The web ACL in front of CloudFront: its graph is here, its alarm beside its metrics in us-east-1. */
  edge: EdgeStack;
}

const minutes = (count: number) => Duration.minutes(count);

const pascalCase = (name: string) => name.replace(/(^|-)([a-z0-9])/g, (_, __, letter: string) => letter.toUpperCase());

/** A metric of the marketplace's own, written by services/src/adapters/metrics.ts (no dimensions). */
const marketplaceMetric = (metricName: MetricName, statistic: string, period = minutes(5)) =>
  new Metric({ namespace: METRICS_NAMESPACE, metricName, statistic, period });

const pipeMetric = (pipeName: string, metricName: string) =>
  new Metric({
    namespace: 'AWS/EventBridge/Pipes',
    metricName,
    dimensionsMap: { PipeName: pipeName },
    statistic: 'Sum',
    period: minutes(5),
  });

const sesMetric = (metricName: string, statistic: string, period = Duration.hours(1)) =>
  new Metric({ namespace: 'AWS/SES', metricName, statistic, period });

/**
 * CloudWatch cannot publish to a topic encrypted with SNS's AWS-managed key: the topic has a key
 * of its own whose policy lets CloudWatch use it, and a topic policy that lets CloudWatch
 * publish, both only for this account's Marketplace-* alarms. An alarm notifies topics of its own
 * region only: a stack with alarms in another region (the edge stack's, in us-east-1) makes its own.
 */
export const alarmTopic = (stack: Stack, { topicName, alarmEmail }: { topicName: string; alarmEmail?: string }) => {
  const fromOurAlarms = {
    StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID },
    ArnLike: {
      'aws:SourceArn': `arn:${Aws.PARTITION}:cloudwatch:${Aws.REGION}:${Aws.ACCOUNT_ID}:alarm:${alarmNamePrefix}*`,
    },
  };
  const key = new Key(stack, 'AlarmTopicKey', {
    description: 'Encrypts the marketplace alarm topic; CloudWatch alarms may use it to publish',
    enableKeyRotation: true,
    // The key protects notifications in flight only: nothing is lost with it.
    removalPolicy: RemovalPolicy.DESTROY,
    pendingWindow: Duration.days(7),
  });
  key.addToResourcePolicy(
    new PolicyStatement({
      principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
      actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
      resources: ['*'],
      conditions: fromOurAlarms,
    }),
  );
  const topic = new Topic(stack, 'AlarmTopic', {
    topicName,
    displayName: 'Marketplace alarms',
    masterKey: key,
    enforceSSL: true,
  });
  topic.addToResourcePolicy(
    new PolicyStatement({
      principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
      actions: ['sns:Publish'],
      resources: [topic.topicArn],
      conditions: fromOurAlarms,
    }),
  );
  if (alarmEmail) {
    topic.addSubscription(new EmailSubscription(alarmEmail));
  } else {
    Annotations.of(stack).addWarningV2(
      'marketplace:alarm-email-not-configured',
      'The alarms notify a topic nobody is subscribed to: set -c alarmEmail=<address> before deploying (SNS emails it a link to confirm).',
    );
  }
  return topic;
};

export interface AlarmOptions {
  description: string;
  threshold: number;
  evaluationPeriods?: number;
  datapointsToAlarm?: number;
  comparisonOperator?: ComparisonOperator;
}

/** An alarm as every marketplace alarm is: a Marketplace- name, and a notice when it fires and when it clears. */
export const marketplaceAlarm = (
  scope: Construct,
  action: SnsAction,
  name: string,
  metric: IMetric,
  options: AlarmOptions,
) => {
  if (!name.startsWith(alarmNamePrefix)) throw new Error(`Alarm ${name} must start with ${alarmNamePrefix}`);
  const alarm = new Alarm(scope, pascalCase(name.slice(alarmNamePrefix.length)), {
    alarmName: name,
    alarmDescription: options.description,
    metric,
    threshold: options.threshold,
    evaluationPeriods: options.evaluationPeriods ?? 1,
    ...(options.datapointsToAlarm ? { datapointsToAlarm: options.datapointsToAlarm } : {}),
    comparisonOperator: options.comparisonOperator ?? ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    // No data is no traffic (or, for the rates, too little to judge): not a failure.
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
  // The OK notification says the incident is over (a redrive emptied the queue, the API recovered).
  alarm.addAlarmAction(action);
  alarm.addOkAction(action);
  return alarm;
};

/**
 * What tells someone the marketplace is unwell, and the one place to look: an alarm for each
 * failure that needs a person, all to one encrypted SNS topic (emailed to the deploy's alarmEmail),
 * and the Marketplace dashboard. It reads the other stacks' resources and nothing reads it, so it
 * deploys last and can change without touching them.
 */
export class MonitoringStack extends Stack {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];
  readonly dashboard: Dashboard;
  private readonly action: SnsAction;

  constructor(scope: Construct, id: string, props: MonitoringStackProps) {
    super(scope, id, props);

    this.topic = alarmTopic(this, { topicName: 'Marketplace-Alarms', alarmEmail: props.alarmEmail });
    this.action = new SnsAction(this.topic);

    this.alarmOnDeadLetters(props);
    this.alarmOnPipes(props.pipes);
    const api = this.alarmOnApi(props.httpApi);
    this.alarmOnFunctions();
    this.alarmOnOutboxDelay(props.queues);
    this.alarmOnBounces();
    this.alarmOnLiveUpdates(props.webSocketApi);

    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: 'Marketplace',
      defaultInterval: Duration.hours(6),
      widgets: [
        [
          new AlarmStatusWidget({ title: 'Alarms', alarms: this.alarms, width: 18, height: 5 }),
          new TextWidget({
            markdown:
              "### Marketplace\nEach alarm says what it means and what to do in the runbook, `docs/operations.md`. `npm run ops -- status` shows the queues, the workers' last errors and the outbox.",
            width: 6,
            height: 5,
          }),
        ],
        this.businessWidgets(),
        [...api, ...this.apiByRouteWidgets(props.apiAccessLogs)],
        this.queueWidgets(props),
        this.functionWidgets(),
        [...this.pipeWidgets(props.pipes), ...this.emailWidgets(), ...this.liveWidgets(props.webSocketApi)],
        [
          new GraphWidget({
            title: 'Firewall: requests refused, per rule (us-east-1)',
            left: props.edge.refusedRequests(minutes(5)),
            width: 8,
          }),
        ],
      ],
    });

    new CfnOutput(this, 'AlarmTopicArn', {
      description: 'Every alarm of the marketplace notifies this topic; subscribe more endpoints here',
      value: this.topic.topicArn,
    });
    new CfnOutput(this, 'DashboardName', { value: 'Marketplace' });
  }

  private alarm(name: string, metric: IMetric, options: AlarmOptions) {
    const alarm = marketplaceAlarm(this, this.action, name, metric, options);
    this.alarms.push(alarm);
    return alarm;
  }

  /** From the worker table, so a queue added there is watched without a line here. */
  private alarmOnDeadLetters({ workers, deadLetterQueues }: MonitoringStackProps) {
    for (const worker of workers) {
      const deadLetterQueue = deadLetterQueues.get(worker.queue);
      if (!deadLetterQueue) throw new Error(`The ${worker.queue} queue has no dead-letter queue to watch`);
      this.alarm(
        alarmNames.deadLetters(worker.queue),
        deadLetterQueue.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', period: minutes(1) }),
        {
          description: `Messages of the ${worker.queue} queue failed ${worker.maxReceiveCount} times and wait in its dead-letter queue. Runbook: docs/operations.md, "Dead-letter queue holds a message".`,
          threshold: alarmThresholds.deadLetterMessages,
        },
      );
    }
  }

  private alarmOnPipes(pipes: readonly DeployedPipe[]) {
    for (const { definition, pipeName, deadLetterQueue } of pipes) {
      this.alarm(
        alarmNames.pipeDeadLetters(definition.name),
        deadLetterQueue.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', period: minutes(1) }),
        {
          description: `Outbox records of the ${definition.name} pipe could not be sent to the ${definition.target} queue; the stream keeps them for 24 hours. Runbook: docs/operations.md, "A pipe's dead-letter queue".`,
          threshold: alarmThresholds.deadLetterMessages,
        },
      );
      this.alarm(
        alarmNames.pipeFailures(definition.name),
        new MathExpression({
          expression: 'failed + timedOut',
          usingMetrics: {
            failed: pipeMetric(pipeName, 'ExecutionFailed'),
            timedOut: pipeMetric(pipeName, 'ExecutionTimeout'),
          },
          label: `${definition.name} pipe: failed and timed-out executions`,
          period: minutes(5),
        }),
        {
          description: `The ${definition.name} pipe failed to send outbox records to the ${definition.target} queue (it retries 10 times, then its dead-letter queue). Runbook: docs/operations.md, "Pipe failures".`,
          threshold: alarmThresholds.pipeFailures,
        },
      );
    }
  }

  /** The HTTP API's alarms; returns its dashboard graphs. */
  private alarmOnApi(httpApi: IHttpApi): IWidget[] {
    const period = minutes(5);
    const serverErrors = httpApi.metricServerError({ statistic: 'Sum', period, label: '5xx' });
    const requests = httpApi.metricCount({ statistic: 'Sum', period, label: 'Requests' });
    const serverErrorRate = new MathExpression({
      expression: `IF(errors >= ${alarmThresholds.apiServerErrorMinimum}, 100 * errors / requests, 0)`,
      usingMetrics: { errors: serverErrors, requests },
      label: '5xx, % of requests',
      period,
    });
    const rateAlarm = this.alarm(alarmNames.apiServerErrors, serverErrorRate, {
      description: `At least ${alarmThresholds.apiServerErrorMinimum} answers and ${alarmThresholds.apiServerErrorPercent} % of the HTTP API's requests were 5xx in 5 minutes. Runbook: docs/operations.md, "API 5xx rate".`,
      threshold: alarmThresholds.apiServerErrorPercent,
    });
    const p99 = httpApi.metricLatency({ statistic: 'p99', period, label: 'p99' });
    const latencyAlarm = this.alarm(alarmNames.apiLatency, p99, {
      description: `The slowest 1 % of the HTTP API's requests took over ${alarmThresholds.apiP99LatencyMs / 1000} s in 3 of the last 5 periods of 5 minutes. Runbook: docs/operations.md, "API p99 latency".`,
      threshold: alarmThresholds.apiP99LatencyMs,
      evaluationPeriods: 5,
      datapointsToAlarm: 3,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    });
    return [
      new GraphWidget({
        title: 'API requests and errors',
        left: [requests, httpApi.metricClientError({ statistic: 'Sum', period, label: '4xx' }), serverErrors],
        width: 8,
      }),
      new GraphWidget({
        title: 'API 5xx rate (%)',
        left: [serverErrorRate],
        leftAnnotations: [rateAlarm.toAnnotation()],
        width: 4,
      }),
      new GraphWidget({
        title: 'API latency (ms)',
        left: [httpApi.metricLatency({ statistic: 'p50', period, label: 'p50' }), p99],
        leftAnnotations: [latencyAlarm.toAnnotation()],
        width: 6,
      }),
    ];
  }

  /**
   * Account-wide: every function of the account and region (the marketplace's and the CDK's own
   * helpers), in one alarm each. One per function would be a hundred alarms, and metric math
   * takes ten metrics at most.
   */
  private alarmOnFunctions() {
    const period = minutes(5);
    this.alarm(alarmNames.lambdaErrors, LambdaFunction.metricAllErrors({ statistic: 'Sum', period }), {
      description: `${alarmThresholds.lambdaErrors} or more function invocations failed (thrown, timed out, out of memory) in 5 minutes, across the account. Runbook: docs/operations.md, "Lambda errors".`,
      threshold: alarmThresholds.lambdaErrors,
    });
    this.alarm(alarmNames.lambdaThrottles, LambdaFunction.metricAllThrottles({ statistic: 'Sum', period }), {
      description: `${alarmThresholds.lambdaThrottles} or more function invocations were refused for lack of concurrency in 5 minutes, across the account. Runbook: docs/operations.md, "Lambda throttles".`,
      threshold: alarmThresholds.lambdaThrottles,
    });
  }

  /**
   * Pipes publish no iterator age, nor does DynamoDB Streams: the age of the oldest message of the
   * order-events queue, where every outbox record goes first, is the delay we can see.
   */
  private alarmOnOutboxDelay(queues: ReadonlyMap<QueueName, IQueue>) {
    const orderEvents = queues.get('order-events');
    if (!orderEvents) throw new Error('No order-events queue: the outbox delay has nothing to watch');
    this.alarm(
      alarmNames.outboxDelay,
      orderEvents.metricApproximateAgeOfOldestMessage({ statistic: 'Maximum', period: minutes(5) }),
      {
        description: `An order event has waited over ${alarmThresholds.outboxDelaySeconds / 60} minutes in the order-events queue: emails, thumbnails and live updates are late. Runbook: docs/operations.md, "Stream iterator age".`,
        threshold: alarmThresholds.outboxDelaySeconds,
      },
    );
  }

  private alarmOnBounces() {
    this.alarm(alarmNames.sesBounces, sesMetric('Reputation.BounceRate', 'Maximum'), {
      description: `The account's SES bounce rate reached ${alarmThresholds.sesBounceRate * 100} % (SES reviews the account at 5 %, may stop its sending at 10 %). Runbook: docs/operations.md, "SES bounces".`,
      threshold: alarmThresholds.sesBounceRate,
    });
  }

  private alarmOnLiveUpdates(webSocketApi: IWebSocketApi) {
    this.alarm(
      alarmNames.liveIntegrationErrors,
      webSocketApi.metric('IntegrationError', { statistic: 'Sum', period: minutes(5) }),
      {
        description: `The WebSocket API's route functions ($connect, $disconnect) failed ${alarmThresholds.liveIntegrationErrors} times or more in 5 minutes: tabs cannot connect for live updates.`,
        threshold: alarmThresholds.liveIntegrationErrors,
      },
    );
  }

  private businessWidgets(): IWidget[] {
    const hour = Duration.hours(1);
    return [
      new GraphWidget({
        title: 'Orders paid (per hour)',
        left: [marketplaceMetric('OrdersPaid', 'Sum', hour)],
        width: 4,
      }),
      new GraphWidget({
        title: 'Revenue (USD per hour)',
        // Written in cents, like every amount of the marketplace; shown in dollars.
        left: [
          new MathExpression({
            expression: 'cents / 100',
            usingMetrics: { cents: marketplaceMetric('Revenue', 'Sum', hour) },
            label: 'Revenue, USD',
            period: hour,
          }),
        ],
        width: 4,
      }),
      new GraphWidget({
        title: 'Claim conflicts, Stripe errors',
        left: [marketplaceMetric('ClaimConflicts', 'Sum'), marketplaceMetric('StripeErrors', 'Sum')],
        width: 6,
      }),
      new GraphWidget({
        title: 'Zip build (seconds)',
        left: [marketplaceMetric('ZipBuildSeconds', 'p50', hour), marketplaceMetric('ZipBuildSeconds', 'p90', hour)],
        width: 5,
      }),
      new GraphWidget({
        title: 'Thumbnail failures',
        left: [marketplaceMetric('ThumbnailFailures', 'Sum')],
        width: 5,
      }),
    ];
  }

  /** Per route, from the access log: the HTTP API's own metrics are per API unless detailed (and billed per route). */
  private apiByRouteWidgets(accessLogs: ILogGroup): IWidget[] {
    return [
      new LogQueryWidget({
        title: 'Slowest routes (access log)',
        logGroupNames: [accessLogs.logGroupName],
        queryLines: [
          'fields routeKey, responseLatency',
          'stats count(*) as requests, pct(responseLatency, 50) as p50, pct(responseLatency, 99) as p99 by routeKey',
          'sort p99 desc',
          'limit 10',
        ],
        width: 6,
      }),
    ];
  }

  private queueWidgets({ workers, queues, deadLetterQueues, pipes }: MonitoringStackProps): IWidget[] {
    const period = minutes(1);
    const workQueues = workers.map((worker) => ({ name: worker.queue, queue: queues.get(worker.queue) }));
    const waiting: IMetric[] = [];
    const oldest: IMetric[] = [];
    for (const { name, queue } of workQueues) {
      if (!queue) continue;
      waiting.push(queue.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', period, label: name }));
      oldest.push(queue.metricApproximateAgeOfOldestMessage({ statistic: 'Maximum', period, label: name }));
    }
    const deadLetters: IMetric[] = [
      ...workers.flatMap((worker) => {
        const queue = deadLetterQueues.get(worker.queue);
        return queue
          ? [queue.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', period, label: worker.queue })]
          : [];
      }),
      ...pipes.map(({ definition, deadLetterQueue }) =>
        deadLetterQueue.metricApproximateNumberOfMessagesVisible({
          statistic: 'Maximum',
          period,
          label: `${definition.name} (pipe)`,
        }),
      ),
    ];
    return [
      new GraphWidget({ title: 'Messages waiting, per queue', left: waiting, width: 8 }),
      new GraphWidget({ title: 'Age of the oldest message (s), per queue', left: oldest, width: 8 }),
      new GraphWidget({ title: 'Dead letters', left: deadLetters, width: 8 }),
    ];
  }

  private functionWidgets(): IWidget[] {
    const period = minutes(5);
    return [
      new GraphWidget({
        title: 'Functions: errors and throttles (account)',
        left: [
          LambdaFunction.metricAllErrors({ statistic: 'Sum', period, label: 'Errors' }),
          LambdaFunction.metricAllThrottles({ statistic: 'Sum', period, label: 'Throttles' }),
        ],
        width: 8,
      }),
      new GraphWidget({
        title: 'Functions: concurrent executions (account)',
        left: [LambdaFunction.metricAllConcurrentExecutions({ statistic: 'Maximum', period: minutes(1) })],
        width: 8,
      }),
      new GraphWidget({
        title: 'Functions with the most errors',
        // CloudWatch Metrics Insights: the ten functions with the most errors, by name.
        left: [
          new MathExpression({
            expression:
              'SELECT SUM(Errors) FROM SCHEMA("AWS/Lambda", FunctionName) GROUP BY FunctionName ORDER BY SUM() DESC LIMIT 10',
            usingMetrics: {},
            label: 'Errors',
            period,
          }),
        ],
        width: 8,
      }),
    ];
  }

  private pipeWidgets(pipes: readonly DeployedPipe[]): IWidget[] {
    return [
      new GraphWidget({
        title: 'Pipes: outbox records delivered',
        left: pipes.map(({ definition, pipeName }) =>
          pipeMetric(pipeName, 'EventCount').with({ label: `${definition.name}` }),
        ),
        width: 6,
      }),
      new GraphWidget({
        title: 'Pipes: failed, timed out, throttled',
        left: pipes.flatMap(({ definition, pipeName }) => [
          pipeMetric(pipeName, 'ExecutionFailed').with({ label: `${definition.name} failed` }),
          pipeMetric(pipeName, 'ExecutionTimeout').with({ label: `${definition.name} timed out` }),
          pipeMetric(pipeName, 'ExecutionThrottled').with({ label: `${definition.name} throttled` }),
        ]),
        width: 6,
      }),
    ];
  }

  private emailWidgets(): IWidget[] {
    return [
      new GraphWidget({
        title: 'Email (SES): sent, delivered, bounced, complaints',
        left: ['Send', 'Delivery', 'Bounce', 'Complaint'].map((name) =>
          sesMetric(name, 'Sum', minutes(5)).with({ label: name }),
        ),
        right: [sesMetric('Reputation.BounceRate', 'Maximum').with({ label: 'Bounce rate' })],
        width: 6,
      }),
    ];
  }

  private liveWidgets(webSocketApi: IWebSocketApi): IWidget[] {
    const period = minutes(5);
    return [
      new GraphWidget({
        title: 'Live updates (WebSocket)',
        left: ['ConnectCount', 'MessageCount', 'IntegrationError', 'ClientError'].map((name) =>
          webSocketApi.metric(name, { statistic: 'Sum', period, label: name }),
        ),
        width: 6,
      }),
    ];
  }
}
