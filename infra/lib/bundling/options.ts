import { join } from 'node:path';

/**
 * How every Lambda is bundled, in one place for the CDK app (infra/lib/service-function.ts), the
 * cold-start bench and the test that runs a bundle against the local table, so that what is
 * measured and tested is what is deployed.
 */

// ESM bundles cannot `require`; some CommonJS dependencies still do, so give them one.
export const commonJsRequireBanner =
  "import { createRequire as createRequireForCommonJs } from 'node:module'; const require = createRequireForCommonJs(import.meta.url);";

export const esbuildTarget = 'node24';

/**
 * esbuild wraps each module it must initialise in order (CommonJS packages, and ES modules a
 * CommonJS one requires) in a closure it calls at load. Written as arrow functions, V8 first
 * skims each closure and then parses it again when it runs, moments later; as `function`
 * expressions passed straight to a call, V8 compiles them fully on the first pass. Lowering arrow
 * functions makes esbuild write them so: every bundle imports about a fifth sooner, the floor
 * included (docs/decisions/0081-module-closures-compiled-once.md), for about 4% more bytes. esbuild cannot lower an
 * arrow function that uses `super` (it writes a `function` that does, which does not parse): a
 * bundle with one keeps its arrow functions (`keepArrowFunctions` in the worker table), and the
 * bundling test loads every bundle, so a new one is found before it deploys.
 */
export const eagerlyCompiledModules = { arrow: false };

/** Packages the bundles replace (esbuild `alias`), by absolute path of the stand-in. */
export const bundleAliases = (repoRoot: string): Record<string, string> => ({
  jsonschema: join(repoRoot, 'infra', 'lib', 'bundling', 'jsonschema-skipped.cjs'),
  '@aws-sdk/lib-dynamodb': join(repoRoot, 'infra', 'lib', 'bundling', 'document-client-given.cjs'),
  // A function's credentials are in its environment: the rest of the SDK's chain stays out (decision 0120).
  '@aws-sdk/credential-provider-node': join(repoRoot, 'infra', 'lib', 'bundling', 'credentials-from-environment.mjs'),
  // @middy/core imported it for streamed responses only; no route uses middy now (decision 0104),
  // and the stand-in keeps any package from loading Node's web streams while a function starts.
  'node:stream/web': join(repoRoot, 'infra', 'lib', 'bundling', 'node-stream-web-on-use.mjs'),
});

/** The esbuild options of a function's bundle (entry, output and externals aside). */
export const lambdaBuildOptions = (repoRoot: string, { keepArrowFunctions = false } = {}) => ({
  bundle: true,
  platform: 'node' as const,
  format: 'esm' as const,
  target: esbuildTarget,
  mainFields: ['module', 'main'],
  banner: { js: commonJsRequireBanner },
  minify: true,
  ...(keepArrowFunctions ? {} : { supported: eagerlyCompiledModules }),
  alias: bundleAliases(repoRoot),
});
