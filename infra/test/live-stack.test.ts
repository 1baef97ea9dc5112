import { LIVE_PATH, LIVE_PING, LIVE_TOKEN_PARAMETER } from '@marketplace/events/live-updates';
import { LIVE_PING_ROUTE, LIVE_ROUTE_SELECTION, liveAuthorizer, liveRoutes } from '@marketplace/services/live-routes';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { liveAccessLogFormat, liveThrottle } from '../lib/live-stack';
import { everyTemplate, marketplaceApp, resourcesOfType } from './synthesize-marketplace';

/**
 * The WebSocket API of live updates, read from the synthesized templates: its authorizer and
 * routes against the WebSocket route table (services/src/live-routes.ts), its stage, and the one
 * function that may post to its connections.
 */

type Properties = Record<string, unknown>;
type Resources = Record<string, { Type: string; Properties: Properties; DependsOn?: string[] }>;

let templates: Record<string, { Resources: Resources; Outputs?: Record<string, { Value: unknown }> }>;
const live = () => templates.MarketplaceLive!.Resources;

/** The logical id a CloudFormation value points at through Ref or Fn::GetAtt. */
const targetOf = (value: unknown) => JSON.stringify(value).match(/"(?:Ref|Fn::GetAtt)":\[?"([A-Za-z0-9]+)"/)?.[1];
const ofType = (resources: Resources, type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);

beforeAll(() => {
  const { stacks } = marketplaceApp({ settings: { firebaseProjectId: 'acme-photos' } });
  // The route groups nested in the API stack too: their functions are the routes'.
  templates = Object.fromEntries(
    Object.entries(everyTemplate(stacks)).map(([name, template]) => [name, template.toJSON() as never]),
  );
});

const webSocketApi = () => {
  const apis = ofType(live(), 'AWS::ApiGatewayV2::Api');
  expect(apis).toHaveLength(1);
  return apis[0]!;
};
const routeOf = (routeKey: string) => {
  const found = ofType(live(), 'AWS::ApiGatewayV2::Route').filter(([, r]) => r.Properties.RouteKey === routeKey);
  expect(found, routeKey).toHaveLength(1);
  return found[0]![1].Properties;
};
const integrationOf = (route: Properties) => {
  const id = targetOf(route.Target)!;
  return { id, ...live()[id]! };
};
/** The function an integration or authorizer invokes, by its description. */
const functionDescriptionOf = (uri: unknown) => live()[targetOf(uri)!]!.Properties.Description;

describe('the WebSocket API', () => {
  it('is one WebSocket API that routes messages by their "action"', () => {
    const [, api] = webSocketApi();
    expect(api.Properties).toMatchObject({ ProtocolType: 'WEBSOCKET', RouteSelectionExpression: LIVE_ROUTE_SELECTION });
    expect(LIVE_ROUTE_SELECTION).toBe('$request.body.action');
  });

  it("authorizes $connect with a REQUEST authorizer on the token in the connect URL's query, uncached", () => {
    const authorizers = ofType(live(), 'AWS::ApiGatewayV2::Authorizer');
    expect(authorizers).toHaveLength(1);
    const [authorizerId, authorizer] = authorizers[0]!;
    expect(authorizer.Properties).toMatchObject({
      AuthorizerType: 'REQUEST',
      IdentitySource: [`route.request.querystring.${LIVE_TOKEN_PARAMETER}`],
    });
    expect(liveAuthorizer.identitySource).toBe('route.request.querystring.token');
    // WebSocket authorizers cannot cache; none is asked for.
    expect(authorizer.Properties.AuthorizerResultTtlInSeconds).toBeUndefined();
    expect(functionDescriptionOf(authorizer.Properties.AuthorizerUri)).toBe('WebSocket $connect authorizer');
    expect(routeOf('$connect')).toMatchObject({ AuthorizationType: 'CUSTOM', AuthorizerId: { Ref: authorizerId } });
  });

  it.each(
    liveRoutes.map((route) => [route.routeKey] as const),
  )('sends %s to its own function from the route table, which API Gateway may invoke', (routeKey) => {
    const integration = integrationOf(routeOf(routeKey));
    expect(integration.Properties.IntegrationType).toBe('AWS_PROXY');
    const functionId = targetOf(integration.Properties.IntegrationUri)!;
    expect(live()[functionId]!.Properties.Description).toBe(`WebSocket ${routeKey}`);
    const permissions = ofType(live(), 'AWS::Lambda::Permission').filter(
      ([, p]) => targetOf(p.Properties.FunctionName) === functionId,
    );
    expect(permissions).toHaveLength(1);
    expect(permissions[0]![1].Properties.Principal).toBe('apigateway.amazonaws.com');
  });

  it('has $connect and $disconnect, and only $connect carries the authorizer', () => {
    expect(liveRoutes.map((route) => route.routeKey).sort()).toEqual(['$connect', '$disconnect']);
    expect(routeOf('$disconnect').AuthorizationType).toBe('NONE');
    expect(routeOf(LIVE_PING_ROUTE).AuthorizationType).toBe('NONE');
  });

  it("answers the tab's ping itself: a mock integration, no function, and nothing sent back", () => {
    expect(JSON.parse(LIVE_PING)).toEqual({ action: LIVE_PING_ROUTE });
    const route = routeOf(LIVE_PING_ROUTE);
    const integration = integrationOf(route);
    expect(integration.Properties).toMatchObject({
      IntegrationType: 'MOCK',
      TemplateSelectionExpression: '\\$default',
      RequestTemplates: { $default: JSON.stringify({ statusCode: 200 }) },
    });
    const responses = ofType(live(), 'AWS::ApiGatewayV2::IntegrationResponse');
    expect(responses.map(([, r]) => r.Properties)).toEqual([
      { ApiId: expect.anything(), IntegrationId: { Ref: integration.id }, IntegrationResponseKey: '$default' },
    ]);
    // One-way: no route response, so API Gateway sends the tab nothing (a reply would be one more billed message).
    expect(route.RouteResponseSelectionExpression).toBeUndefined();
    expect(ofType(live(), 'AWS::ApiGatewayV2::RouteResponse')).toHaveLength(0);
    // The only functions are the authorizer and one per route of the table.
    expect(ofType(live(), 'AWS::Lambda::Function')).toHaveLength(liveRoutes.length + 1);
    expect(ofType(live(), 'AWS::ApiGatewayV2::Integration')).toHaveLength(liveRoutes.length + 1);
  });
});

describe('the stage', () => {
  const stage = () => {
    const stages = ofType(live(), 'AWS::ApiGatewayV2::Stage');
    expect(stages).toHaveLength(1);
    return stages[0]![1];
  };

  it("is named after the browser's path, deploys every change, and is throttled", () => {
    expect(stage().Properties).toMatchObject({
      ApiId: { Ref: webSocketApi()[0] },
      StageName: LIVE_PATH.slice(1),
      AutoDeploy: true,
      DefaultRouteSettings: {
        ThrottlingRateLimit: liveThrottle.rateLimit,
        ThrottlingBurstLimit: liveThrottle.burstLimit,
      },
    });
    expect(LIVE_PATH).toBe('/live');
  });

  it('logs every connect, message and disconnect as JSON to its own log group, never the token', () => {
    const settings = stage().Properties.AccessLogSettings as { DestinationArn: unknown; Format: string };
    const logGroupId = targetOf(settings.DestinationArn)!;
    expect(live()[logGroupId]).toMatchObject({ Type: 'AWS::Logs::LogGroup', Properties: { RetentionInDays: 90 } });
    // The ARN API Gateway takes: the log group's own, without the ":*" its Arn attribute ends with.
    expect(JSON.stringify(settings.DestinationArn)).not.toContain('Fn::GetAtt');
    expect(JSON.parse(settings.Format)).toEqual(liveAccessLogFormat);
    expect(Object.values(liveAccessLogFormat)).toEqual(
      expect.arrayContaining(['$context.requestId', '$context.connectionId', '$context.authorizer.userId']),
    );
    expect(settings.Format).not.toMatch(/querystring|token/i);
  });

  it("is created after the account's API Gateway logging role is set, which outlives the stack", () => {
    const accounts = ofType(live(), 'AWS::ApiGateway::Account');
    expect(accounts).toHaveLength(1);
    const [accountId, account] = accounts[0]!;
    expect(stage().DependsOn).toContain(accountId);
    const role = live()[targetOf(account.Properties.CloudWatchRoleArn)!]! as Resources[string] & {
      DeletionPolicy?: string;
    };
    expect(role.Properties.AssumeRolePolicyDocument).toMatchObject({
      Statement: [{ Principal: { Service: 'apigateway.amazonaws.com' } }],
    });
    expect(JSON.stringify(role.Properties.ManagedPolicyArns)).toContain(
      'service-role/AmazonAPIGatewayPushToCloudWatchLogs',
    );
    expect(role.DeletionPolicy).toBe('Retain');
    expect((account as { DeletionPolicy?: string }).DeletionPolicy).toBe('Retain');
  });
});

describe('posting to the connections', () => {
  const functions = () =>
    Object.entries(templates).flatMap(([stackName, template]) =>
      ofType(template.Resources, 'AWS::Lambda::Function').map(([id, fn]) => ({ stackName, id, fn })),
    );
  /** Every statement of a function's role: inline policies and policy resources. */
  const statementsOf = (stackName: string, functionId: string) => {
    const resources = templates[stackName]!.Resources;
    const roleId = targetOf(resources[functionId]!.Properties.Role)!;
    const inline = (resources[roleId]!.Properties.Policies ?? []) as { PolicyDocument: { Statement: unknown[] } }[];
    return [
      ...inline.flatMap((policy) => policy.PolicyDocument.Statement),
      ...ofType(resources, 'AWS::IAM::Policy')
        .filter(([, policy]) => targetOf(policy.Properties.Roles) === roleId)
        .flatMap(([, policy]) => (policy.Properties.PolicyDocument as { Statement: unknown[] }).Statement),
    ] as { Action: string | string[]; Resource: unknown }[];
  };
  /** A value of the push worker's template as one string: `<Id>` for a Ref, or for what the live stack's output holds. */
  const spell = (value: unknown): string => {
    if (typeof value === 'string') return value;
    const object = value as Record<string, unknown>;
    if ('Ref' in object) return `<${object.Ref}>`;
    if ('Fn::Join' in object) {
      const [separator, parts] = object['Fn::Join'] as [string, unknown[]];
      return parts.map(spell).join(separator);
    }
    if ('Fn::GetStackOutput' in object) {
      const { StackName, OutputName } = object['Fn::GetStackOutput'] as { StackName: string; OutputName: string };
      return spell(templates[StackName]!.Outputs![OutputName]!.Value);
    }
    throw new Error(`cannot spell ${JSON.stringify(value)}`);
  };

  it('is for the push worker alone, which may ManageConnections on the stage connections and nothing wider', () => {
    const posting = functions().filter(({ stackName, id }) =>
      statementsOf(stackName, id).some((s) => JSON.stringify(s.Action).includes('execute-api')),
    );
    expect(posting.map(({ fn }) => fn.Properties.Description)).toEqual(['Consumes the live-updates queue']);
    const [{ stackName, id }] = posting as [(typeof posting)[number]];
    const statements = statementsOf(stackName, id).filter((s) => JSON.stringify(s.Action).includes('execute-api'));
    expect(statements).toHaveLength(1);
    const [statement] = statements as [(typeof statements)[number]];
    expect(statement.Action).toBe('execute-api:ManageConnections');
    const spelled = (statement.Resource as unknown[]).map(spell).sort();
    const [apiId] = webSocketApi();
    expect(spelled).toEqual(
      [
        `arn:<AWS::Partition>:execute-api:<AWS::Region>:<AWS::AccountId>:<${apiId}>/live/DELETE/@connections/*`,
        `arn:<AWS::Partition>:execute-api:<AWS::Region>:<AWS::AccountId>:<${apiId}>/live/POST/@connections/*`,
      ].sort(),
    );
  });

  it("tells the push worker the stage's management endpoint, and no other function", () => {
    const told = functions().filter(
      ({ fn }) => (fn.Properties.Environment as { Variables?: Properties } | undefined)?.Variables?.LIVE_ENDPOINT,
    );
    expect(told.map(({ fn }) => fn.Properties.Description)).toEqual(['Consumes the live-updates queue']);
    const endpoint = (told[0]!.fn.Properties.Environment as { Variables: Properties }).Variables.LIVE_ENDPOINT;
    expect(spell(endpoint)).toBe(`https://<${webSocketApi()[0]}>.execute-api.<AWS::Region>.<AWS::URLSuffix>/live`);
  });
});

describe('the WebSocket functions', () => {
  it('are told the Firebase project whose tokens the authorizer accepts', () => {
    for (const [, fn] of ofType(live(), 'AWS::Lambda::Function')) {
      expect((fn.Properties.Environment as { Variables: Properties }).Variables).toMatchObject({
        FIREBASE_PROJECT_ID: 'acme-photos',
      });
    }
  });
});

describe('resources', () => {
  it('are few: the live stack stays far from the 500 CloudFormation takes', () => {
    expect(Object.keys(live()).length).toBeLessThan(60);
    expect(resourcesOfType(Template.fromJSON(templates.MarketplaceLive!), 'AWS::Lambda::Function')).toHaveLength(
      liveRoutes.length + 1,
    );
  });
});
