import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { liveRoutes } from '@marketplace/services/live-routes';
import { routes } from '@marketplace/services/routes';
import { schedules, workers } from '@marketplace/services/workers';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marketplaceApp, resourcesOfType } from './synthesize-marketplace';

let bundles: string[];
/** Each route's bundle, by its route ('GET /api/orders/{id}'). */
let routeBundles: [string, string][];
let thumbnailBundle: string;
/** Bundles of the workers whose packages esbuild cannot lower arrow functions in. */
let arrowKeepingBundles: string[];
let assemblyDir: string;

beforeAll(() => {
  const { app, stacks } = marketplaceApp({ bundle: true });
  assemblyDir = app.synth().directory;
  const bundleOf = (fn: { Properties: Record<string, unknown> }) => {
    const assetHash = (fn.Properties.Code as { S3Key: string }).S3Key.replace(/\.zip$/, '');
    return join(assemblyDir, `asset.${assetHash}`, 'index.mjs');
  };
  bundles = [...stacks.api.routeGroups, stacks.workers, stacks.live].flatMap((stack) =>
    resourcesOfType(Template.fromStack(stack), 'AWS::Lambda::Function').map(([, fn]) => bundleOf(fn)),
  );
  routeBundles = stacks.api.routeGroups.flatMap((stack) =>
    resourcesOfType(Template.fromStack(stack), 'AWS::Lambda::Function').map(
      ([, fn]) => [fn.Properties.Description as string, bundleOf(fn)] as [string, string],
    ),
  );
  const [, thumbnails] = resourcesOfType(Template.fromStack(stacks.workers), 'AWS::Lambda::Function').find(
    ([, fn]) => fn.Properties.Description === 'Consumes the thumbnails queue',
  )!;
  thumbnailBundle = bundleOf(thumbnails);
  const arrowKeepingDescriptions = workers
    .filter((worker) => worker.keepArrowFunctions)
    .map((worker) => `Consumes the ${worker.queue} queue`);
  arrowKeepingBundles = resourcesOfType(Template.fromStack(stacks.workers), 'AWS::Lambda::Function')
    .filter(([, fn]) => arrowKeepingDescriptions.includes(fn.Properties.Description as string))
    .map(([, fn]) => bundleOf(fn));
  // One esbuild run builds every function but those with native packages or arrow functions kept (shared-bundles.ts).
}, 1_500_000);

// The bundles are megabytes per function: do not leave them behind in the temp directory.
afterAll(() => rmSync(assemblyDir, { recursive: true, force: true }));

describe('esbuild bundles', () => {
  it('exist for every route handler, worker and WebSocket function, with a source map', () => {
    // The WebSocket functions: the $connect authorizer and one per WebSocket route; the scheduled workers.
    expect(bundles).toHaveLength(routes.length + workers.length + 1 + liveRoutes.length + schedules.length);
    for (const bundle of bundles) {
      expect(existsSync(bundle), bundle).toBe(true);
      expect(existsSync(`${bundle}.map`), bundle).toBe(true);
    }
  });

  it('load as ES modules in plain Node.js and export a handler function', () => {
    // A separate Node process, as Lambda would run it: the test runner's own module loader must not help.
    const script = `for (const url of JSON.parse(process.argv[1])) console.log(typeof (await import(url)).handler);`;
    const urls = JSON.stringify(bundles.map((bundle) => pathToFileURL(bundle).href));
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script, urls], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', AWS_REGION: 'us-east-1' },
    });
    expect(output.trim().split('\n')).toEqual(bundles.map(() => 'function'));
  });

  it('leave ElectroDB out of every route: they read and write beside it (decisions 0117 to 0119)', () => {
    // ElectroDB's error messages link its docs: the text survives minification.
    const holding = routeBundles.filter(([, file]) => readFileSync(file, 'utf8').includes('electrodb.dev'));
    expect(routeBundles.length).toBeGreaterThan(100);
    expect(holding.map(([route]) => route)).toEqual([]);
  });

  it('carry their own AWS SDK instead of the one in the Lambda runtime', () => {
    for (const bundle of bundles) expect(readFileSync(bundle, 'utf8'), bundle).not.toMatch(/from\s*["']@aws-sdk\//);
    // The workers that still read through ElectroDB bundle the DynamoDB client it is given.
    expect(bundles.some((bundle) => readFileSync(bundle, 'utf8').includes('DynamoDBClient'))).toBe(true);
  });

  it("take a function's credentials from its environment: no bundle holds the rest of the SDK's chain (decision 0120)", () => {
    // The STS and SSO clients the chain's other links build: their service names survive minification.
    for (const bundle of bundles) {
      const text = readFileSync(bundle, 'utf8');
      expect(text, bundle).not.toContain('AWSSecurityTokenServiceV20110615');
      expect(text, bundle).not.toContain('SSOOIDCClient');
    }
  });

  it("send DynamoDB's calls as signed requests: no route holds the DynamoDB client (decision 0119)", () => {
    const holding = routeBundles.filter(([, file]) => readFileSync(file, 'utf8').includes('DynamoDBClient'));
    expect(holding.map(([route]) => route)).toEqual([]);
  });

  it('carry no arrow functions, so that V8 compiles each module wrapper once (options.ts)', () => {
    expect(arrowKeepingBundles).toHaveLength(workers.filter((worker) => worker.keepArrowFunctions).length);
    // esbuild's CommonJS wrapper, minified, as an arrow function: `var a=(e,t)=>()=>(t||e((t=`.
    const arrowModuleWrapper = /=\((\w+),(\w+)\)=>\(\)=>\(\2\|\|\1\(/;
    for (const bundle of bundles) {
      if (arrowKeepingBundles.includes(bundle))
        expect(readFileSync(bundle, 'utf8'), bundle).toMatch(arrowModuleWrapper);
      else expect(readFileSync(bundle, 'utf8'), bundle).not.toContain('=>');
    }
  });

  it('load no web streams at start, which only a streamed response needs', () => {
    // Only a streamed response needs node:stream/web; the bundles alias it to a stand-in (options.ts).
    for (const bundle of bundles) {
      expect(readFileSync(bundle, 'utf8'), bundle).not.toMatch(/from\s*["']node:stream\/web["']/);
    }
  });

  it('leave native sharp out of the thumbnail worker and carry it beside the bundle instead', () => {
    expect(readFileSync(thumbnailBundle, 'utf8')).toMatch(/from\s*["']sharp["']/);
    expect(existsSync(join(thumbnailBundle, '..', 'node_modules', 'sharp', 'package.json'))).toBe(true);
    const routeBundle = bundles.find((bundle) => bundle !== thumbnailBundle)!;
    expect(existsSync(join(routeBundle, '..', 'node_modules'))).toBe(false);
  });
});
