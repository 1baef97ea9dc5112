import type { QueueName } from '@marketplace/events/order-events';
import { type RouteDefinition, routeKey, routeName } from '@marketplace/services/routes';
import {
  Annotations,
  ArnFormat,
  Aws,
  CfnOutput,
  RemovalPolicy,
  Stack,
  type StackProps,
  Validations,
} from 'aws-cdk-lib';
import {
  type CfnStage,
  HttpApi,
  HttpIntegrationType,
  HttpMethod,
  HttpNoneAuthorizer,
  HttpRouteIntegration,
  type HttpRouteIntegrationConfig,
  IntegrationCredentials,
  PayloadFormatVersion,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { type IRole, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { type EmailSettings, grantAccess, type ServiceResources, serviceEnvironment } from './service-access';
import { serviceFunction } from './service-function';
import { photosBucketName } from './storage-stack';

export interface ApiStackProps extends StackProps {
  routes: readonly RouteDefinition[];
  table: ITable;
  queues: ReadonlyMap<QueueName, IQueue>;
  /** The Stripe keys, readable by the routes granted 'stripe'. */
  stripeSecret: ISecret;
  /** A Firebase service account key, for routes granted 'identity:admin' (none are: the identity worker holds it). */
  firebaseAdminSecret?: ISecret;
  firebaseProjectId: string;
  /** For the routes granted 'email:send'. */
  email?: Partial<EmailSettings>;
}

/**
 * A Lambda proxy integration that API Gateway invokes as one role of the API's, instead of through
 * a resource policy on each function: HttpLambdaIntegration adds a Lambda permission per route,
 * one CloudFormation resource a route, and the stack holds at most 500. Same payload (2.0).
 */
class HttpLambdaIntegrationAsRole extends HttpRouteIntegration {
  constructor(
    id: string,
    private readonly handler: IFunction,
    private readonly invoker: IRole,
  ) {
    super(id);
  }

  bind(): HttpRouteIntegrationConfig {
    return {
      type: HttpIntegrationType.AWS_PROXY,
      uri: this.handler.functionArn,
      payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
      credentials: IntegrationCredentials.fromRole(this.invoker),
    };
  }
}

/** Plain table reads and writes answer well within this; slower routes say so in the route table. */
export const defaultRouteTimeoutSeconds = 10;
/** CPU scales with memory: 512 MB keeps cold starts of the bundled SDK short at a small cost. */
export const routeMemoryMb = 512;

/** Requests per second across the API (steady, and a burst): far above a busy day's traffic. */
export const apiThrottle = { rateLimit: 200, burstLimit: 400 };

/**
 * Why each public route carries no token (cdk-nag AwsSolutions-APIG4). A new public route must
 * say why here, or the stack refuses to build.
 */
export const publicRouteReasons: Record<string, string> = {
  'GET /api/health': 'Health check for monitors; reads one item and reveals nothing about any account.',
  'POST /api/webhooks/stripe':
    "Stripe calls it without a Firebase token; the handler verifies Stripe's signature over the raw body.",
  'POST /api/stripe/connect-webhook':
    "Stripe's Connect events come without a Firebase token; the handler verifies the signature of the Connect endpoint's own secret over the raw body.",
  'GET /api/auth/verify-invitation':
    'The invited editor has no account yet; the single-use invitation token in the request is the credential.',
  'POST /api/auth/complete-signup':
    'The invited editor has no account yet; the single-use invitation token in the request is the credential.',
  'GET /api/share/{token}':
    "The photographer's client has no account; the share link's token (256 random bits, stored hashed, revocable, expiring) is the credential.",
  'GET /api/share/{token}/downloads/{kind}':
    "The photographer's client has no account; the share link's token (256 random bits, stored hashed, revocable, expiring) is the credential.",
  'GET /api/account/email-change/{token}':
    "Opened from the new address's mailbox, perhaps signed out; the email-change link's token (256 random bits, stored hashed, single-use, expiring in a day) is the credential.",
  'POST /api/account/email-change/{token}':
    "Opened from the new address's mailbox, perhaps signed out; the email-change link's token (256 random bits, stored hashed, single-use, expiring in a day) is the credential.",
  'ANY /api/{proxy+}': 'The catch-all answers a JSON 404 for unknown paths and touches nothing (no grants).',
};

/**
 * One JSON line per request in the API's access log: who (Firebase uid, IP), what (route, status),
 * how long, and why it failed when the authorizer or the function did. No headers, bodies or query strings.
 */
export const accessLogFormat = {
  requestId: '$context.requestId',
  requestTime: '$context.requestTime',
  ip: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
  user: '$context.authorizer.claims.sub',
  routeKey: '$context.routeKey',
  path: '$context.path',
  status: '$context.status',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  integrationError: '$context.integrationErrorMessage',
  authorizerError: '$context.authorizer.error',
};

export const firebaseIssuer = (projectId: string) => `https://securetoken.google.com/${projectId}`;

/** The HTTP API: one function per entry of the route table, behind Firebase's JWT authorizer. */
export class ApiStack extends Stack {
  readonly httpApi: HttpApi;
  /** One JSON line per request (accessLogFormat), for the dashboard's per-route queries. */
  readonly accessLogs: LogGroup;
  /** Host name of the API's default endpoint, for CloudFront's /api/* origin. */
  readonly apiDomainName: string;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);

    if (props.firebaseProjectId.startsWith('demo-')) {
      Annotations.of(this).addWarningV2(
        'marketplace:demo-firebase-project',
        `Firebase project "${props.firebaseProjectId}" exists only in the emulator: no real sign-in will pass the authorizer. Set -c firebaseProjectId=<your project id> before deploying.`,
      );
    }

    const { mailFrom, siteUrl } = props.email ?? {};
    if (props.routes.some((r) => r.grants.includes('email:send')) && !(mailFrom && siteUrl)) {
      Annotations.of(this).addWarningV2(
        'marketplace:email-not-configured',
        'Invitation emails need -c mailFrom=<an SES-verified sender> and -c siteUrl=<the SiteUrl output> before deploying.',
      );
    }

    // Every route needs a valid Firebase ID token unless the route table marks it public.
    const firebaseAuthorizer = new HttpJwtAuthorizer('FirebaseAuthorizer', firebaseIssuer(props.firebaseProjectId), {
      jwtAudience: [props.firebaseProjectId],
      identitySource: ['$request.header.Authorization'],
    });
    this.httpApi = new HttpApi(this, 'HttpApi', {
      description: 'Photo-editing marketplace API',
      defaultAuthorizer: firebaseAuthorizer,
    });
    // A ceiling on the whole API so a runaway client cannot run up Lambda and DynamoDB costs.
    const defaultStage = this.httpApi.defaultStage?.node.defaultChild as CfnStage | undefined;
    defaultStage?.addPropertyOverride('DefaultRouteSettings', {
      ThrottlingBurstLimit: apiThrottle.burstLimit,
      ThrottlingRateLimit: apiThrottle.rateLimit,
    });
    // Access logs: who called which route, with what answer (cdk-nag AwsSolutions-APIG1).
    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: RetentionDays.THREE_MONTHS,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.accessLogs = accessLogs;
    if (defaultStage) {
      // Set on the L1 stage itself (not an override) so the template and cdk-nag both see it.
      defaultStage.accessLogSettings = {
        // The log group's own ARN, without the ":*" its Arn attribute ends with, which API Gateway refuses.
        destinationArn: this.formatArn({
          service: 'logs',
          resource: 'log-group',
          resourceName: accessLogs.logGroupName,
          arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        }),
        format: JSON.stringify(accessLogFormat),
      };
    }
    this.apiDomainName = `${this.httpApi.apiId}.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}`;

    const resources: ServiceResources = {
      table: props.table,
      photosBucket: Bucket.fromBucketName(this, 'PhotosBucket', photosBucketName()),
      queues: props.queues,
      firebaseProjectId: props.firebaseProjectId,
      stripeSecret: props.stripeSecret,
      ...(props.firebaseAdminSecret ? { firebaseAdminSecret: props.firebaseAdminSecret } : {}),
      ...(mailFrom && siteUrl ? { email: { mailFrom, siteUrl } } : {}),
    };

    // API Gateway invokes the route functions as this role: only this API may use it, and it may
    // invoke this stack's functions only (their names start with the stack's).
    const invoker = new Role(this, 'RouteInvokeRole', {
      description: "Lets the HTTP API invoke its routes' functions",
      assumedBy: new ServicePrincipal('apigateway.amazonaws.com', {
        conditions: {
          StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID },
          ArnLike: { 'aws:SourceArn': this.formatArn({ service: 'execute-api', resource: `${this.httpApi.apiId}/*` }) },
        },
      }),
    });
    const routeFunctions = this.formatArn({
      service: 'lambda',
      resource: 'function',
      resourceName: `${this.stackName}-*`,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    invoker.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [routeFunctions] }),
    );
    Validations.of(invoker).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:lambda:<AWS::Region>:<AWS::AccountId>:function:${this.stackName}-*]`,
      reason:
        "One function per route, named by CloudFormation after this stack: the stack's prefix names exactly them, and a statement per function would outgrow an IAM policy.",
    });

    for (const route of props.routes) {
      const name = routeName(route);
      const routeFunction = serviceFunction(this, `${name}Function`, {
        module: `handlers/${route.handler}`,
        description: routeKey(route),
        timeoutSeconds: route.timeoutSeconds ?? defaultRouteTimeoutSeconds,
        memoryMb: routeMemoryMb,
        environment: serviceEnvironment(this, route.grants, resources),
        inlineGrants: true,
      });
      grantAccess(routeFunction, route.grants, resources);
      // Payload format 2.0 passes the body through untouched, which raw-body (webhook) routes rely on.
      const httpRoutes = this.httpApi.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: new HttpLambdaIntegrationAsRole(`${name}Integration`, routeFunction, invoker),
        ...(route.allow === 'public' ? { authorizer: new HttpNoneAuthorizer() } : {}),
      });
      if (route.allow === 'public') {
        const reason = publicRouteReasons[routeKey(route)];
        if (!reason)
          throw new Error(`${routeKey(route)} is public: say why in publicRouteReasons (infra/lib/api-stack.ts)`);
        for (const httpRoute of httpRoutes) Validations.of(httpRoute).acknowledge({ id: 'AwsSolutions-APIG4', reason });
      }
    }

    new CfnOutput(this, 'ApiEndpoint', { value: this.httpApi.apiEndpoint });
  }
}
