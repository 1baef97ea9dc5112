import { editedPrefix, originalsPrefix } from '@marketplace/events/orders';
import {
  type DownloadRecord,
  isReadyFor,
  shouldRequestBuild,
  ZIP_REUSE_MS,
  zipKeyFor,
} from '@marketplace/services/data/downloads';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { marketplaceApp, nestedTemplate, resourcesOfType } from './synthesize-marketplace';

let storage: Template;
/** The API's route groups (nested stacks): where the route functions are. */
let routeGroups: Template[];
let workers: Template;

beforeAll(() => {
  const { stacks } = marketplaceApp({ settings: { extraCorsOrigin: 'http://localhost:5173' } });
  storage = Template.fromStack(stacks.storage);
  routeGroups = stacks.api.routeGroups.map(nestedTemplate);
  workers = Template.fromStack(stacks.workers);
});

const photosBucket = () => {
  const buckets = resourcesOfType(storage, 'AWS::S3::Bucket').filter(([id]) => id.startsWith('PhotosBucket'));
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

  it('moves order files to infrequent access after 30 days, expires prebuilt zips after 7, aborts stale uploads after 7', () => {
    const properties = photosBucket().Properties;
    expect(properties.LifecycleConfiguration).toEqual({
      Rules: [
        {
          Id: 'AbortIncompleteMultipartUploads',
          Status: 'Enabled',
          AbortIncompleteMultipartUpload: { DaysAfterInitiation: 7 },
        },
        {
          Id: 'OrderFilesToInfrequentAccess',
          Status: 'Enabled',
          Prefix: 'orders/',
          Transitions: [{ StorageClass: 'STANDARD_IA', TransitionInDays: 30 }],
        },
        { Id: 'ExpirePrebuiltZips', Status: 'Enabled', Prefix: 'zips/', ExpirationInDays: 7 },
        // Data downloads: the emailed link lasts 7 days, the zip a day more (docs/decisions/0106).
        { Id: 'ExpireDataDownloads', Status: 'Enabled', Prefix: 'exports/', ExpirationInDays: 8 },
      ],
      // Thumbnails (under 128 KB) stay in Standard: Standard-IA bills every object as at least 128 KB.
      TransitionDefaultMinimumObjectSize: 'all_storage_classes_128K',
    });
  });

  it('applies the lifecycle to the prefixes the services write under', () => {
    expect(originalsPrefix('o1')).toMatch(/^orders\//);
    expect(editedPrefix('o1')).toMatch(/^orders\//);
    expect(zipKeyFor('o1', 'edited', 'abc')).toMatch(/^zips\//);
    // A zip older than the reuse window is rebuilt before the bucket deletes it.
    expect(ZIP_REUSE_MS).toBeLessThan(7 * 24 * 60 * 60 * 1000);
  });

  it('has the download routes build a zip again before the bucket deletes it', () => {
    const now = Date.parse('2026-03-20T12:00:00Z');
    const readyAt = (daysAgo: number): DownloadRecord => ({
      orderId: 'o1',
      kind: 'edited',
      status: 'ready',
      zipKey: zipKeyFor('o1', 'edited', 'f1'),
      sourceFingerprint: 'f1',
      createdAt: new Date(now - daysAgo * 86_400_000).toISOString(),
      updatedAt: new Date(now - daysAgo * 86_400_000).toISOString(),
    });
    expect(isReadyFor(readyAt(1), 'f1', now)).toBe(true);
    expect(isReadyFor(readyAt(5.9), 'f1', now)).toBe(true);
    // Past the reuse window, a day before the 7-day expiry: not ready, so a build is asked for.
    expect(isReadyFor(readyAt(6.1), 'f1', now)).toBe(false);
    expect(shouldRequestBuild(readyAt(6.1), 'f1', now)).toBe(true);
  });

  it('logs every access to a log bucket of its own, kept a year and refusing plain HTTP', () => {
    const logging = photosBucket().Properties.LoggingConfiguration as { DestinationBucketName: { Ref: string } };
    expect(logging).toMatchObject({ LogFilePrefix: 'photos/' });
    const logBucketId = logging.DestinationBucketName.Ref;
    const logBucket = (storage.toJSON().Resources as Record<string, { Properties: Record<string, unknown> }>)[
      logBucketId
    ]!;
    expect(logBucket.Properties.LifecycleConfiguration).toEqual({
      Rules: [{ Id: 'ExpireLogs', Status: 'Enabled', ExpirationInDays: 365 }],
    });
    storage.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: logBucketId },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          Match.objectLike({ Principal: { Service: 'logging.s3.amazonaws.com' } }),
        ]),
      },
    });
  });

  it('is kept when its stack is deleted', () => {
    expect(photosBucket().DeletionPolicy).toBe('Retain');
  });

  it('is the bucket the route and worker functions are told about and granted', () => {
    const bucketName = photosBucket().Properties.BucketName;
    const environments = [
      ...routeGroups.flatMap((group) => resourcesOfType(group, 'AWS::Lambda::Function')),
      ...resourcesOfType(workers, 'AWS::Lambda::Function'),
    ].map(([, fn]) => (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables);
    expect(environments.length).toBeGreaterThan(0);
    for (const environment of environments) expect(environment.PHOTOS_BUCKET).toEqual(bucketName);
  });
});
