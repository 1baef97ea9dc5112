import { readdirSync } from 'node:fs';
import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { lambdaBuildOptions } from '../lib/bundling/options';

/**
 * A function's bundle keeps only the schemas its code uses: every schema an events module defines
 * at its top level is written `/* @__PURE__ *\/ z.schema(() => ...)` (events/src/zod.ts), so esbuild
 * drops the ones nothing reads instead of building them when the function starts
 * (docs/decisions/0113-schemas-dropped-when-unused.md). Bundled with the CDK app's own options.
 */
const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const eventsSrc = path.join(repoRoot, 'events', 'src');

const bundle = async (entry: { handler: string } | { contents: string }) => {
  const result = await build({
    ...lambdaBuildOptions(repoRoot),
    ...('handler' in entry
      ? { entryPoints: [path.join(repoRoot, 'services', 'src', 'handlers', `${entry.handler}.ts`)] }
      : { stdin: { contents: entry.contents, resolveDir: path.join(repoRoot, 'services', 'src'), loader: 'ts' } }),
    outfile: 'index.mjs',
    write: false,
    metafile: true,
    logLevel: 'error',
  });
  return { code: result.outputFiles[0]!.text, metafile: result.metafile };
};

/** Bytes of the output that came from input files whose path contains `part`. */
const bytesFrom = (metafile: Metafile, part: string) =>
  Object.values(metafile.outputs)
    .flatMap((output) => Object.entries(output.inputs))
    .filter(([input]) => input.includes(part))
    .reduce((sum, [, { bytesInOutput }]) => sum + bytesInOutput, 0);

describe('schemas in the functions’ bundles', () => {
  it("keep the schema a route uses and leave out its module's others", async () => {
    // GET /api/orders/admin/all validates its query with adminOrdersQuery, one of admin.ts's twenty.
    const { code } = await bundle({ handler: 'admin/list-orders' });
    expect(code).toContain('Search terms must be at most');
    // bulkAssignInput and createJobTypeInput, of the same module, which this route never reads.
    expect(code).not.toContain('Select at least one order');
    expect(code).not.toContain('Amounts are whole cents');
  });

  const modules = readdirSync(eventsSrc)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => file.slice(0, -'.ts'.length));

  it.each(modules)('events/%s builds no schema at load that nothing uses', async (module) => {
    // Imported for its side effects alone: whatever zod schema code stays in the bundle is built at
    // load by a top-level call not marked as droppable.
    const { metafile } = await bundle({ contents: `import '@marketplace/events/${module}';` });
    expect(
      bytesFrom(metafile, 'zod/v4/mini/schemas'),
      `a top-level schema of events/src/${module}.ts (or of a module it imports) is built at load: write it as /* @__PURE__ */ z.schema(() => ...)`,
    ).toBe(0);
  });
});
