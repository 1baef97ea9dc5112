import type { QueueName } from '@marketplace/events/order-events';
import { type RouteDefinition, routeKey, routeName, routes } from '@marketplace/services/routes';
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Table } from 'aws-cdk-lib/aws-dynamodb';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiStack, apiThrottle, maxRoutesPerGroup, routeArea, routeGroupId } from '../lib/api-stack';
import {
  functionOfRoute as followRoute,
  marketplaceApp,
  resourcesOfType,
  routeGroupTemplates,
} from './synthesize-marketplace';

const issuer = 'https://securetoken.google.com/acme-photos';
const protectedRoutes = routes.filter((route) => route.allow !== 'public');
const publicRoutes = routes.filter((route) => route.allow === 'public');

/** A route only this test declares, to check what the live table does not use yet. */
const slowQueueingRoute: RouteDefinition = {
  method: 'POST',
  path: '/api/fixtures/slow',
  handler: 'system/health',
  allow: ['admin'],
  records: 'none',
  grants: ['queue:order-events'],
  timeoutSeconds: 25,
};

/** The API stack's template, and its route groups' (nested stacks, with the values the API stack passes them). */
interface ApiTemplates {
  api: Template;
  groups: Map<string, Template>;
}

let template: ApiTemplates;
let fixtureTemplate: ApiTemplates;

const templatesOf = (api: ApiStack): ApiTemplates => ({
  api: Template.fromStack(api),
  groups: routeGroupTemplates(api),
});

/** The logical id a CloudFormation value points at through Ref or Fn::GetAtt. */
const targetOf = (value: unknown) => JSON.stringify(value).match(/"(?:Ref|Fn::GetAtt)":\[?"([A-Za-z0-9]+)"/)?.[1];

const resource = (t: Template, logicalId: string) => {
  const found = (t.toJSON().Resources as Record<string, { Properties: Record<string, unknown> }>)[logicalId];
  if (!found) throw new Error(`no resource ${logicalId}`);
  return found;
};

/**
 * Follows route -> integration -> function, so the assertion is about what the route really
 * invokes: the route is in the API stack, its integration and function in its route group.
 */
const functionOfRoute = (t: ApiTemplates, key: string) => followRoute(t.api, t.groups, key);

type Statement = { Action: string | string[]; Resource: unknown };

/** A route's permissions: its role's own policies (route roles hold their grants inline) and any policy resource. */
const statementsOfRoute = (t: ApiTemplates, key: string) => {
  const { template: group, properties } = functionOfRoute(t, key);
  const roleId = targetOf(properties.Role)!;
  const inline = (resource(group, roleId).Properties.Policies ?? []) as {
    PolicyDocument: { Statement: Statement[] };
  }[];
  return [
    ...inline.flatMap((policy) => policy.PolicyDocument.Statement),
    ...resourcesOfType(group, 'AWS::IAM::Policy')
      .filter(([, policy]) => targetOf(policy.Properties.Roles) === roleId)
      .flatMap(([, policy]) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement),
  ];
};

const allowedActionsOfRoute = (t: ApiTemplates, key: string) =>
  statementsOfRoute(t, key).flatMap((statement) => statement.Action);

/** Where a route may perform an action, as the template spells the resources. */
const resourcesOfAction = (t: ApiTemplates, key: string, action: string) =>
  JSON.stringify(
    statementsOfRoute(t, key)
      .filter((statement) => [statement.Action].flat().includes(action))
      .map((statement) => statement.Resource),
  );

/** The routes that talk to Stripe: creating an order's payment, reading and confirming it, and Stripe's webhook. */
const stripeRouteKeys = [
  'POST /api/orders',
  'POST /api/orders/with-files',
  'GET /api/orders/{id}/payment',
  'POST /api/orders/{id}/payment-success',
  'POST /api/webhooks/stripe',
  'POST /api/orders/admin/{id}/cancel',
  // Add-ons move the unpaid order's payment intent to the new total.
  'PUT /api/orders/{id}/add-ons',
  // Saved cards: the customer, the intent's card saving, one-click payment, the cards themselves.
  'POST /api/orders/{id}/payment/save-card',
  'POST /api/orders/{id}/payment/saved-card',
  'GET /api/payment-methods',
  'PUT /api/payment-methods/{paymentMethodId}/default',
  'DELETE /api/payment-methods/{paymentMethodId}',
  // Editors' payouts: the connected account and its onboarding link, Stripe's Connect events.
  'POST /api/payout-account/link',
  'POST /api/payout-account/refresh',
  'POST /api/stripe/connect-webhook',
];

const environmentOf = (properties: Record<string, unknown>) =>
  (properties.Environment as { Variables: Record<string, unknown> }).Variables;

beforeAll(() => {
  const { app, stacks } = marketplaceApp({ settings: { firebaseProjectId: 'acme-photos' } });
  const fixtureApi = new ApiStack(app, 'FixtureApi', {
    routes: [slowQueueingRoute],
    table: stacks.data.table,
    queues: stacks.workers.queues,
    stripeSecret: stacks.data.stripeSecret,
    firebaseAdminSecret: stacks.data.firebaseAdminSecret,
    firebaseProjectId: 'acme-photos',
  });
  template = templatesOf(stacks.api);
  fixtureTemplate = templatesOf(fixtureApi);
});

describe('the HTTP API', () => {
  it('serves every route of the route table under its method and path', () => {
    const routeKeys = resourcesOfType(template.api, 'AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties.RouteKey);
    expect(routeKeys.sort()).toEqual(routes.map(routeKey).sort());
  });

  it('logs each request of its default stage as one JSON line, to a log group kept three months', () => {
    const stages = resourcesOfType(template.api, 'AWS::ApiGatewayV2::Stage');
    expect(stages).toHaveLength(1);
    const [, stage] = stages[0]!;
    expect(stage.Properties.StageName).toBe('$default');
    const settings = stage.Properties.AccessLogSettings as { DestinationArn: unknown; Format: string };
    const format = JSON.parse(settings.Format) as Record<string, string>;
    expect(format).toMatchObject({
      requestId: '$context.requestId',
      routeKey: '$context.routeKey',
      status: '$context.status',
      user: '$context.authorizer.claims.sub',
    });
    // No request or response bodies, headers or query strings in the log.
    expect(Object.values(format).every((value) => /^\$context\.[A-Za-z.]+$/.test(value))).toBe(true);
    const logGroups = resourcesOfType(template.api, 'AWS::Logs::LogGroup').filter(([id]) =>
      id.startsWith('AccessLogs'),
    );
    expect(logGroups).toHaveLength(1);
    const [logGroupId, logGroup] = logGroups[0]!;
    expect(logGroup.Properties.RetentionInDays).toBe(90);
    // The log group's ARN without the ":*" of its Arn attribute.
    expect(JSON.stringify(settings.DestinationArn)).toContain(`"Ref":"${logGroupId}"`);
    expect(JSON.stringify(settings.DestinationArn)).not.toContain(':*');
  });

  it('checks Firebase ID tokens of the configured project from the Authorization header', () => {
    template.api.resourceCountIs('AWS::ApiGatewayV2::Authorizer', 1);
    template.api.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      AuthorizerType: 'JWT',
      IdentitySource: ['$request.header.Authorization'],
      JwtConfiguration: { Issuer: issuer, Audience: ['acme-photos'] },
    });
  });

  it('requires a token on every route that is not public', () => {
    expect(protectedRoutes.length).toBeGreaterThan(0);
    for (const route of protectedRoutes) {
      template.api.hasResourceProperties('AWS::ApiGatewayV2::Route', {
        RouteKey: routeKey(route),
        AuthorizationType: 'JWT',
        AuthorizerId: Match.anyValue(),
      });
    }
  });

  it('throttles the whole API at its default stage', () => {
    template.api.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      DefaultRouteSettings: {
        ThrottlingRateLimit: apiThrottle.rateLimit,
        ThrottlingBurstLimit: apiThrottle.burstLimit,
      },
    });
  });

  it("lets Stripe's webhook through without a token, since Stripe signs it instead", () => {
    template.api.hasResourceProperties('AWS::ApiGatewayV2::Route', {
      RouteKey: 'POST /api/webhooks/stripe',
      AuthorizationType: 'NONE',
      AuthorizerId: Match.absent(),
    });
  });

  it('lets public routes through without a token', () => {
    expect(publicRoutes.length).toBeGreaterThan(0);
    for (const route of publicRoutes) {
      template.api.hasResourceProperties('AWS::ApiGatewayV2::Route', {
        RouteKey: routeKey(route),
        AuthorizationType: 'NONE',
        AuthorizerId: Match.absent(),
      });
    }
  });
});

describe('route functions', () => {
  it('gives each route its own arm64 Node.js 24 function', () => {
    // None in the API stack: each in its route group, which holds nothing else that runs.
    template.api.resourceCountIs('AWS::Lambda::Function', 0);
    const functionCount = [...template.groups.values()].reduce(
      (sum, group) => sum + resourcesOfType(group, 'AWS::Lambda::Function').length,
      0,
    );
    expect(functionCount).toBe(routes.length);
    const functionIds = routes.map((route) => functionOfRoute(template, routeKey(route)).functionId);
    expect(new Set(functionIds).size).toBe(routes.length);
    for (const route of routes) {
      const { properties } = functionOfRoute(template, routeKey(route));
      expect(properties).toMatchObject({ Runtime: 'nodejs24.x', Architectures: ['arm64'], Handler: 'index.handler' });
    }
  });

  it('sets what the services read from the environment, and never a local endpoint', () => {
    for (const route of routes) {
      const environment = environmentOf(functionOfRoute(template, routeKey(route)).properties);
      const stripeKeys = route.grants.includes('stripe') ? ['STRIPE_SECRET_ARN'] : [];
      const identityKeys = route.grants.includes('identity:admin') ? ['FIREBASE_ADMIN_SECRET_ARN'] : [];
      const unsubscribeKeys = route.grants.includes('unsubscribe:key') ? ['UNSUBSCRIBE_KEY_SECRET_ARN'] : [];
      expect(Object.keys(environment).sort(), routeKey(route)).toEqual(
        [
          'FIREBASE_PROJECT_ID',
          'PHOTOS_BUCKET',
          'QUEUE_URLS',
          'TABLE_NAME',
          ...stripeKeys,
          ...identityKeys,
          ...unsubscribeKeys,
        ].sort(),
      );
      // No NODE_OPTIONS: --enable-source-maps would parse the source map on every cold start.
      expect(environment).toMatchObject({ FIREBASE_PROJECT_ID: 'acme-photos' });
    }
  });

  it("uses the route's own timeout when the route table gives one, and 10 seconds otherwise", () => {
    expect(functionOfRoute(fixtureTemplate, routeKey(slowQueueingRoute)).properties.Timeout).toBe(25);
    const plainRoute = routes.find((route) => route.timeoutSeconds === undefined)!;
    expect(functionOfRoute(template, routeKey(plainRoute)).properties.Timeout).toBe(10);
  });

  it('keeps its logs for a month', () => {
    for (const route of routes) {
      const { template: group, properties } = functionOfRoute(template, routeKey(route));
      const logGroup = resource(group, targetOf(properties.LoggingConfig)!);
      expect(logGroup.Properties.RetentionInDays, routeKey(route)).toBe(30);
    }
  });
});

describe('route groups', () => {
  it("keep each route in the API stack and its function, role, log group and integration in its area's nested stack", () => {
    const areas = new Set(routes.map(routeArea));
    expect(template.groups.size).toBe(areas.size);
    expect([...template.groups.keys()].sort()).toEqual([...areas].map(routeGroupId).sort());
    resourcesOfType(template.api, 'AWS::CloudFormation::Stack').forEach(([id]) => {
      expect(template.groups.has(id), id).toBe(true);
    });
    for (const type of ['AWS::Lambda::Function', 'AWS::Logs::LogGroup', 'AWS::ApiGatewayV2::Integration']) {
      const inApi = resourcesOfType(template.api, type).filter(([id]) => !id.startsWith('AccessLogs'));
      expect(inApi, type).toEqual([]);
    }
    for (const route of routes) {
      const { groupId, functionId, properties, integration } = functionOfRoute(template, routeKey(route));
      expect(groupId, routeKey(route)).toBe(routeGroupId(routeArea(route)));
      expect(functionId.startsWith(`${routeName(route)}Function`), routeKey(route)).toBe(true);
      expect(properties.Description).toBe(routeKey(route));
      // Payload format 2.0 passes the body through untouched (the webhooks' signatures are over the raw body).
      expect(integration.Properties).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
    }
  });

  it('are named by their area, so the functions in them are too', () => {
    expect(routeGroupId('payment-methods')).toBe('PaymentMethodsRoutes');
    expect(routeGroupId('admin')).toBe('AdminRoutes');
  });

  it('refuse an area with more routes than a nested stack and an invoke policy hold', () => {
    const { app, stacks } = marketplaceApp({ settings: { firebaseProjectId: 'acme-photos' } });
    const crowded = Array.from({ length: maxRoutesPerGroup + 1 }, (_, n) => ({
      ...slowQueueingRoute,
      path: `/api/fixtures/slow-${n}` as const,
    }));
    const build = () =>
      new ApiStack(app, 'CrowdedApi', {
        routes: crowded,
        table: stacks.data.table,
        queues: stacks.workers.queues,
        stripeSecret: stacks.data.stripeSecret,
        firebaseProjectId: 'acme-photos',
      });
    expect(build).toThrow(/system area has 61 routes, more than a route group holds \(60\)/);
  });
});

describe('route permissions', () => {
  const readOnlyRoute = routes.find((route) => route.grants.length === 1 && route.grants[0] === 'table:read');

  it('lets a read-only route query the table but not write or scan it', () => {
    expect(readOnlyRoute && routeKey(readOnlyRoute)).toBe('GET /api/health');
    const actions = allowedActionsOfRoute(template, routeKey(readOnlyRoute!));
    expect(actions).toContain('dynamodb:Query');
    expect(actions).not.toContain('dynamodb:PutItem');
    expect(actions).not.toContain('dynamodb:UpdateItem');
    expect(actions).not.toContain('dynamodb:DeleteItem');
    expect(actions).not.toContain('dynamodb:Scan');
  });

  it("allows each route exactly the table access its grants name and nothing in S3 or SQS it wasn't granted", () => {
    for (const route of routes) {
      const actions = allowedActionsOfRoute(template, routeKey(route));
      expect(actions.includes('dynamodb:Query'), routeKey(route)).toBe(route.grants.includes('table:read'));
      expect(actions.includes('dynamodb:PutItem'), routeKey(route)).toBe(route.grants.includes('table:write'));
      expect(
        actions.some((action) => action.startsWith('s3:')),
        routeKey(route),
      ).toBe(
        route.grants.some(
          (grant) => grant.startsWith('photos:') || grant.startsWith('receipts:') || grant.startsWith('exports:'),
        ),
      );
      expect(actions.includes('sqs:SendMessage'), routeKey(route)).toBe(
        route.grants.some((grant) => grant.startsWith('queue:')),
      );
      expect(
        actions.some((action) => action.startsWith('secretsmanager:')),
        routeKey(route),
      ).toBe(
        route.grants.includes('stripe') ||
          route.grants.includes('identity:admin') ||
          route.grants.includes('unsubscribe:key'),
      );
    }
  });

  it('lets no route read the Firebase service account: the identity worker disables and enables sign-in', () => {
    expect(routes.filter((route) => route.grants.includes('identity:admin')).map(routeKey)).toEqual([]);
    for (const route of routes) {
      const key = routeKey(route);
      expect(resourcesOfAction(template, key, 'secretsmanager:GetSecretValue'), key).not.toMatch(/FirebaseAdminSecret/);
      expect(environmentOf(functionOfRoute(template, key).properties).FIREBASE_ADMIN_SECRET_ARN, key).toBeUndefined();
    }
  });

  it('lets exactly the two unsubscribe routes read the unsubscribe key, and tells them where it is', () => {
    const keyRoutes = routes.filter((route) => route.grants.includes('unsubscribe:key')).map(routeKey);
    expect(keyRoutes.sort()).toEqual(['GET /api/unsubscribe', 'POST /api/unsubscribe']);
    for (const route of routes) {
      const key = routeKey(route);
      const environment = environmentOf(functionOfRoute(template, key).properties);
      if (keyRoutes.includes(key)) {
        expect(resourcesOfAction(template, key, 'secretsmanager:GetSecretValue'), key).toMatch(
          /MarketplaceData.*UnsubscribeKeySecret/,
        );
        expect(JSON.stringify(environment.UNSUBSCRIBE_KEY_SECRET_ARN), key).toMatch(
          /MarketplaceData.*UnsubscribeKeySecret/,
        );
      } else {
        expect(resourcesOfAction(template, key, 'secretsmanager:GetSecretValue'), key).not.toMatch(
          /UnsubscribeKeySecret/,
        );
        expect(environment.UNSUBSCRIBE_KEY_SECRET_ARN, key).toBeUndefined();
      }
    }
  });

  it('lets exactly the routes that talk to Stripe read the Stripe secret, and tells them where it is', () => {
    expect(
      routes
        .filter((route) => route.grants.includes('stripe'))
        .map(routeKey)
        .sort(),
    ).toEqual([...stripeRouteKeys].sort());
    for (const key of stripeRouteKeys) {
      expect(resourcesOfAction(template, key, 'secretsmanager:GetSecretValue'), key).toMatch(
        /MarketplaceData.*StripeSecret/,
      );
      const environment = environmentOf(functionOfRoute(template, key).properties);
      expect(JSON.stringify(environment.STRIPE_SECRET_ARN), key).toMatch(/MarketplaceData.*StripeSecret/);
    }
  });

  it('lets the completed-photos download queue a zip build, and no other queue', () => {
    const key = 'GET /api/orders/{id}/download-completed';
    expect(resourcesOfAction(template, key, 'sqs:SendMessage')).toMatch(/ZipBuildsQueue/);
    expect(resourcesOfAction(template, key, 'sqs:SendMessage')).not.toMatch(/OrderEventsQueue/);
    const queueUrls = JSON.stringify(environmentOf(functionOfRoute(template, key).properties).QUEUE_URLS);
    expect(queueUrls).toContain('zip-builds');
    expect(queueUrls).not.toContain('order-events');
  });

  it('lets a route granted a queue send to it and tells it the queue URL by name', () => {
    const key = routeKey(slowQueueingRoute);
    expect(allowedActionsOfRoute(fixtureTemplate, key)).toContain('sqs:SendMessage');
    const queueUrls = JSON.stringify(environmentOf(functionOfRoute(fixtureTemplate, key).properties).QUEUE_URLS);
    expect(queueUrls).toContain('order-events');
    expect(JSON.stringify(environmentOf(functionOfRoute(template, 'GET /api/health').properties).QUEUE_URLS)).toBe(
      '"{}"',
    );
  });

  it('refuses to synthesize a route granted a queue that no worker consumes', () => {
    const stack = new Stack(new App(), 'Shared');
    const build = () =>
      new ApiStack(stack.node.root as App, 'Api', {
        routes: [{ ...slowQueueingRoute, grants: ['queue:zip-builds'] }],
        table: Table.fromTableName(stack, 'Table', 'marketplace'),
        queues: new Map<QueueName, IQueue>(),
        stripeSecret: Secret.fromSecretNameV2(stack, 'StripeSecret', 'stripe'),
        firebaseAdminSecret: Secret.fromSecretNameV2(stack, 'FirebaseAdminSecret', 'firebase-admin'),
        firebaseProjectId: 'acme-photos',
      });
    expect(build).toThrow(/no worker consumes the "zip-builds" queue/);
  });
});

describe('the payout link route', () => {
  it("learns the site Stripe's onboarding sends the editor back to", () => {
    const siteUrl = 'https://photoedit.example';
    const { api } = marketplaceApp({
      settings: { mailFrom: 'PhotoEdit <no-reply@photoedit.example>', siteUrl },
    }).stacks;
    const { properties } = functionOfRoute(templatesOf(api), 'POST /api/payout-account/link');
    expect(properties.Description).toBe('POST /api/payout-account/link');
    const environment = environmentOf(properties);
    expect(environment.SITE_URL).toBe(siteUrl);
    expect(environment.STRIPE_SECRET_ARN).toBeDefined();
  });
});
