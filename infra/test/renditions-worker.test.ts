import { workers } from '@marketplace/services/workers';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { marketplaceApp, resourcesOfType } from './synthesize-marketplace';

/** The MLS rendition worker: its queue fed by the event log, its size, and what it may touch. */
let template: Template;

beforeAll(() => {
  template = Template.fromStack(marketplaceApp().stacks.workers);
});

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

const sendsOf = (consumer: Record<string, unknown>) =>
  statementsOfRole(logicalIdOf(consumer.Role)!)
    .filter((s) => s.actions.includes('sqs:SendMessage'))
    .flatMap((s) => s.resources.map(logicalIdOf));

describe('the renditions worker', () => {
  const definition = workers.find((w) => w.queue === 'renditions')!;

  it('makes one order at a time, with 2 GB of memory and 15 minutes, with sharp in its bundle', () => {
    const { mapping, consumer } = consumerOf('RenditionsQueue');
    expect(mapping.BatchSize).toBe(1);
    expect(consumer).toMatchObject({ MemorySize: 2048, Timeout: 900, Description: 'Consumes the renditions queue' });
    expect(definition).toMatchObject({ nativeModules: ['sharp'] });
    expect(definition.visibilityTimeoutSeconds).toBeGreaterThan(definition.timeoutSeconds);
  });

  it('is fed the deliveries and size changes by the event log', () => {
    expect(definition.forwardedEvents).toEqual(['order_completed', 'mls_size_changed']);
    const { queueId } = consumerOf('RenditionsQueue');
    expect(sendsOf(consumerOf('OrderEventsQueue').consumer)).toContain(queueId);
  });

  it('may read the edited files, write the copies and their records, ask for the MLS zip, hand its rest to its own queue, and say the copies are ready', () => {
    const { consumer } = consumerOf('RenditionsQueue');
    const actions = statementsOfRole(logicalIdOf(consumer.Role)!).flatMap((s) => s.actions);
    expect(actions).toEqual(
      expect.arrayContaining(['s3:GetObject', 's3:PutObject', 'dynamodb:Query', 'dynamodb:PutItem']),
    );
    expect([...sendsOf(consumer)].sort()).toEqual(
      [
        consumerOf('ZipBuildsQueue').queueId,
        consumerOf('RenditionsQueue').queueId,
        consumerOf('LiveUpdatesQueue').queueId,
      ].sort(),
    );
  });
});
