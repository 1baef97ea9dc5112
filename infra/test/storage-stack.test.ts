import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { marketplaceApp, resourcesOfType } from './synthesize-marketplace';

let storage: Template;
let api: Template;
let workers: Template;

beforeAll(() => {
  const { stacks } = marketplaceApp({ settings: { extraCorsOrigin: 'http://localhost:5173' } });
  storage = Template.fromStack(stacks.storage);
  api = Template.fromStack(stacks.api);
  workers = Template.fromStack(stacks.workers);
});

const photosBucket = () => {
  const buckets = resourcesOfType(storage, 'AWS::S3::Bucket');
  expect(buckets).toHaveLength(1);
  return buckets[0]![1];
};

describe('the photos bucket', () => {
  it('blocks every kind of public access', () => {
    expect(photosBucket().Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
  });

  it('encrypts with S3-managed keys, keeps no versions and refuses plain HTTP', () => {
    expect(photosBucket().Properties).toMatchObject({
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
    });
    expect(photosBucket().Properties.VersioningConfiguration).toBeUndefined();
    storage.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('lets the site and the configured development origin upload and download from the browser, reading ETags', () => {
    const [rule] = (photosBucket().Properties.CorsConfiguration as { CorsRules: Record<string, unknown>[] }).CorsRules;
    expect(rule).toMatchObject({
      AllowedMethods: expect.arrayContaining(['PUT', 'GET', 'HEAD', 'POST', 'DELETE']),
      ExposedHeaders: ['ETag'],
    });
    const origins = rule!.AllowedOrigins as unknown[];
    expect(origins).toHaveLength(2);
    // The site origin is the CloudFront distribution's domain, read from the web stack.
    expect(JSON.stringify(origins[0])).toMatch(/https:\/\/.*MarketplaceWeb.*Distribution.*DomainName/);
    expect(origins[1]).toBe('http://localhost:5173');
  });

  it('aborts multipart uploads left incomplete for seven days', () => {
    expect(photosBucket().Properties.LifecycleConfiguration).toEqual({
      Rules: [
        expect.objectContaining({ Status: 'Enabled', AbortIncompleteMultipartUpload: { DaysAfterInitiation: 7 } }),
      ],
    });
  });

  it('is kept when its stack is deleted', () => {
    expect(photosBucket().DeletionPolicy).toBe('Retain');
  });

  it('is the bucket the route and worker functions are told about and granted', () => {
    const bucketName = photosBucket().Properties.BucketName;
    const environments = [
      ...resourcesOfType(api, 'AWS::Lambda::Function'),
      ...resourcesOfType(workers, 'AWS::Lambda::Function'),
    ].map(([, fn]) => (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables);
    expect(environments.length).toBeGreaterThan(0);
    for (const environment of environments) expect(environment.PHOTOS_BUCKET).toEqual(bucketName);
  });
});
