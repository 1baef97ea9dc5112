import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Prints what `cdk synth --quiet` wrote: each stack with its resources by type and its outputs. */
interface Manifest {
  artifacts: Record<string, { type: string; properties?: { templateFile?: string } }>;
}
interface Template {
  Resources?: Record<string, { Type: string }>;
  Outputs?: Record<string, unknown>;
}

const assemblyDir = process.argv[2] ?? 'cdk.out';
const readJson = <T>(file: string): T => JSON.parse(readFileSync(join(assemblyDir, file), 'utf8')) as T;

const manifest = readJson<Manifest>('manifest.json');
const stacks = Object.entries(manifest.artifacts).filter(
  ([, artifact]) => artifact.type === 'aws:cloudformation:stack',
);

console.log(`Synthesized ${stacks.length} stacks to ${assemblyDir}:`);
for (const [stackName, artifact] of stacks) {
  const template = readJson<Template>(artifact.properties?.templateFile ?? `${stackName}.template.json`);
  const resources = Object.values(template.Resources ?? {});
  const countsByType = new Map<string, number>();
  for (const { Type } of resources) countsByType.set(Type, (countsByType.get(Type) ?? 0) + 1);
  console.log(`\n${stackName}: ${resources.length} resources`);
  for (const [type, count] of [...countsByType].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`  ${String(count).padStart(3)} ${type}`);
  }
  // Outputs named PublishOutput* only carry values to other stacks.
  const outputs = Object.keys(template.Outputs ?? {}).filter((name) => !name.startsWith('PublishOutput'));
  if (outputs.length > 0) console.log(`  outputs: ${outputs.join(', ')}`);
}
