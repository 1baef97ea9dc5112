import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lambdaBuildOptions } from '../../../infra/lib/bundling/options';
import { readableStack } from './readable-stacks';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
let dir: string;
let bundle: string;

beforeAll(async () => {
  // Bundled as the CDK app bundles a function (minified, with a source map beside it), in a
  // directory outside the repository, as the CDK app's asset staging is.
  dir = mkdtempSync(path.join(os.tmpdir(), 'readable-stacks-'));
  bundle = path.join(dir, 'index.mjs');
  await build({
    ...lambdaBuildOptions(repoRoot),
    entryPoints: [path.join(repoRoot, 'services', 'test', 'fixtures', 'failing-function.ts')],
    outfile: bundle,
    sourcemap: true,
    sourcesContent: false,
    logLevel: 'error',
  });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The JSON lines a bundled function writes to stderr when it is called, without --enable-source-maps. */
const errorLinesOfBundle = () => {
  const child = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', `(await import(${JSON.stringify(pathToFileURL(bundle).href)})).handler();`],
    { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', AWS_REGION: 'us-east-1' } },
  );
  expect(child.status).toBe(0);
  return child.stderr
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { message: string; error: Record<string, unknown> });
};

describe('stack traces of a bundled function', () => {
  it('are logged in the sources’ files and lines, causes included, with no repository path outside it', () => {
    const [viaObject, direct] = errorLinesOfBundle();
    for (const line of [viaObject!, direct!]) {
      const error = line.error as { location: string; stack: string; message: string; cause: { stack: string } };
      expect(error.message).toBe('order o-1 is broken');
      // The throw is on line 5 of the fixture; the call on line 10.
      expect(error.location).toBe('services/test/fixtures/failing-function.ts:5');
      expect(error.stack).toContain('services/test/fixtures/failing-function.ts:5:9');
      expect(error.stack).toContain('services/test/fixtures/failing-function.ts:10:5');
      expect(error.stack).not.toContain('index.mjs');
      expect(error.stack).not.toContain(repoRoot);
      expect(error.cause.stack).toContain('services/test/fixtures/failing-function.ts:5:58');
    }
  });

  it('stay as they are where no source map is beside the file', () => {
    const stack = 'Error: x\n    at f (/nowhere/index.mjs:1:200)\n    at g (file:///srv/app/src/app.ts:3:4)';
    expect(readableStack(stack)).toBe(stack);
  });
});
