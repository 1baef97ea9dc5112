import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { liveAuthorizer, liveRoutes } from '@marketplace/services/live-routes';
import { routes } from '@marketplace/services/routes';
import { schedules, workers } from '@marketplace/services/workers';
import { buildSync } from 'esbuild';
import { lambdaBuildOptions } from './options';

/**
 * Every function's bundle from one esbuild run: each module of services/src that a function
 * runs (the route, WebSocket, worker and schedule tables) is an entry point of the same build,
 * which writes one self-contained `index.mjs` (and its source map) per module, as a build of
 * that module alone would, with the options of `options.ts`. esbuild parses each shared source
 * (the AWS SDK, ElectroDB, our own data layer) once for all ~130 functions instead of once per
 * function in a process of its own: a synth that bundles takes a fraction of the time
 * (docs/decisions/0116-one-esbuild-run-for-every-function.md).
 *
 * Built on the first bundle asked for, once per process and per option set; the folder is removed
 * when the process exits (the CDK copies each bundle into the cloud assembly).
 */
export const sharedBundleModules = (): string[] => {
  const modules = [
    ...routes.map((route) => `handlers/${route.handler}`),
    `handlers/${liveAuthorizer.handler}`,
    ...liveRoutes.map((route) => `handlers/${route.handler}`),
    ...workers
      .filter((worker) => !worker.nativeModules?.length && !worker.keepArrowFunctions)
      .map((worker) => `workers/${worker.handler}`),
    ...schedules.map((schedule) => `workers/${schedule.handler}`),
  ];
  return [...new Set(modules)];
};

const builds = new Map<string, string>();

/** The folder holding `index.mjs` and `index.mjs.map` of a module's bundle (built with all the others). */
export const sharedBundleDir = (repoRoot: string, module: string) => {
  const modules = sharedBundleModules();
  if (!modules.includes(module)) throw new Error(`${module} is not a function of the route, worker or schedule tables`);
  let outdir = builds.get(repoRoot);
  if (!outdir) {
    outdir = mkdtempSync(join(tmpdir(), 'function-bundles-'));
    const built = outdir;
    process.once('exit', () => rmSync(built, { recursive: true, force: true }));
    buildSync({
      ...lambdaBuildOptions(repoRoot),
      entryPoints: Object.fromEntries(
        modules.map((name) => [`${name}/index`, join(repoRoot, 'services', 'src', `${name}.ts`)]),
      ),
      outdir,
      outExtension: { '.js': '.mjs' },
      sourcemap: true,
      // Stack traces only need file and line; embedding sources would double the bundle.
      sourcesContent: false,
      logLevel: 'warning',
    });
    builds.set(repoRoot, outdir);
  }
  const dir = join(outdir, module);
  if (!existsSync(join(dir, 'index.mjs'))) throw new Error(`esbuild wrote no bundle for ${module}`);
  return dir;
};

/** Copies a module's bundle into the folder the CDK stages as the function's code. */
export const copySharedBundle = (repoRoot: string, module: string, outputDir: string) => {
  cpSync(sharedBundleDir(repoRoot, module), outputDir, { recursive: true });
  return true;
};
