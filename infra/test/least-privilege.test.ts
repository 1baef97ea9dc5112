import type { QueueName } from '@marketplace/events/order-events';
import { originalsPrefix } from '@marketplace/events/orders';
import { profilePicturePrefix } from '@marketplace/events/profile';
import { exportZipKey } from '@marketplace/services/data/data-exports';
import { zipKeyFor } from '@marketplace/services/data/downloads';
import { globalIndexes } from '@marketplace/services/data/table-schema';
import { liveAuthorizer, liveRoutes } from '@marketplace/services/live-routes';
import { type Grant, routeKey, routes } from '@marketplace/services/routes';
import { schedules, workers } from '@marketplace/services/workers';
import { receiptKeyFor } from '@marketplace/services/workers/make-receipts';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { scheduleGrants, workerGrants } from '../lib/workers-stack';
import { marketplaceApp, nestedTemplate, resourcesOfType } from './synthesize-marketplace';

/**
 * Each function's IAM policy, read from the synthesized templates, against what its entry in the
 * route, worker or WebSocket route table implies. The expected permissions are written out here,
 * from the grant names alone, and not taken from the code that grants them (lib/service-access.ts).
 */

const sender = 'no-reply@photos.example.com';
const configured = {
  firebaseProjectId: 'acme-photos',
  mailFrom: `PhotoEdit <${sender}>`,
  siteUrl: 'https://photos.example.com',
};

type CfnValue = string | { [key: string]: unknown } | CfnValue[];
type Resources = Record<string, { Type: string; Properties: Record<string, unknown> }>;
type Json = {
  Resources: Resources;
  Outputs?: Record<string, { Value: CfnValue; Export?: { Name: string } }>;
};

let templates: Record<string, Json>;
/**
 * The API stack's route groups (nested stacks), by their place in the app ("MarketplaceApi/AdminRoutes"),
 * each template with the values the API stack passes its parameters, so a reference reads as in the API stack.
 */
let routeGroups: string[];

/** A resource or ARN as one readable string: `<LogicalId>` for a Ref, `<LogicalId.Arn>` for a GetAtt. */
const render = (value: unknown, stackName: string): string => {
  if (typeof value === 'string') return value;
  const object = value as Record<string, unknown>;
  if ('Ref' in object) return `<${object.Ref}>`;
  if ('Fn::GetAtt' in object) return `<${(object['Fn::GetAtt'] as string[]).join('.')}>`;
  if ('Fn::Join' in object) {
    const [separator, parts] = object['Fn::Join'] as [string, unknown[]];
    return parts.map((part) => render(part, stackName)).join(separator);
  }
  if ('Fn::GetStackOutput' in object) {
    // A reference to another stack: what that stack's output holds, as that stack spells it.
    const { StackName, OutputName } = object['Fn::GetStackOutput'] as { StackName: string; OutputName: string };
    const output = templates[StackName]?.Outputs?.[OutputName];
    if (!output) throw new Error(`${stackName} reads ${StackName}.${OutputName}, which does not exist`);
    return render(output.Value, StackName);
  }
  if ('Fn::ImportValue' in object) {
    const name = render(object['Fn::ImportValue'], stackName);
    for (const [producer, template] of Object.entries(templates)) {
      const output = Object.values(template.Outputs ?? {}).find((o) => o.Export?.Name === name);
      if (output) return render(output.Value, producer);
    }
  }
  throw new Error(`cannot read ${JSON.stringify(value)}`);
};

const asArray = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

interface Statement {
  Effect: string;
  Action?: string | string[];
  Resource?: unknown;
  NotAction?: unknown;
  NotResource?: unknown;
  Condition?: unknown;
}

/** Every (action, resource) pair the role of this function is allowed, as "action on resource". */
const permissionsOf = (stackName: string, functionId: string) => {
  const { Resources } = templates[stackName]!;
  const fn = Resources[functionId]!;
  const roleId = (fn.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  const role = Resources[roleId]!;
  expect(role.Properties.ManagedPolicyArns, `${functionId} has no managed policy`).toBeUndefined();
  const statements = [
    ...asArray(role.Properties.Policies as { PolicyDocument: { Statement: Statement[] } }[]).flatMap(
      (p) => p.PolicyDocument.Statement,
    ),
    ...Object.values(Resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy')
      .filter((r) => asArray(r.Properties.Roles as { Ref: string }[]).some((ref) => ref.Ref === roleId))
      .flatMap((r) => (r.Properties.PolicyDocument as { Statement: Statement[] }).Statement),
  ];
  const pairs = new Set<string>();
  for (const statement of statements) {
    expect(statement, `${functionId}: plain Allow statements only`).toMatchObject({ Effect: 'Allow' });
    expect(statement.NotAction ?? statement.NotResource ?? statement.Condition).toBeUndefined();
    for (const action of asArray(statement.Action)) {
      for (const resource of asArray(statement.Resource)) pairs.add(`${action} on ${render(resource, stackName)}`);
    }
  }
  return pairs;
};

const functionsOf = (stackName: string) =>
  Object.entries(templates[stackName]!.Resources).filter(([, r]) => r.Type === 'AWS::Lambda::Function');

/** The named things a grant points at, found in the templates by what they are, not by how the stacks name them. */
const targets = () => {
  const data = templates.MarketplaceData!.Resources;
  const only = (type: string, predicate: (p: Record<string, unknown>) => boolean = () => true) => {
    const found = Object.entries(data).filter(([, r]) => r.Type === type && predicate(r.Properties));
    expect(found, type).toHaveLength(1);
    return found[0]![0];
  };
  const table = `<${only('AWS::DynamoDB::Table')}.Arn>`;
  const secret = (name: string) => `<${only('AWS::SecretsManager::Secret', (p) => p.Name === name)}>`;
  // A worker's queue is the one its event source mapping reads.
  const queueOf = (queue: QueueName) => {
    const [workerId] = functionsOf('MarketplaceWorkers').find(
      ([, fn]) => fn.Properties.Description === `Consumes the ${queue} queue`,
    )!;
    const mapping = Object.values(templates.MarketplaceWorkers!.Resources).find(
      (r) =>
        r.Type === 'AWS::Lambda::EventSourceMapping' && (r.Properties.FunctionName as { Ref: string }).Ref === workerId,
    )!;
    return render(mapping.Properties.EventSourceArn, 'MarketplaceWorkers');
  };
  // The WebSocket API's stage, as an execute-api ARN: arn:...:execute-api:{region}:{account}:{apiId}/{stage}.
  const live = templates.MarketplaceLive!.Resources;
  const webSocketApis = Object.entries(live).filter(
    ([, r]) => r.Type === 'AWS::ApiGatewayV2::Api' && r.Properties.ProtocolType === 'WEBSOCKET',
  );
  expect(webSocketApis).toHaveLength(1);
  const [webSocketApiId] = webSocketApis[0]!;
  const stages = Object.values(live).filter(
    (r) => r.Type === 'AWS::ApiGatewayV2::Stage' && (r.Properties.ApiId as { Ref: string }).Ref === webSocketApiId,
  );
  expect(stages).toHaveLength(1);
  const liveStage = `arn:<AWS::Partition>:execute-api:<AWS::Region>:<AWS::AccountId>:<${webSocketApiId}>/${stages[0]!.Properties.StageName}`;
  return {
    table,
    liveStage,
    indexes: globalIndexes.map((index) => `${table}/index/${index.indexName}`),
    bucket: 'arn:<AWS::Partition>:s3:::marketplace-photos-<AWS::AccountId>-<AWS::Region>',
    stripeSecret: secret('marketplace/stripe'),
    firebaseAdminSecret: secret('marketplace/firebase-admin'),
    unsubscribeKeySecret: secret('marketplace/unsubscribe-key'),
    queueOf,
  };
};

const pairs = (actions: readonly string[], resources: readonly string[]) =>
  actions.flatMap((action) => resources.map((resource) => `${action} on ${resource}`));

/**
 * The key prefixes the services write under (events/orders.ts, data/downloads.ts, workers/make-thumbnails.ts,
 * events/profile.ts and domain/profile-pictures.ts for a profile's pictures).
 */
const photoPrefixes = ['orders/', 'zips/', 'profiles/'];

const expectedFor = (grants: readonly Grant[], logGroup: string) => {
  const t = targets();
  const photoObjects = photoPrefixes.map((prefix) => `${t.bucket}/${prefix}*`);
  const ses = (identity: string) => `arn:<AWS::Partition>:ses:<AWS::Region>:<AWS::AccountId>:identity/${identity}`;
  const expected = pairs(['logs:CreateLogStream', 'logs:PutLogEvents'], [logGroup]);
  for (const grant of grants) {
    if (grant === 'table:read') {
      const actions = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'];
      expected.push(...pairs(actions, [t.table, ...t.indexes]));
    } else if (grant === 'table:write') {
      const actions = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
      expected.push(...pairs(actions, [t.table]));
    } else if (grant === 'photos:read') {
      expected.push(...pairs(['s3:GetObject'], photoObjects), ...pairs(['s3:ListBucket'], [t.bucket]));
    } else if (grant === 'photos:write') {
      const actions = ['s3:PutObject', 's3:AbortMultipartUpload', 's3:ListMultipartUploadParts', 's3:DeleteObject'];
      expected.push(...pairs(actions, photoObjects));
    } else if (grant === 'receipts:read') {
      expected.push(...pairs(['s3:GetObject'], [`${t.bucket}/receipts/*`]));
    } else if (grant === 'receipts:write') {
      expected.push(...pairs(['s3:PutObject'], [`${t.bucket}/receipts/*`]));
    } else if (grant === 'exports:read') {
      expected.push(...pairs(['s3:GetObject'], [`${t.bucket}/exports/*`]));
    } else if (grant === 'exports:write') {
      const actions = ['s3:PutObject', 's3:AbortMultipartUpload', 's3:DeleteObject'];
      expected.push(...pairs(actions, [`${t.bucket}/exports/*`]));
    } else if (grant === 'stripe') {
      expected.push(...pairs(['secretsmanager:GetSecretValue'], [t.stripeSecret]));
    } else if (grant === 'identity:admin') {
      expected.push(...pairs(['secretsmanager:GetSecretValue'], [t.firebaseAdminSecret]));
    } else if (grant === 'unsubscribe:key') {
      expected.push(...pairs(['secretsmanager:GetSecretValue'], [t.unsubscribeKeySecret]));
    } else if (grant === 'email:send') {
      expected.push(...pairs(['ses:SendEmail'], [ses(sender), ses('photos.example.com')]));
    } else if (grant === 'live:post') {
      // PostToConnection and DeleteConnection on the one stage's connections: no GET, no other stage or API.
      const connections = ['POST', 'DELETE'].map((method) => `${t.liveStage}/${method}/@connections/*`);
      expected.push(...pairs(['execute-api:ManageConnections'], connections));
    } else {
      expected.push(...pairs(['sqs:SendMessage'], [t.queueOf(grant.slice('queue:'.length) as QueueName)]));
    }
  }
  return new Set(expected);
};

const logGroupOf = (stackName: string, functionId: string) => {
  const fn = templates[stackName]!.Resources[functionId]!;
  const logGroup = (fn.Properties.LoggingConfig as { LogGroup: { Ref: string } }).LogGroup.Ref;
  return `<${logGroup}.Arn>`;
};

const sorted = (set: Set<string>) => [...set].sort();

beforeAll(() => {
  const { stacks } = marketplaceApp({ settings: configured });
  templates = Object.fromEntries(
    Object.values(stacks).map((stack) => [stack.stackName, Template.fromStack(stack).toJSON() as Json]),
  );
  routeGroups = stacks.api.routeGroups.map((group) => group.node.path);
  for (const group of stacks.api.routeGroups) templates[group.node.path] = nestedTemplate(group).toJSON() as Json;
});

describe('the key prefixes granted on the photos bucket', () => {
  it('are where the services put originals and zips', () => {
    expect(originalsPrefix('o1').startsWith('orders/')).toBe(true);
    expect(zipKeyFor('o1', 'edited', 'f').startsWith('zips/')).toBe(true);
    expect(profilePicturePrefix('u1', 'image').startsWith('profiles/')).toBe(true);
    expect(profilePicturePrefix('u1', 'logo').startsWith('profiles/')).toBe(true);
  });

  it('keep receipts under receipts/, which no photo grant reaches', () => {
    expect(receiptKeyFor({ photographerId: 'u1', orderId: 'o1', entryId: 'e1' }).startsWith('receipts/')).toBe(true);
    expect(photoPrefixes.some((prefix) => 'receipts/'.startsWith(prefix))).toBe(false);
  });

  it('keep data downloads under exports/, which no photo grant reaches', () => {
    expect(exportZipKey('u1', 'e1').startsWith('exports/')).toBe(true);
    expect(photoPrefixes.some((prefix) => 'exports/'.startsWith(prefix))).toBe(false);
  });
});

describe('each route function', () => {
  it.each(
    routes.map((route) => [routeKey(route), route] as const),
  )('%s may do exactly what its grants say', (key, route) => {
    const found = routeGroups.flatMap((group) =>
      functionsOf(group)
        .filter(([, fn]) => fn.Properties.Description === key)
        .map(([functionId]) => [group, functionId] as const),
    );
    expect(found, key).toHaveLength(1);
    const [group, functionId] = found[0]!;
    expect(sorted(permissionsOf(group, functionId))).toEqual(
      sorted(expectedFor(route.grants, logGroupOf(group, functionId))),
    );
  });
});

describe('each worker function', () => {
  it.each(
    workers.map((worker) => [worker.queue, worker] as const),
  )('of the %s queue may do what its grants say, and consume its own queue', (queue) => {
    const found = functionsOf('MarketplaceWorkers').filter(
      ([, fn]) => fn.Properties.Description === `Consumes the ${queue} queue`,
    );
    expect(found, queue).toHaveLength(1);
    const [functionId] = found[0]!;
    const consume = pairs(
      [
        'sqs:ReceiveMessage',
        'sqs:ChangeMessageVisibility',
        'sqs:GetQueueUrl',
        'sqs:DeleteMessage',
        'sqs:GetQueueAttributes',
      ],
      [targets().queueOf(queue)],
    );
    const expected = expectedFor(workerGrants[queue], logGroupOf('MarketplaceWorkers', functionId));
    for (const pair of consume) expected.add(pair);
    expect(sorted(permissionsOf('MarketplaceWorkers', functionId))).toEqual(sorted(expected));
  });
});

describe('each scheduled worker', () => {
  it.each(
    schedules.map((schedule) => [schedule.name, schedule] as const),
  )('%s may do exactly what its grants say, and nothing invokes it but its rule', (name) => {
    const found = functionsOf('MarketplaceWorkers').filter(
      ([, fn]) => fn.Properties.Description === `Runs the ${name} schedule`,
    );
    expect(found, name).toHaveLength(1);
    const [functionId] = found[0]!;
    expect(sorted(permissionsOf('MarketplaceWorkers', functionId))).toEqual(
      sorted(expectedFor(scheduleGrants[name]!, logGroupOf('MarketplaceWorkers', functionId))),
    );
    const invokers = Object.values(templates.MarketplaceWorkers!.Resources).filter(
      (r) =>
        r.Type === 'AWS::Lambda::Permission' && JSON.stringify(r.Properties.FunctionName).includes(`"${functionId}"`),
    );
    expect(invokers.map((p) => p.Properties.Principal)).toEqual(['events.amazonaws.com']);
    expect(JSON.stringify(invokers[0]!.Properties.SourceArn)).toMatch(/Rule/);
  });
});

describe('each WebSocket function', () => {
  const liveFunctions = [
    { description: 'WebSocket $connect authorizer', grants: liveAuthorizer.grants },
    ...liveRoutes.map((route) => ({ description: `WebSocket ${route.routeKey}`, grants: route.grants })),
  ];

  it.each(
    liveFunctions.map((fn) => [fn.description, fn] as const),
  )('%s may do exactly what the WebSocket route table says', (description, { grants }) => {
    const found = functionsOf('MarketplaceLive').filter(([, fn]) => fn.Properties.Description === description);
    expect(found, description).toHaveLength(1);
    const [functionId] = found[0]!;
    expect(sorted(permissionsOf('MarketplaceLive', functionId))).toEqual(
      sorted(expectedFor(grants, logGroupOf('MarketplaceLive', functionId))),
    );
  });
});

describe('the API', () => {
  it("invokes each route group's functions as one role of the group's, that only the API may assume and that may invoke exactly them", () => {
    const apiResources = templates.MarketplaceApi!.Resources;
    const apis = Object.entries(apiResources).filter(([, r]) => r.Type === 'AWS::ApiGatewayV2::Api');
    expect(apis).toHaveLength(1);
    const [apiId] = apis[0]!;
    let integrationCount = 0;
    for (const group of routeGroups) {
      const { Resources } = templates[group]!;
      const invokers = Object.entries(Resources).filter(
        ([, r]) =>
          r.Type === 'AWS::IAM::Role' &&
          JSON.stringify(r.Properties.AssumeRolePolicyDocument).includes('apigateway.amazonaws.com'),
      );
      expect(invokers, group).toHaveLength(1);
      const [roleId, role] = invokers[0]!;
      expect(role.Properties.ManagedPolicyArns, group).toBeUndefined();
      // Only this API: the trust names its execute-api ARN (the API stack's HttpApi) and the account.
      const trust = JSON.stringify(role.Properties.AssumeRolePolicyDocument);
      expect(trust, group).toMatch(/aws:SourceArn.*execute-api/);
      expect(trust, group).toContain(`{"Ref":"${apiId}"}`);
      expect(trust, group).toContain('aws:SourceAccount');
      const statements = [
        ...asArray(role.Properties.Policies as { PolicyDocument: { Statement: Statement[] } }[]).flatMap(
          (p) => p.PolicyDocument.Statement,
        ),
        ...Object.values(Resources)
          .filter((r) => r.Type === 'AWS::IAM::Policy')
          .filter((r) => asArray(r.Properties.Roles as { Ref: string }[]).some((ref) => ref.Ref === roleId))
          .flatMap((r) => (r.Properties.PolicyDocument as { Statement: Statement[] }).Statement),
      ];
      const functionArns = functionsOf(group).map(([functionId]) => `<${functionId}.Arn>`);
      expect(functionArns.length, group).toBeGreaterThan(0);
      // Each of the group's functions by its ARN, and nothing else: no wildcard, no other group's.
      expect(statements.map((s) => [s.Effect, s.Action, s.Condition])).toEqual([
        ['Allow', 'lambda:InvokeFunction', undefined],
      ]);
      expect(
        asArray(statements[0]!.Resource)
          .map((r) => render(r, group))
          .sort(),
        group,
      ).toEqual(functionArns.sort());
      // Every route's integration calls its group's function as that role; no function carries a permission of its own.
      const integrations = Object.values(Resources).filter((r) => r.Type === 'AWS::ApiGatewayV2::Integration');
      expect(integrations, group).toHaveLength(functionArns.length);
      for (const integration of integrations) {
        expect(render(integration.Properties.CredentialsArn, group)).toBe(`<${roleId}.Arn>`);
        expect(functionArns).toContain(render(integration.Properties.IntegrationUri, group));
      }
      integrationCount += integrations.length;
      expect(Object.values(Resources).filter((r) => r.Type === 'AWS::Lambda::Permission')).toHaveLength(0);
    }
    expect(integrationCount).toBe(routes.length);
    expect(Object.values(apiResources).filter((r) => r.Type === 'AWS::Lambda::Permission')).toHaveLength(0);
    expect(Object.values(apiResources).filter((r) => r.Type === 'AWS::IAM::Role')).toHaveLength(0);
  });
});

describe('no function anywhere', () => {
  it('may Scan, use a wildcard action, or act on every resource', () => {
    const all = [...routeGroups, 'MarketplaceWorkers', 'MarketplaceLive'].flatMap((stackName) =>
      functionsOf(stackName).flatMap(([functionId]) => [...permissionsOf(stackName, functionId)]),
    );
    expect(all.length).toBeGreaterThan(routes.length);
    for (const pair of all) {
      const [action, resource] = pair.split(' on ');
      expect(action).not.toBe('dynamodb:Scan');
      expect(action).not.toContain('*');
      expect(resource).not.toBe('*');
    }
  });

  it('is given the photos bucket in the route table or the worker table without its functions being counted here', () => {
    // Every function of the three stacks is a route, a worker or a WebSocket function: none escapes the checks above.
    // The API stack's functions are all in its route groups.
    expect(functionsOf('MarketplaceApi')).toHaveLength(0);
    expect(routeGroups.flatMap((group) => functionsOf(group))).toHaveLength(routes.length);
    expect(functionsOf('MarketplaceWorkers')).toHaveLength(workers.length + schedules.length);
    // The authorizer and one function per WebSocket route; the ping route runs none.
    expect(functionsOf('MarketplaceLive')).toHaveLength(liveRoutes.length + 1);
    // A role a route, and in each route group the one the API invokes its functions as.
    const apiRoles = routeGroups.flatMap((group) =>
      resourcesOfType(Template.fromJSON(templates[group]!), 'AWS::IAM::Role'),
    );
    expect(apiRoles).toHaveLength(routes.length + routeGroups.length);
    expect(resourcesOfType(Template.fromJSON(templates.MarketplaceApi!), 'AWS::IAM::Role')).toHaveLength(0);
  });
});
