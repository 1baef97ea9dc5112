import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, type NestedStack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { ApiStack } from '../lib/api-stack';
import { buildMarketplace } from '../lib/marketplace';
import { type MarketplaceSettings, readSettings, repoRoot } from '../lib/settings';

/** The same feature flags and settings `cdk synth` uses, from the root cdk.json. */
export const cdkJsonContext = (): Record<string, unknown> =>
  JSON.parse(readFileSync(join(repoRoot, 'cdk.json'), 'utf8')).context;

export interface SynthesisOptions {
  /** Run esbuild for every function; off by default because only the bundling test needs it. */
  bundle?: boolean;
  /**
   * Where bundles get native packages such as sharp: by default a link to the workspace's own
   * install, so bundling needs no network and the bundle loads on this machine.
   */
  nativeModulesFrom?: 'registry' | 'workspace';
  settings?: Partial<MarketplaceSettings>;
}

/** The whole app as `cdk synth` builds it, ignoring the caller's environment variables. */
export const marketplaceApp = ({
  bundle = false,
  settings = {},
  nativeModulesFrom = 'workspace',
}: SynthesisOptions = {}) => {
  const app = new App({
    context: { ...cdkJsonContext(), nativeModulesFrom, ...(bundle ? {} : { 'aws:cdk:bundling-stacks': [] }) },
  });
  const stacks = buildMarketplace(app, {
    ...readSettings(app, {}),
    webDistPath: join(repoRoot, 'infra', 'test', 'no-web-build-here'),
    ...settings,
  });
  return { app, stacks };
};

type Resource = { Type: string; Properties: Record<string, unknown>; DeletionPolicy?: string };

/** Resources of one type, by logical id. */
export const resourcesOfType = (template: Template, type: string) =>
  Object.entries(template.toJSON().Resources as Record<string, Resource>).filter(([, r]) => r.Type === type);

type Json = Record<string, unknown>;

/** Replaces each Ref to one of the template's parameters by the value its parent stack passes in. */
const withParameterValues = (value: unknown, parameters: Json): unknown => {
  if (Array.isArray(value)) return value.map((item) => withParameterValues(item, parameters));
  if (value && typeof value === 'object') {
    const object = value as Json;
    const keys = Object.keys(object);
    if (keys.length === 1 && keys[0] === 'Ref' && typeof object.Ref === 'string' && object.Ref in parameters) {
      return parameters[object.Ref];
    }
    return Object.fromEntries(keys.map((key) => [key, withParameterValues(object[key], parameters)]));
  }
  return value;
};

/**
 * A nested stack's template as if it were part of its parent: every Ref to a parameter is
 * replaced by what the parent passes (a Ref in the parent, or a reference to another stack), so
 * a test reads "the table of the data stack" in a route group's policy as it would in the parent.
 */
export const nestedTemplate = (nested: NestedStack) => {
  const parent = nested.nestedStackParent;
  const resource = nested.nestedStackResource;
  if (!parent || !resource) throw new Error(`${nested.node.path} is not a nested stack`);
  const parentResources = Template.fromStack(parent).toJSON().Resources as Record<string, { Properties: Json }>;
  const passed = (parentResources[parent.resolve(resource.logicalId) as string]?.Properties.Parameters ?? {}) as Json;
  const { Parameters: _, ...json } = Template.fromStack(nested).toJSON();
  return Template.fromJSON(withParameterValues(json, passed) as Json);
};

/** The API stack's route groups (nested stacks), by the logical id of their stack resource in the API stack. */
export const routeGroupTemplates = (api: ApiStack) =>
  new Map(
    api.routeGroups.map((group) => [
      api.resolve(group.nestedStackResource!.logicalId) as string,
      nestedTemplate(group),
    ]),
  );

/**
 * What the API's route for a route key invokes: the route (in the API stack) targets an
 * integration its route group publishes as an output; that integration's URI is the function's ARN.
 */
export const functionOfRoute = (api: Template, groups: ReadonlyMap<string, Template>, key: string) => {
  const route = resourcesOfType(api, 'AWS::ApiGatewayV2::Route').find(([, r]) => r.Properties.RouteKey === key);
  if (!route) throw new Error(`no route ${key}`);
  const target = JSON.stringify(route[1].Properties.Target);
  const [, groupId, output] = target.match(/"Fn::GetAtt":\["([A-Za-z0-9]+)","Outputs\.([A-Za-z0-9]+)"\]/) ?? [];
  const group = groupId ? groups.get(groupId) : undefined;
  if (!group || !output) throw new Error(`${key} targets ${target}, not an integration of a route group`);
  const json = group.toJSON() as { Resources: Record<string, Resource>; Outputs: Record<string, { Value: unknown }> };
  const integrationId = (json.Outputs[output]?.Value as { Ref: string }).Ref;
  const integration = json.Resources[integrationId]!;
  const functionId = (integration.Properties.IntegrationUri as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  const fn = json.Resources[functionId];
  if (fn?.Type !== 'AWS::Lambda::Function') throw new Error(`${key}'s integration invokes no function of its group`);
  return { groupId, template: group, integrationId, integration, functionId, properties: fn.Properties };
};

/**
 * Every stack's template, by stack name, and each route group's (nested in the API stack) by its
 * place in the app ("MarketplaceApi/AdminRoutes"), with the values the API stack passes it.
 */
export const everyTemplate = (stacks: ReturnType<typeof marketplaceApp>['stacks']) => ({
  ...Object.fromEntries(Object.values(stacks).map((stack) => [stack.stackName, Template.fromStack(stack)])),
  ...Object.fromEntries(stacks.api.routeGroups.map((group) => [group.node.path, nestedTemplate(group)])),
});
