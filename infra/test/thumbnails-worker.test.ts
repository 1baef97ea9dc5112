import { workers } from '@marketplace/services/workers';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { installedPackageDir, nativeModuleCommands } from '../lib/service-function';
import { marketplaceApp, resourcesOfType } from './synthesize-marketplace';

/** The thumbnail worker: its queue fed by the event log, its size, and sharp built for Lambda in its bundle. */
let template: Template;

beforeAll(() => {
  template = Template.fromStack(marketplaceApp().stacks.workers);
});

type Properties = Record<string, unknown>;
const logicalIdOf = (value: unknown) => JSON.stringify(value).match(/"(?:Ref|Fn::GetAtt)":\[?"([A-Za-z0-9]+)"/)?.[1];

const statementsOfRole = (roleId: string) =>
  resourcesOfType(template, 'AWS::IAM::Policy')
    .filter(([, policy]) => logicalIdOf(policy.Properties.Roles) === roleId)
    .flatMap(
      ([, policy]) =>
        (policy.Properties.PolicyDocument as { Statement: { Action: unknown; Resource: unknown }[] }).Statement,
    )
    .map((statement) => ({ actions: [statement.Action].flat() as string[], resources: [statement.Resource].flat() }));

const consumerOf = (queuePrefix: string) => {
  const [queueId] = resourcesOfType(template, 'AWS::SQS::Queue').find(
    ([id, q]) => id.startsWith(queuePrefix) && q.Properties.RedrivePolicy,
  )!;
  const [, mapping] = resourcesOfType(template, 'AWS::Lambda::EventSourceMapping').find(
    ([, m]) => logicalIdOf(m.Properties.EventSourceArn) === queueId,
  )!;
  const [, consumer] = resourcesOfType(template, 'AWS::Lambda::Function').find(
    ([id]) => id === logicalIdOf(mapping.Properties.FunctionName),
  )!;
  return { queueId, mapping: mapping.Properties, consumer: consumer.Properties };
};

describe('the thumbnails worker', () => {
  const definition = workers.find((w) => w.queue === 'thumbnails')!;

  it('makes one file at a time, with 1.5 GB of memory for decoding and two minutes per file', () => {
    const { mapping, consumer } = consumerOf('ThumbnailsQueue');
    expect(mapping.BatchSize).toBe(1);
    expect(consumer).toMatchObject({ MemorySize: 1536, Timeout: 120, Description: 'Consumes the thumbnails queue' });
    expect(definition).toMatchObject({ memoryMb: 1536, timeoutSeconds: 120, nativeModules: ['sharp'] });
  });

  it('is fed by the event log, which may send to its queue and is told where it is', () => {
    const { queueId } = consumerOf('ThumbnailsQueue');
    const eventLog = consumerOf('OrderEventsQueue').consumer;
    const sends = statementsOfRole(logicalIdOf(eventLog.Role)!).filter((s) => s.actions.includes('sqs:SendMessage'));
    expect(sends.flatMap((s) => s.resources.map(logicalIdOf))).toContain(queueId);
    const environment = JSON.stringify((eventLog.Environment as { Variables: Properties }).Variables);
    expect(environment).toContain(queueId);
  });

  it('may read the photos, write the renditions and record them on the image', () => {
    const { consumer } = consumerOf('ThumbnailsQueue');
    const actions = statementsOfRole(logicalIdOf(consumer.Role)!).flatMap((s) => s.actions);
    expect(actions).toEqual(expect.arrayContaining(['s3:GetObject', 's3:PutObject', 'dynamodb:UpdateItem']));
  });
});

describe('native packages in a bundle', () => {
  it("are installed from npm for Lambda's platform, at the version the workspace tests against", async () => {
    const { version } = (await import(`${installedPackageDir('sharp')}/package.json`, { with: { type: 'json' } }))
      .default as { version: string };
    const [command] = nativeModuleCommands('/bundle/out', ['sharp'], 'registry');
    expect(command).toMatch(/^npm install --prefix '\/bundle\/out' /);
    expect(command).toContain('--os=linux --cpu=arm64 --libc=glibc');
    expect(command).toContain(`'sharp@${version}'`);
    expect(command).toContain('--no-save');
    expect(command).toContain('--ignore-scripts');
  });

  it("are linked from the workspace's own install when tests bundle offline", () => {
    expect(nativeModuleCommands('/bundle/out', ['sharp'], 'workspace')).toEqual([
      "mkdir -p '/bundle/out/node_modules'",
      `ln -s '${installedPackageDir('sharp')}' '/bundle/out/node_modules/sharp'`,
    ]);
  });

  it('are none for functions that need none', () => {
    expect(nativeModuleCommands('/bundle/out', [], 'registry')).toEqual([]);
  });
});
