import { routeKey, routes } from '@marketplace/services/routes';
import { NestedStack, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { maxRoutesPerGroup, routeArea } from '../lib/api-stack';
import { marketplaceApp, resourcesOfType } from './synthesize-marketplace';

/**
 * CloudFormation takes at most 500 resources a stack, a nested stack included, and refuses the
 * whole deploy past it. Every stack stays at or under 450, so a feature's few resources never
 * find the wall in a deploy; and the API, whose size follows the route table, is measured for
 * the routes coming (docs/decisions/0100-route-functions-in-nested-stacks-by-area.md).
 */
const ceiling = 450;
/** The routes the API must be able to take without another change to its layout. */
const routesToHold = 250;
/** IAM's limit on the inline policies of one role, in characters (whitespace not counted). */
const inlinePolicyCharacters = 10_240;
/**
 * The longest function ARN there can be: the longest partition and region, and a 64-character
 * function name (arn:aws-us-gov:lambda:us-gov-west-1:123456789012:function:...).
 */
const longestFunctionArn = 'arn:aws-us-gov:lambda:us-gov-west-1:123456789012:function:'.length + 64;

const configured = {
  firebaseProjectId: 'acme-photos',
  mailFrom: 'PhotoEdit <no-reply@photos.example.com>',
  siteUrl: 'https://photos.example.com',
  alarmEmail: 'ops@photos.example.com',
};

let stacks: ReturnType<typeof marketplaceApp>['stacks'];
let everyStack: Stack[];
const templates = new Map<Stack, Template>();
const templateOf = (stack: Stack) => {
  const template = templates.get(stack) ?? Template.fromStack(stack);
  templates.set(stack, template);
  return template;
};
const countOf = (stack: Stack) => Object.keys(templateOf(stack).toJSON().Resources ?? {}).length;

beforeAll(() => {
  const synthesized = marketplaceApp({ settings: configured });
  stacks = synthesized.stacks;
  everyStack = synthesized.app.node.findAll().filter(Stack.isStack);
});

describe('every stack of the app', () => {
  it(`holds at most ${ceiling} resources, nested stacks included`, () => {
    const nested = everyStack.filter(NestedStack.isNestedStack);
    expect(nested.length).toBe(new Set(routes.map(routeArea)).size);
    expect(everyStack.length).toBe(Object.keys(stacks).length + nested.length);
    const counts = Object.fromEntries(everyStack.map((stack) => [stack.node.path, countOf(stack)]));
    for (const [path, count] of Object.entries(counts)) expect(count, path).toBeLessThanOrEqual(ceiling);
  });
});

describe('the API', () => {
  it(`could take ${routesToHold} routes at what a route costs today`, () => {
    const api = templateOf(stacks.api);
    const groups = stacks.api.routeGroups;

    // The API stack: a route a route, a nested stack an area, and a few resources whatever the routes.
    const apiCount = countOf(stacks.api);
    const apiPerRoute = resourcesOfType(api, 'AWS::ApiGatewayV2::Route').length / routes.length;
    const apiPerGroup = resourcesOfType(api, 'AWS::CloudFormation::Stack').length / groups.length;
    const apiFixed = apiCount - apiPerRoute * routes.length - apiPerGroup * groups.length;
    expect(apiPerRoute).toBe(1);
    expect(apiPerGroup).toBe(1);
    // The HTTP API, its stage, its JWT authorizer, its access log.
    expect(apiFixed).toBe(4);

    // A route group: a line through its sizes, fixed + per route x its routes, from two groups of different sizes.
    const sizes = groups.map((group) => ({ routes: group.functions.size, count: countOf(group) }));
    const smallest = sizes.reduce((a, b) => (b.routes < a.routes ? b : a));
    const largest = sizes.reduce((a, b) => (b.routes > a.routes ? b : a));
    expect(largest.routes).toBeGreaterThan(smallest.routes);
    const groupPerRoute = (largest.count - smallest.count) / (largest.routes - smallest.routes);
    const groupFixed = largest.count - groupPerRoute * largest.routes;
    // Every group lies on that line: nothing in a group grows but with its routes.
    for (const size of sizes) expect(size.count).toBe(groupFixed + groupPerRoute * size.routes);
    // Function, role, log group, integration; and the group's invoke role.
    expect(groupPerRoute).toBe(4);
    expect(groupFixed).toBe(1);
    expect(sizes.reduce((sum, size) => sum + size.routes, 0)).toBe(routes.length);

    // At 250 routes, with twice as many areas for their number as today (new features come in areas of their own):
    const routesPerArea = routes.length / groups.length;
    const areasThen = Math.ceil((routesToHold / routesPerArea) * 2);
    expect(apiFixed + apiPerRoute * routesToHold + apiPerGroup * areasThen).toBeLessThanOrEqual(ceiling);
    // ...and the most routes the API stack could take then, one resource each.
    const apiCapacity = Math.floor((ceiling - apiFixed - apiPerGroup * areasThen) / apiPerRoute);
    expect(apiCapacity).toBeGreaterThanOrEqual(routesToHold);
    // A group can never outgrow its stack: an area holds at most maxRoutesPerGroup routes.
    expect(groupFixed + groupPerRoute * maxRoutesPerGroup).toBeLessThanOrEqual(ceiling);
    for (const size of sizes) expect(size.routes).toBeLessThanOrEqual(maxRoutesPerGroup);
  });

  it("names each function of a full route group in the group's invoke role within IAM's limit on inline policies", () => {
    const group = stacks.api.routeGroups.reduce((a, b) => (b.functions.size > a.functions.size ? b : a));
    const template = templateOf(group);
    const [, invoker] = resourcesOfType(template, 'AWS::IAM::Role').find(([id]) => id.startsWith('RouteInvokeRole'))!;
    const policies = invoker.Properties.Policies as { PolicyDocument: { Statement: { Resource: unknown[] }[] } }[];
    const arns = policies.flatMap((policy) => policy.PolicyDocument.Statement.flatMap((s) => s.Resource));
    expect(arns).toHaveLength(group.functions.size);
    // The policy as IAM stores it: its JSON without whitespace, each ARN at its longest, at maxRoutesPerGroup functions.
    const withoutArns = JSON.stringify(
      policies.map((policy) => ({ ...policy, PolicyDocument: { ...policy.PolicyDocument, Statement: [] } })),
    ).length;
    const statement = JSON.stringify({ Action: 'lambda:InvokeFunction', Effect: 'Allow', Resource: [] }).length;
    const perArn = longestFunctionArn + '"",'.length;
    expect(withoutArns + statement + perArn * maxRoutesPerGroup).toBeLessThanOrEqual(inlinePolicyCharacters);
  });

  it('gives every route of the route table a group', () => {
    const grouped = stacks.api.routeGroups.flatMap((group) => [...group.functions.keys()]);
    expect(grouped.sort()).toEqual(routes.map(routeKey).sort());
  });
});
