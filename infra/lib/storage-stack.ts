import { Aws, CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';

/**
 * The photos bucket has a fixed name so the API and workers can address it without a reference
 * to this stack: this stack comes last because its CORS rule needs the site's CloudFront origin.
 */
export const photosBucketName = () => `marketplace-photos-${Aws.ACCOUNT_ID}-${Aws.REGION}`;

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

    this.photosBucket = new Bucket(this, 'PhotosBucket', {
      bucketName: photosBucketName(),
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: false,
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
        // Abandoned uploads leave invisible parts that are billed until aborted.
        { id: 'AbortIncompleteMultipartUploads', abortIncompleteMultipartUploadAfter: Duration.days(7) },
      ],
    });

    new CfnOutput(this, 'PhotosBucketName', { value: this.photosBucket.bucketName });
  }
}
