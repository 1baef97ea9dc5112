import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Stack, Validations } from 'aws-cdk-lib';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marketplaceApp } from './synthesize-marketplace';

/** Settings a real deployment has: a Firebase project, an SES sender, the site URL, who the alarms email, and a built web app. */
const siteDir = mkdtempSync(join(tmpdir(), 'marketplace-site-'));
writeFileSync(join(siteDir, 'index.html'), '<!doctype html><title>site</title>');
const configured = {
  firebaseProjectId: 'acme-photos',
  mailFrom: 'PhotoEdit <no-reply@photos.example.com>',
  siteUrl: 'https://photos.example.com',
  alarmEmail: 'ops@photos.example.com',
  webDistPath: siteDir,
};
afterAll(() => rmSync(siteDir, { recursive: true, force: true }));

interface ValidationReport {
  pluginReports: { pluginName?: string; violations: { ruleName: string; severity?: string }[] }[];
}

/** Every finding the synthesis reported (errors and warnings, of cdk-nag and of the CDK's own checks). */
const findingsOf = (assemblyDir: string) => {
  const file = join(assemblyDir, 'validation-report.json');
  if (!existsSync(file)) return [];
  const report = JSON.parse(readFileSync(file, 'utf8')) as ValidationReport;
  return report.pluginReports.flatMap((plugin) => plugin.violations.map((v) => `${v.severity}: ${v.ruleName}`));
};

const acknowledgementsUnder = (root: IConstruct) =>
  root.node
    .findAll()
    .flatMap((construct) =>
      construct.node.metadata
        .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
        .flatMap((entry) =>
          Object.entries(entry.data as Record<string, string>).map(([id, reason]) => ({ construct, id, reason })),
        ),
    );

describe("cdk-nag's AwsSolutions pack", () => {
  let configuredApp: ReturnType<typeof marketplaceApp>;
  let configuredAssembly: string;
  beforeAll(() => {
    configuredApp = marketplaceApp({ settings: configured });
    configuredAssembly = configuredApp.app.synth().directory;
  });
  afterAll(() => rmSync(configuredAssembly, { recursive: true, force: true }));

  it('finds nothing unacknowledged in a deployable marketplace, and nothing else warns', () => {
    expect(findingsOf(configuredAssembly)).toEqual([]);
    // The pack run on its own over the same tree: no error and no warning either.
    const report = new AwsSolutionsChecks().validateScope(configuredApp.app);
    expect(report.violations.map((v) => `${v.ruleName} at ${v.violatingResources[0]?.constructPath}`)).toEqual([]);
  });

  it('leaves only the reminders to configure when nothing is configured', () => {
    const { app } = marketplaceApp();
    const assembly = app.synth().directory;
    try {
      // The email reminder comes from both stacks with email-sending functions.
      expect([...new Set(findingsOf(assembly))].sort()).toEqual(
        [
          'warning: Annotation::marketplace:alarm-email-not-configured',
          'warning: Annotation::marketplace:demo-firebase-project',
          'warning: Annotation::marketplace:email-not-configured',
          'warning: Annotation::marketplace:web-not-built',
        ].sort(),
      );
    } finally {
      rmSync(assembly, { recursive: true, force: true });
    }
  });

  it('fails the synthesis on a finding nobody acknowledged', () => {
    const { app, stacks } = marketplaceApp({ settings: configured });
    // A bucket with no access logs, no TLS-only policy: what the pack exists to catch.
    new Bucket(stacks.storage, 'CarelessBucket');
    expect(() => app.synth()).toThrow(/AwsSolutions-S1[\s\S]*CarelessBucket|CarelessBucket[\s\S]*AwsSolutions-S1/);
  });

  it("checks the API's route groups too, which are nested stacks", () => {
    const { app, stacks } = marketplaceApp({ settings: configured });
    const [group] = stacks.api.routeGroups;
    expect(group).toBeDefined();
    new Bucket(group!, 'CarelessBucket');
    expect(() => app.synth()).toThrow(/AwsSolutions-S1[\s\S]*CarelessBucket|CarelessBucket[\s\S]*AwsSolutions-S1/);
  });

  it('is acknowledged on single resources, finding by finding, each with its reason', () => {
    const acknowledgements = acknowledgementsUnder(configuredApp.app);
    expect(acknowledgements.length).toBeGreaterThan(0);
    for (const { construct, id, reason } of acknowledgements) {
      // Never a whole stack or app: each sits on the resource (or its role) it concerns.
      expect(Stack.isStack(construct), `${id} on ${construct.node.path}`).toBe(false);
      expect(construct.node.path.split('/').length, `${id} on ${construct.node.path}`).toBeGreaterThan(1);
      expect(reason.length, `${id} on ${construct.node.path} says why`).toBeGreaterThan(40);
      // A wildcard or managed-policy acknowledgement names the exact finding it covers.
      if (/IAM[45]/.test(id)) expect(id, construct.node.path).toMatch(/\[(Resource|Action|Policy)::.+\]$/);
    }
  });
});
