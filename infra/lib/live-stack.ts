import { LIVE_PATH } from '@marketplace/events/live-updates';
import {
  LIVE_PING_ROUTE,
  LIVE_ROUTE_SELECTION,
  type LiveFunctionDefinition,
  type LiveRouteDefinition,
  liveAuthorizer,
  liveRoutes,
} from '@marketplace/services/live-routes';
import { ArnFormat, Aws, CfnOutput, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { AccessLogFormat, CfnAccount } from 'aws-cdk-lib/aws-apigateway';
import {
  CfnIntegrationResponse,
  WebSocketApi,
  type WebSocketIntegration,
  WebSocketStage,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { WebSocketLambdaIntegration, WebSocketMockIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { defaultRouteTimeoutSeconds, routeMemoryMb } from './api-stack';
import { grantAccess, type LiveEndpoint, type ServiceResources, serviceEnvironment } from './service-access';
import { serviceFunction } from './service-function';
import { photosBucketName } from './storage-stack';

export interface LiveStackProps extends StackProps {
  table: ITable;
  /** Firebase project whose ID tokens the $connect authorizer accepts. */
  firebaseProjectId: string;
}

/**
 * The stage is named after the browser's path (/live), so CloudFront passes /live to the API as
 * it is: API Gateway answers a WebSocket only at /{stage}, and a path past the stage is a 403.
 */
export const liveStageName = LIVE_PATH.slice(1);
if (!/^[a-z][a-z0-9-]*$/.test(liveStageName)) {
  throw new Error(`LIVE_PATH "${LIVE_PATH}" must be one path segment, which names the WebSocket stage`);
}

/**
 * Connects and messages per second from the tabs, across the stage (steady, and a burst). A tab
 * connects once and pings every 5 minutes: the 2,300 tabs of docs/scale.md's peak make about 8
 * messages a second. The burst is the account's quota of new connections a second, so a wave of
 * reconnects after a deploy meets that quota, not a lower one of ours; a runaway client is cut off
 * at the steady rate, the HTTP API's.
 */
export const liveThrottle = { rateLimit: 200, burstLimit: 500 };

/**
 * One JSON line per connect, message and disconnect: who (the authorizer's user, IP), which
 * connection, which route, the answer, and why it failed. Never the query string, which holds
 * the ID token.
 */
export const liveAccessLogFormat = {
  requestId: '$context.requestId',
  requestTime: '$context.requestTime',
  ip: '$context.identity.sourceIp',
  user: '$context.authorizer.userId',
  connectionId: '$context.connectionId',
  eventType: '$context.eventType',
  routeKey: '$context.routeKey',
  status: '$context.status',
  integrationStatus: '$context.integration.status',
  integrationLatency: '$context.integration.latency',
  integrationError: '$context.integration.error',
  authorizerError: '$context.authorizer.error',
  error: '$context.error.messageString',
};

/** Why each route without an authorizer needs none (cdk-nag AwsSolutions-APIG4). */
const unauthorizedRouteReason =
  'A WebSocket API authorizes once, at $connect (API Gateway allows an authorizer on no other route): this route only ever runs on a connection the authorizer let in.';

const functionName = (routeKey: string) => {
  const name = routeKey.replace(/^\$/, '');
  return `${name[0]!.toUpperCase()}${name.slice(1)}`;
};

/**
 * Live updates: the WebSocket API each signed-in tab keeps open, from the WebSocket route table
 * (services/src/live-routes.ts): its $connect authorizer, one function per route, and the ping
 * route the gateway answers itself. In a stack of its own because the API stack is close to
 * CloudFormation's 500 resources; the push worker (workers stack) posts to it through `endpoint`.
 */
export class LiveStack extends Stack {
  readonly webSocketApi: WebSocketApi;
  readonly stage: WebSocketStage;
  /** Host name of the API's default endpoint, for CloudFront's /live origin. */
  readonly apiDomainName: string;
  /** The stage's connections, for the functions granted 'live:post'. */
  readonly endpoint: LiveEndpoint;
  private readonly resources: ServiceResources;

  constructor(scope: Construct, id: string, props: LiveStackProps) {
    super(scope, id, props);

    this.resources = {
      table: props.table,
      photosBucket: Bucket.fromBucketName(this, 'PhotosBucket', photosBucketName()),
      queues: new Map(),
      firebaseProjectId: props.firebaseProjectId,
    };

    this.webSocketApi = new WebSocketApi(this, 'LiveApi', {
      description: 'Photo-editing marketplace live updates: one WebSocket per signed-in tab',
      routeSelectionExpression: LIVE_ROUTE_SELECTION,
    });

    // No result cache: API Gateway offers none for WebSocket authorizers, and $connect runs once a connection.
    const authorizer = new WebSocketLambdaAuthorizer(
      'LiveAuthorizer',
      this.liveFunction('Authorizer', liveAuthorizer, 'WebSocket $connect authorizer'),
      { identitySource: [liveAuthorizer.identitySource] },
    );
    if (!liveRoutes.some((route) => route.routeKey === '$connect')) {
      throw new Error('The WebSocket route table has no $connect route for the authorizer');
    }
    for (const route of liveRoutes) this.addFunctionRoute(route, authorizer);
    this.addPingRoute();

    this.stage = new WebSocketStage(this, 'LiveStage', {
      webSocketApi: this.webSocketApi,
      stageName: liveStageName,
      description: 'The stage the site serves at /live',
      autoDeploy: true,
      throttle: liveThrottle,
      accessLogSettings: {
        destination: { bind: () => ({ destinationArn: this.accessLogGroupArn() }) },
        format: AccessLogFormat.custom(JSON.stringify(liveAccessLogFormat)),
      },
    });
    this.stage.node.addDependency(this.setApiGatewayLoggingRole());

    this.apiDomainName = `${this.webSocketApi.apiId}.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}`;
    this.endpoint = {
      // arn:...:execute-api:{region}:{account}:{apiId}/{stage}/ ; the grant appends {METHOD}/@connections/*.
      stageArn: this.formatArn({
        service: 'execute-api',
        resource: this.webSocketApi.apiId,
        resourceName: `${this.stage.stageName}/`,
      }),
      managementUrl: this.stage.callbackUrl,
    };

    new CfnOutput(this, 'LiveUrl', { value: this.stage.url });
  }

  /** One function per entry of the WebSocket route table, with exactly the grants the table lists. */
  private liveFunction(name: string, definition: LiveFunctionDefinition, description: string) {
    const fn = serviceFunction(this, `${name}Function`, {
      module: `handlers/${definition.handler}`,
      description,
      timeoutSeconds: defaultRouteTimeoutSeconds,
      memoryMb: routeMemoryMb,
      environment: serviceEnvironment(this, definition.grants, this.resources),
      inlineGrants: true,
    });
    grantAccess(fn, definition.grants, this.resources);
    return fn;
  }

  private addFunctionRoute(route: LiveRouteDefinition, authorizer: WebSocketLambdaAuthorizer) {
    const name = functionName(route.routeKey);
    const routeFunction = this.liveFunction(name, route, `WebSocket ${route.routeKey}`);
    // API Gateway takes an authorizer on $connect only; every later message rides on that connection.
    const webSocketRoute = this.webSocketApi.addRoute(route.routeKey, {
      integration: new WebSocketLambdaIntegration(`${name}Integration`, routeFunction),
      ...(route.routeKey === '$connect' ? { authorizer } : {}),
    });
    if (route.routeKey !== '$connect') {
      Validations.of(webSocketRoute).acknowledge({ id: 'AwsSolutions-APIG4', reason: unauthorizedRouteReason });
    }
  }

  /**
   * The tab's keep-alive ({"action":"ping"}): a MOCK integration, so no function runs for it, and
   * no route response, so nothing is sent back (a reply would be one more billed message). The
   * request template gives the mock its status code and the integration response something to
   * select; the message itself is what keeps the connection from its 10-minute idle timeout.
   */
  private addPingRoute() {
    const integrationId = 'PingIntegration';
    const pingRoute = this.webSocketApi.addRoute(LIVE_PING_ROUTE, {
      integration: new WebSocketMockIntegration(integrationId, {
        requestTemplates: { $default: JSON.stringify({ statusCode: 200 }) },
        templateSelectionExpression: '\\$default',
      }),
    });
    Validations.of(pingRoute).acknowledge({ id: 'AwsSolutions-APIG4', reason: unauthorizedRouteReason });
    const integration = pingRoute.node.tryFindChild(integrationId) as WebSocketIntegration | undefined;
    if (!integration) throw new Error('WebSocketMockIntegration no longer creates its integration under the route');
    new CfnIntegrationResponse(pingRoute, 'IntegrationResponse', {
      apiId: this.webSocketApi.apiId,
      integrationId: integration.integrationId,
      integrationResponseKey: '$default',
    });
  }

  /** The stage's access log group, by the ARN API Gateway takes: without the ":*" of its Arn attribute. */
  private accessLogGroupArn() {
    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: RetentionDays.THREE_MONTHS,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    return this.formatArn({
      service: 'logs',
      resource: 'log-group',
      resourceName: accessLogs.logGroupName,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
  }

  /**
   * Unlike an HTTP API, a WebSocket stage writes its access logs through the account's API Gateway
   * CloudWatch role (one per account and region); without one the stage fails to deploy ("CloudWatch
   * Logs role ARN must be set in account settings"). This sets it, and keeps both when the stack
   * goes, since other APIs of the account may log through it by then.
   */
  private setApiGatewayLoggingRole() {
    const role = new Role(this, 'ApiGatewayLogsRole', {
      description: "API Gateway's account-wide role for writing REST and WebSocket API logs to CloudWatch Logs",
      assumedBy: new ServicePrincipal('apigateway.amazonaws.com'),
      managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('service-role/AmazonAPIGatewayPushToCloudWatchLogs')],
    });
    role.applyRemovalPolicy(RemovalPolicy.RETAIN);
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      reason:
        "API Gateway's account logging role, used for every REST and WebSocket API of the account and region: AWS's policy for exactly that role, as API Gateway names the execution log groups it creates itself.",
    });
    const account = new CfnAccount(this, 'ApiGatewayAccount', { cloudWatchRoleArn: role.roleArn });
    account.applyRemovalPolicy(RemovalPolicy.RETAIN);
    return account;
  }
}
