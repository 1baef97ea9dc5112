import type { QueueName } from '@marketplace/events/order-events';
import { type RouteDefinition, routeKey, routeName } from '@marketplace/services/routes';
import { Annotations, Aws, CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { type CfnStage, HttpApi, HttpMethod, HttpNoneAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
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
  firebaseAdminSecret: ISecret;
  firebaseProjectId: string;
  /** For the routes granted 'email:send'. */
  email?: Partial<EmailSettings>;
}

/** Plain table reads and writes answer well within this; slower routes say so in the route table. */
const defaultRouteTimeoutSeconds = 10;
/** CPU scales with memory: 512 MB keeps cold starts of the bundled SDK short at a small cost. */
const routeMemoryMb = 512;

/** Requests per second across the API (steady, and a burst): far above a busy day's traffic. */
export const apiThrottle = { rateLimit: 200, burstLimit: 400 };

export const firebaseIssuer = (projectId: string) => `https://securetoken.google.com/${projectId}`;

/** The HTTP API: one function per entry of the route table, behind Firebase's JWT authorizer. */
export class ApiStack extends Stack {
  readonly httpApi: HttpApi;
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
    this.apiDomainName = `${this.httpApi.apiId}.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}`;

    const resources: ServiceResources = {
      table: props.table,
      photosBucket: Bucket.fromBucketName(this, 'PhotosBucket', photosBucketName()),
      queues: props.queues,
      firebaseProjectId: props.firebaseProjectId,
      stripeSecret: props.stripeSecret,
      firebaseAdminSecret: props.firebaseAdminSecret,
      ...(mailFrom && siteUrl ? { email: { mailFrom, siteUrl } } : {}),
    };

    for (const route of props.routes) {
      const name = routeName(route);
      const routeFunction = serviceFunction(this, `${name}Function`, {
        module: `handlers/${route.handler}`,
        description: routeKey(route),
        timeoutSeconds: route.timeoutSeconds ?? defaultRouteTimeoutSeconds,
        memoryMb: routeMemoryMb,
        environment: serviceEnvironment(this, route.grants, resources),
      });
      grantAccess(routeFunction, route.grants, resources);
      // Payload format 2.0 passes the body through untouched, which raw-body (webhook) routes rely on.
      this.httpApi.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${name}Integration`, routeFunction),
        ...(route.allow === 'public' ? { authorizer: new HttpNoneAuthorizer() } : {}),
      });
    }

    new CfnOutput(this, 'ApiEndpoint', { value: this.httpApi.apiEndpoint });
  }
}
