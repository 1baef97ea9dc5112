import type { QueueName } from '@marketplace/events/order-events';
import { type RouteDefinition, routeKey, routeName } from '@marketplace/services/routes';
import {
  Annotations,
  ArnFormat,
  Aws,
  CfnOutput,
  NestedStack,
  type NestedStackProps,
  RemovalPolicy,
  Stack,
  type StackProps,
  Validations,
} from 'aws-cdk-lib';
import {
  type CfnStage,
  HttpApi,
  HttpIntegration,
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
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { type EmailSettings, grantAccess, type ServiceResources, serviceEnvironment } from './service-access';
import { InlineGrantsRole, serviceFunction } from './service-function';
import { photosBucketName } from './storage-stack';

export interface ApiStackProps extends StackProps {
  routes: readonly RouteDefinition[];
  table: ITable;
  queues: ReadonlyMap<QueueName, IQueue>;
  /** The Stripe keys, readable by the routes granted 'stripe'. */
  stripeSecret: ISecret;
  /** A Firebase service account key, for routes granted 'identity:admin' (none are: the identity worker holds it). */
  firebaseAdminSecret?: ISecret;
  /** The unsubscribe links' signing key, for the routes granted 'unsubscribe:key'. */
  unsubscribeKeySecret?: ISecret;
  firebaseProjectId: string;
  /** The project's public web API key: the password route calls Identity Toolkit as the user with it. */
  firebaseApiKey?: string;
  /** For the routes granted 'email:send'. */
  email?: Partial<EmailSettings>;
}

/**
 * A route's integration made in its route group (a nested stack): the API stack's route targets
 * it by id, so the route itself stays in the API stack, and the integration, like the function
 * it invokes, counts against the group's 500 resources instead.
 */
class RouteGroupIntegration extends HttpRouteIntegration {
  constructor(
    id: string,
    private readonly madeInGroup: HttpIntegration,
    private readonly groupConfig: HttpRouteIntegrationConfig,
  ) {
    super(id);
  }

  bind(): HttpRouteIntegrationConfig {
    return this.groupConfig;
  }

  /** The integration exists already, in the route's group: the route is given its id, and nothing is made here. */
  override _bindToRoute(): { readonly integrationId: string } {
    return { integrationId: this.madeInGroup.integrationId };
  }
}

/**
 * The area of the route table a route belongs to: the folder of its handler under
 * services/src/handlers ("admin/list-users" is in "admin"). Each area's functions are one route group.
 */
export const routeArea = (route: Pick<RouteDefinition, 'handler'>) => route.handler.split('/')[0]!;

/** "payment-methods" -> "PaymentMethodsRoutes": the logical id of an area's nested stack. */
export const routeGroupId = (area: string) =>
  `${area.replace(/(^|[^A-Za-z0-9]+)([A-Za-z0-9])/g, (_, __, letter: string) => letter.toUpperCase())}Routes`;

/**
 * The most routes one group may hold. A route costs its group four resources (function, role,
 * log group, integration), so 60 fill 241 of a nested stack's 500; and the group's invoke role
 * names each function's ARN (at most 122 characters) in its inline policy, which IAM caps at
 * 10,240 characters a role: 60 of them take about 7,500 (test/stack-sizes.test.ts). An area that
 * outgrows it is split into two handler folders.
 */
export const maxRoutesPerGroup = 60;

export interface RouteGroupProps extends NestedStackProps {
  area: string;
  routes: readonly RouteDefinition[];
  httpApi: HttpApi;
  resources: ServiceResources;
}

/**
 * One area of the route table in a nested stack of the API stack: per route its function, the
 * function's role (exactly the route's grants, inline) and log group, and the integration the
 * API stack's route targets; and one role API Gateway invokes these functions as, which may
 * invoke exactly them. CloudFormation holds 500 resources a stack, nested stacks included, and
 * the API stack keeps one resource a route (the route).
 */
export class RouteGroup extends NestedStack {
  readonly area: string;
  /** The functions of this group, by route key. */
  readonly functions = new Map<string, IFunction>();
  /** The integration of each route of this group, by route key. */
  readonly integrations = new Map<string, RouteGroupIntegration>();

  constructor(scope: Construct, id: string, props: RouteGroupProps) {
    super(scope, id, props);
    this.area = props.area;
    if (props.routes.length > maxRoutesPerGroup) {
      throw new Error(
        `The ${props.area} area has ${props.routes.length} routes, more than a route group holds (${maxRoutesPerGroup}): move some of its handlers to a folder of their own (services/src/handlers/<area>-<part>/)`,
      );
    }

    // API Gateway invokes this group's functions as this role: only this API may use it, and it
    // may invoke this group's functions and nothing else (each named by its ARN below).
    const invoker = new InlineGrantsRole(this, 'RouteInvokeRole', {
      description: `Lets the HTTP API invoke the ${props.area} routes' functions`,
      assumedBy: new ServicePrincipal('apigateway.amazonaws.com', {
        conditions: {
          StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID },
          ArnLike: {
            'aws:SourceArn': this.formatArn({ service: 'execute-api', resource: `${props.httpApi.apiId}/*` }),
          },
        },
      }),
    });

    for (const route of props.routes) {
      const name = routeName(route);
      const key = routeKey(route);
      const routeFunction = serviceFunction(this, `${name}Function`, {
        module: `handlers/${route.handler}`,
        description: key,
        timeoutSeconds: route.timeoutSeconds ?? defaultRouteTimeoutSeconds,
        memoryMb: routeMemoryMb,
        environment: serviceEnvironment(this, route.grants, props.resources),
        inlineGrants: true,
      });
      grantAccess(routeFunction, route.grants, props.resources);
      // Payload format 2.0 passes the body through untouched, which raw-body (webhook) routes rely on.
      const config: HttpRouteIntegrationConfig = {
        type: HttpIntegrationType.AWS_PROXY,
        uri: routeFunction.functionArn,
        payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
        credentials: IntegrationCredentials.fromRole(invoker),
      };
      const integration = new HttpIntegration(this, `${name}Integration`, {
        httpApi: props.httpApi,
        integrationType: config.type,
        integrationUri: config.uri,
        payloadFormatVersion: config.payloadFormatVersion,
        credentials: config.credentials,
      });
      this.functions.set(key, routeFunction);
      this.integrations.set(key, new RouteGroupIntegration(`${name}Integration`, integration, config));
    }
    invoker.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['lambda:InvokeFunction'],
        resources: [...this.functions.values()].map((fn) => fn.functionArn),
      }),
    );
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
  'GET /api/unsubscribe':
    "An email's unsubscribe link opens without signing in (RFC 8058); the link's token, HMAC-signed, naming one account and one email kind and expiring, is the credential. Reads only.",
  'POST /api/unsubscribe':
    "Mailbox providers POST one-click unsubscribes without any sign-in (RFC 8058); the link's token, HMAC-signed, naming one account and one email kind and expiring, is the credential. Turns off that kind only.",
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

/**
 * The HTTP API: one function per entry of the route table, behind Firebase's JWT authorizer. The
 * API, its stage, authorizer, access log and routes are here; each route's function, role, log
 * group and integration are in its area's route group (a nested stack).
 */
export class ApiStack extends Stack {
  readonly httpApi: HttpApi;
  /** One JSON line per request (accessLogFormat), for the dashboard's per-route queries. */
  readonly accessLogs: LogGroup;
  /** Host name of the API's default endpoint, for CloudFront's /api/* origin. */
  readonly apiDomainName: string;
  /** The nested stacks that hold the routes' functions, one per area of the route table. */
  readonly routeGroups: RouteGroup[] = [];

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
      ...(props.firebaseApiKey ? { firebaseApiKey: props.firebaseApiKey } : {}),
      stripeSecret: props.stripeSecret,
      ...(props.firebaseAdminSecret ? { firebaseAdminSecret: props.firebaseAdminSecret } : {}),
      ...(props.unsubscribeKeySecret ? { unsubscribeKeySecret: props.unsubscribeKeySecret } : {}),
      ...(mailFrom && siteUrl ? { email: { mailFrom, siteUrl } } : {}),
    };

    // The routes stay here, one resource each; their functions, roles, log groups and integrations
    // are in a nested stack per area of the route table (RouteGroup).
    const areas = new Map<string, RouteDefinition[]>();
    for (const route of props.routes) areas.set(routeArea(route), [...(areas.get(routeArea(route)) ?? []), route]);
    for (const [area, areaRoutes] of areas) {
      const group = new RouteGroup(this, routeGroupId(area), {
        description: `Marketplace API, the ${area} routes: a function, its role and log group, and an integration per route`,
        area,
        routes: areaRoutes,
        httpApi: this.httpApi,
        resources,
      });
      // A short logical id names the nested stack (MarketplaceApi-AdminRoutes-...), and with it the functions.
      group.nestedStackResource?.overrideLogicalId(routeGroupId(area));
      this.routeGroups.push(group);
    }

    for (const route of props.routes) {
      const key = routeKey(route);
      const integration = this.routeGroups.find((group) => group.area === routeArea(route))?.integrations.get(key);
      if (!integration) throw new Error(`${key} has no integration in its route group`);
      const httpRoutes = this.httpApi.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration,
        ...(route.allow === 'public' ? { authorizer: new HttpNoneAuthorizer() } : {}),
      });
      if (route.allow === 'public') {
        const reason = publicRouteReasons[key];
        if (!reason) throw new Error(`${key} is public: say why in publicRouteReasons (infra/lib/api-stack.ts)`);
        for (const httpRoute of httpRoutes) Validations.of(httpRoute).acknowledge({ id: 'AwsSolutions-APIG4', reason });
      }
    }

    new CfnOutput(this, 'ApiEndpoint', { value: this.httpApi.apiEndpoint });
  }
}
