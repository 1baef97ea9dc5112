import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
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
