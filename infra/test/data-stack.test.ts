import { globalIndexes, tableKeys, tableStreamViewType, ttlAttribute } from '@marketplace/services/data/table-schema';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { firebaseAdminSecretName, stripeSecretName, unsubscribeKeySecretName } from '../lib/data-stack';
import { marketplaceApp, resourcesOfType } from './synthesize-marketplace';

let template: Template;

beforeAll(() => {
  template = Template.fromStack(marketplaceApp().stacks.data);
});

describe('the table', () => {
  it('is the one table, keyed by the string pk and sk of the shared schema', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: tableKeys.partitionKey, KeyType: 'HASH' },
        { AttributeName: tableKeys.sortKey, KeyType: 'RANGE' },
      ],
      AttributeDefinitions: Match.arrayWith([
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
      ]),
    });
  });

  it('has the seven generic indexes with string keys, projecting every attribute', () => {
    const [table] = resourcesOfType(template, 'AWS::DynamoDB::Table');
    const { GlobalSecondaryIndexes: indexes, AttributeDefinitions: attributes } = table![1].Properties as {
      GlobalSecondaryIndexes: { IndexName: string; KeySchema: unknown; Projection: unknown }[];
      AttributeDefinitions: { AttributeName: string; AttributeType: string }[];
    };
    expect(indexes.map((index) => index.IndexName)).toEqual([
      'gsi1',
      'gsi2',
      'gsi3',
      'gsi4',
      'gsi5',
      'gsi6',
      'gsi7',
      'gsi8',
    ]);
    for (const expected of globalIndexes) {
      expect(indexes.find((index) => index.IndexName === expected.indexName)).toEqual({
        IndexName: expected.indexName,
        KeySchema: [
          { AttributeName: expected.partitionKey, KeyType: 'HASH' },
          { AttributeName: expected.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      });
      expect(attributes).toContainEqual({ AttributeName: expected.partitionKey, AttributeType: 'S' });
      expect(attributes).toContainEqual({ AttributeName: expected.sortKey, AttributeType: 'S' });
    }
  });

  it('bills per request, keeps point-in-time backups, expires items by TTL and encrypts with the AWS managed key', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      TimeToLiveSpecification: { AttributeName: ttlAttribute, Enabled: true },
      // Enabled without a key of our own: the AWS managed aws/dynamodb key.
      SSESpecification: { SSEEnabled: true, KMSMasterKeyId: Match.absent() },
    });
  });

  it('survives the deletion of its stack and of itself by accident', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({ DeletionProtectionEnabled: true }),
    });
  });
});

describe('the outbox stream', () => {
  it("carries each new item's image, which is all the pipes filter on and the workers read", () => {
    expect(tableStreamViewType).toBe('NEW_IMAGE');
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      StreamSpecification: { StreamViewType: tableStreamViewType },
    });
  });
});

describe('the Stripe secret', () => {
  it('starts with empty keys and a generated placeholder, so no key is ever in the template', () => {
    const [, secret] = resourcesOfType(template, 'AWS::SecretsManager::Secret').find(
      ([, s]) => s.Properties.Name === stripeSecretName,
    )!;
    expect(secret.Properties).toMatchObject({
      Name: stripeSecretName,
      GenerateSecretString: {
        SecretStringTemplate: JSON.stringify({ secretKey: '', webhookSecret: '' }),
        GenerateStringKey: 'placeholder',
      },
    });
    expect(secret.Properties.SecretString).toBeUndefined();
    expect(JSON.stringify(secret.Properties.Description)).toContain('webhookSecret');
  });

  it('survives the deletion of its stack, like the table', () => {
    template.hasResource('AWS::SecretsManager::Secret', { DeletionPolicy: 'Retain' });
  });
});

describe('the Firebase Admin secret', () => {
  it('is the only other secret: a placeholder for the service account key, kept with its stack', () => {
    // The Stripe keys, this one, and the generated unsubscribe key (below).
    template.resourceCountIs('AWS::SecretsManager::Secret', 3);
    const [, secret] = resourcesOfType(template, 'AWS::SecretsManager::Secret').find(
      ([, s]) => s.Properties.Name === firebaseAdminSecretName,
    )!;
    expect(secret.Properties).toMatchObject({
      GenerateSecretString: { SecretStringTemplate: '{}', GenerateStringKey: 'placeholder' },
    });
    expect(secret.Properties.SecretString).toBeUndefined();
    template.allResources('AWS::SecretsManager::Secret', { DeletionPolicy: 'Retain' });
  });
});

describe('the unsubscribe key', () => {
  it('is generated by CloudFormation (nobody types it), the whole secret string, and kept with its stack', () => {
    const [, secret] = resourcesOfType(template, 'AWS::SecretsManager::Secret').find(
      ([, s]) => s.Properties.Name === unsubscribeKeySecretName,
    )!;
    expect(secret.Properties).toMatchObject({ GenerateSecretString: { PasswordLength: 64, ExcludePunctuation: true } });
    expect((secret.Properties.GenerateSecretString as Record<string, unknown>).SecretStringTemplate).toBeUndefined();
    expect(secret.Properties.SecretString).toBeUndefined();
    expect(secret).toMatchObject({ DeletionPolicy: 'Retain' });
  });
});
