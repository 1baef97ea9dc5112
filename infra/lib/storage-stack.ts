import { Aws, CfnOutput, Duration, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  HttpMethods,
  StorageClass,
  TransitionDefaultMinimumObjectSize,
} from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';

/**
 * The photos bucket has a fixed name so the API and workers can address it without a reference
 * to this stack: this stack comes last because its CORS rule needs the site's CloudFront origin.
 */
export const photosBucketName = () => `marketplace-photos-${Aws.ACCOUNT_ID}-${Aws.REGION}`;

/**
 * What the bucket does with objects as they age. S3 filters lifecycle rules by key prefix, and
 * every order file sits under orders/{id}/ (originals/, edited/, thumbnails/), so the move to
 * infrequent access covers the whole order folder; objects under 128 KB (thumbnails) stay in
 * Standard, where they cost less than Standard-IA's 128 KB minimum charge.
 */
export const photoLifecycle = {
  /** Originals (and the order's other files) to Standard-IA: an order is done long before. */
  orderFilesPrefix: 'orders/',
  infrequentAccessAfterDays: 30,
  /** Prebuilt zips: the download routes build a missing one again. */
  zipsPrefix: 'zips/',
  zipExpiryDays: 7,
  /**
   * Data downloads (services/src/data/data-exports.ts): the link lasts 7 days; the zip a day more,
   * so a link never outlives its zip by a clock's difference (docs/decisions/0106).
   */
  exportsPrefix: 'exports/',
  exportExpiryDays: 8,
  /** Abandoned multipart uploads leave invisible parts that are billed until aborted. */
  abortIncompleteUploadsAfterDays: 7,
};

/** Access logs of the photos bucket: who read or wrote whose photos, kept this long. */
const accessLogDays = 365;

export interface StorageStackProps extends StackProps {
  /** The origin the web app is served from, e.g. https://d111111abcdef8.cloudfront.net. */
  siteOrigin: string;
  extraCorsOrigin?: string;
}

/** Originals, edited photos and zips. Browsers upload and download them directly with presigned URLs. */
export class StorageStack extends Stack {
  readonly photosBucket: Bucket;

  constructor(scope: Construct, id: string, props: StorageStackProps) {
    super(scope, id, props);

    const accessLogs = new Bucket(this, 'PhotosAccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      lifecycleRules: [{ id: 'ExpireLogs', expiration: Duration.days(accessLogDays) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(accessLogs).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'It is the log bucket: logging its own access would log each log delivery, without end.',
    });

    this.photosBucket = new Bucket(this, 'PhotosBucket', {
      bucketName: photosBucketName(),
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: false,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'photos/',
      // Said outright, though it is S3's default: objects under 128 KB never leave Standard.
      transitionDefaultMinimumObjectSize: TransitionDefaultMinimumObjectSize.ALL_STORAGE_CLASSES_128_K,
      removalPolicy: RemovalPolicy.RETAIN,
      cors: [
        {
          allowedOrigins: [props.siteOrigin, ...(props.extraCorsOrigin ? [props.extraCorsOrigin] : [])],
          allowedMethods: [HttpMethods.PUT, HttpMethods.GET, HttpMethods.HEAD, HttpMethods.POST, HttpMethods.DELETE],
          allowedHeaders: ['*'],
          // Multipart uploads read each part's ETag from the browser to complete the upload.
          exposedHeaders: ['ETag'],
          maxAge: 3600,
        },
      ],
      lifecycleRules: [
        {
          id: 'AbortIncompleteMultipartUploads',
          abortIncompleteMultipartUploadAfter: Duration.days(photoLifecycle.abortIncompleteUploadsAfterDays),
        },
        {
          id: 'OrderFilesToInfrequentAccess',
          prefix: photoLifecycle.orderFilesPrefix,
          transitions: [
            {
              storageClass: StorageClass.INFREQUENT_ACCESS,
              transitionAfter: Duration.days(photoLifecycle.infrequentAccessAfterDays),
            },
          ],
        },
        {
          id: 'ExpirePrebuiltZips',
          prefix: photoLifecycle.zipsPrefix,
          expiration: Duration.days(photoLifecycle.zipExpiryDays),
        },
        {
          id: 'ExpireDataDownloads',
          prefix: photoLifecycle.exportsPrefix,
          expiration: Duration.days(photoLifecycle.exportExpiryDays),
        },
      ],
    });

    new CfnOutput(this, 'PhotosBucketName', { value: this.photosBucket.bucketName });
  }
}
