import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { NestedStack, type Stack, Token } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { marketplaceApp } from './synthesize-marketplace';

let stacks: ReturnType<typeof marketplaceApp>['stacks'];
let assembly: CloudAssembly;

beforeAll(() => {
  const synthesized = marketplaceApp();
  stacks = synthesized.stacks;
  assembly = synthesized.app.synth();
});

const dependencyNames = (stack: Stack) => stack.dependencies.map((dependency) => dependency.stackName).sort();

describe('the CDK app', () => {
  it('synthesizes without an AWS account, a region or context lookups, but for the edge stack in us-east-1', () => {
    expect(assembly.manifest.missing).toBeUndefined();
    expect(assembly.stacks.map((stack) => stack.stackName).sort()).toEqual(
      [
        'MarketplaceApi',
        'MarketplaceData',
        'MarketplaceEdge',
        'MarketplaceLive',
        'MarketplaceMonitoring',
        'MarketplaceStorage',
        'MarketplaceWeb',
        'MarketplaceWorkers',
      ].sort(),
    );
    for (const stack of Object.values(stacks)) {
      expect(Token.isUnresolved(stack.account), stack.stackName).toBe(true);
      // CloudFront takes its web ACL from us-east-1 only; every other stack takes the deployer's region.
      if (stack === stacks.edge) expect(stack.region).toBe('us-east-1');
      else expect(Token.isUnresolved(stack.region), stack.stackName).toBe(true);
    }
  });

  it('references stacks one way only, ending with the photos bucket that needs the site origin', () => {
    const deployOrder = [
      stacks.data,
      stacks.live,
      stacks.workers,
      stacks.api,
      stacks.edge,
      stacks.web,
      stacks.storage,
      stacks.monitoring,
    ];
    deployOrder.forEach((stack, position) => {
      const earlier = deployOrder.slice(0, position).map((earlierStack) => earlierStack.stackName);
      for (const dependency of dependencyNames(stack)) expect(earlier, stack.stackName).toContain(dependency);
    });
    expect(dependencyNames(stacks.storage)).toEqual(['MarketplaceWeb']);
    expect(dependencyNames(stacks.web)).toEqual(['MarketplaceApi', 'MarketplaceEdge', 'MarketplaceLive']);
    // The edge stack reads nothing of the others, so its region is the only one it needs.
    expect(dependencyNames(stacks.edge)).toEqual([]);
    expect(dependencyNames(stacks.api)).toContain('MarketplaceData');
    // The push worker posts to the WebSocket API; the API needs only the table.
    expect(dependencyNames(stacks.workers)).toEqual(['MarketplaceData', 'MarketplaceLive']);
    expect(dependencyNames(stacks.live)).toEqual(['MarketplaceData']);
    // Monitoring reads the queues, pipes and both APIs; no stack reads it, so it never holds up a deploy.
    expect(dependencyNames(stacks.monitoring)).toEqual(['MarketplaceApi', 'MarketplaceLive', 'MarketplaceWorkers']);
    for (const stack of Object.values(stacks)) expect(dependencyNames(stack)).not.toContain('MarketplaceMonitoring');
  });

  it("deploys the API's route groups with the API stack, as its nested stacks: `cdk deploy --all` is unchanged", () => {
    expect(stacks.api.routeGroups.length).toBeGreaterThan(0);
    for (const group of stacks.api.routeGroups) {
      expect(NestedStack.isNestedStack(group), group.node.path).toBe(true);
      expect(group.nestedStackParent).toBe(stacks.api);
      // Its template is written beside the API stack's, an asset that the API stack's deploy uploads.
      expect(existsSync(join(assembly.directory, group.templateFile)), group.templateFile).toBe(true);
    }
    expect(assembly.stacks.map((stack) => stack.stackName)).not.toContain(stacks.api.routeGroups[0]!.node.id);
  });

  it('protects the stacks that hold data from being deleted', () => {
    expect(stacks.data.terminationProtection).toBe(true);
    expect(stacks.storage.terminationProtection).toBe(true);
  });

  it('warns that the default Firebase project only exists in the emulator', () => {
    Annotations.fromStack(stacks.api).hasWarning('/MarketplaceApi', Match.stringLikeRegexp('demo-marketplace'));
  });
});
