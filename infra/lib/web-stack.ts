import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { Annotations, CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  Function as CloudFrontFunction,
  Distribution,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  PriceClass,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import type { Construct } from 'constructs';
import { repoRoot } from './settings';
import { spaFallbackFunctionCode } from './spa-fallback';

export interface WebStackProps extends StackProps {
  /** Host name of the HTTP API, served under /api/* on the site's own origin. */
  apiDomainName: string;
  /** The built React app; when absent the site is created empty and a warning says so. */
  webDistPath: string;
}

/** The React app on CloudFront, with the API on the same origin so the browser needs no CORS for it. */
export class WebStack extends Stack {
  readonly distribution: Distribution;
  readonly siteOrigin: string;

  constructor(scope: Construct, id: string, props: WebStackProps) {
    super(scope, id, props);

    const siteBucket = new Bucket(this, 'SiteBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // The site is rebuilt from source on every deploy; nothing in it needs keeping.
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });

    const spaFallback = new CloudFrontFunction(this, 'SpaFallback', {
      code: FunctionCode.fromInline(spaFallbackFunctionCode),
      runtime: FunctionRuntime.JS_2_0,
      comment: 'Serves index.html for client-side routes',
    });

    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Photo-editing marketplace',
      defaultRootObject: 'index.html',
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(siteBucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        compress: true,
        functionAssociations: [{ function: spaFallback, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: {
        '/api/*': {
          origin: new HttpOrigin(props.apiDomainName, { protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY }),
          // A redirect would turn a POST into a GET; the site is HTTPS already, so refuse plain HTTP.
          viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          // API Gateway rejects CloudFront's Host header; with caching off, Authorization is forwarded.
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        },
      },
    });
    this.siteOrigin = `https://${this.distribution.distributionDomainName}`;

    if (existsSync(props.webDistPath)) {
      this.deploySite(siteBucket, props.webDistPath);
    } else {
      Annotations.of(this).addWarningV2(
        'marketplace:web-not-built',
        `${relative(repoRoot, props.webDistPath)} does not exist, so the site will be empty: run "npm run build --workspace web" before deploying.`,
      );
    }

    new CfnOutput(this, 'SiteUrl', { value: this.siteOrigin });
  }

  private deploySite(siteBucket: Bucket, webDistPath: string) {
    const site = Source.asset(webDistPath);
    // Vite's hashed files never change; old ones stay for tabs still running the previous build.
    const hashedAssets = new BucketDeployment(this, 'DeployHashedAssets', {
      sources: [site],
      destinationBucket: siteBucket,
      exclude: ['*'],
      include: ['assets/*'],
      prune: false,
      cacheControl: [CacheControl.setPublic(), CacheControl.maxAge(Duration.days(365)), CacheControl.immutable()],
    });
    // Everything else (index.html first of all) is revalidated so a deploy shows up at once.
    const entryFiles = new BucketDeployment(this, 'DeployEntryFiles', {
      sources: [site],
      destinationBucket: siteBucket,
      exclude: ['assets/*'],
      cacheControl: [CacheControl.noCache()],
      distribution: this.distribution,
      distributionPaths: ['/*'],
    });
    entryFiles.node.addDependency(hashedAssets);
  }
}
