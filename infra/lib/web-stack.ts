import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { sharePageHeaders } from '@marketplace/events/delivery';
import { LIVE_PATH } from '@marketplace/events/live-updates';
import {
  Annotations,
  Aws,
  CfnOutput,
  DefaultStackSynthesizer,
  Duration,
  RemovalPolicy,
  Stack,
  type StackProps,
  Validations,
} from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  Function as CloudFrontFunction,
  Distribution,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  PriceClass,
  type ResponseCustomHeader,
  ResponseHeadersPolicy,
  type ResponseSecurityHeadersBehavior,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption, type CfnBucket, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import type { Construct } from 'constructs';
import {
  cloudOrigins,
  hstsMaxAgeSeconds,
  securityHeaders,
  sharePagePattern,
  sharePageSecurityHeaders,
} from '../../web/security-headers';
import { repoRoot } from './settings';
import { spaFallbackFunctionCode } from './spa-fallback';
import { photosBucketName } from './storage-stack';

export interface WebStackProps extends StackProps {
  /** Host name of the HTTP API, served under /api/* on the site's own origin. */
  apiDomainName: string;
  /** Host name of the WebSocket API, whose stage (named like the path) is served at /live. */
  liveDomainName: string;
  /** The built React app; when absent the site is created empty and a warning says so. */
  webDistPath: string;
  /** Firebase project whose auth domain (<id>.firebaseapp.com) the sign-in popup frames. */
  firebaseProjectId: string;
  /** The web ACL (per-client rate limits, managed rules) every request to the distribution passes first. */
  webAclArn: string;
}

/** The photos bucket as the browser reaches it: the regional virtual-hosted endpoint the S3 client uses. */
export const photosBucketOrigin = () => `https://${photosBucketName()}.s3.${Aws.REGION}.${Aws.URL_SUFFIX}`;

/** How long log files are kept: long enough to look into an incident, short enough to cost nothing. */
const accessLogDays = 90;

/**
 * CloudFront's response headers policy from the one header set the Vite preview also serves
 * (web/security-headers.ts): each header goes to the field CloudFront has for it, the rest are
 * custom headers. A header this does not know fails the build instead of being dropped.
 */
export const responseHeadersBehavior = (headers: Record<string, string>) => {
  const securityHeadersBehavior: {
    -readonly [K in keyof ResponseSecurityHeadersBehavior]: ResponseSecurityHeadersBehavior[K];
  } = {};
  const customHeaders: ResponseCustomHeader[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'Content-Security-Policy') {
      securityHeadersBehavior.contentSecurityPolicy = { contentSecurityPolicy: value, override: true };
    } else if (name === 'Strict-Transport-Security') {
      if (value !== `max-age=${hstsMaxAgeSeconds}; includeSubDomains; preload`)
        throw new Error(`unexpected HSTS ${value}`);
      securityHeadersBehavior.strictTransportSecurity = {
        accessControlMaxAge: Duration.seconds(hstsMaxAgeSeconds),
        includeSubdomains: true,
        preload: true,
        override: true,
      };
    } else if (name === 'X-Frame-Options') {
      if (value !== 'DENY') throw new Error(`unexpected X-Frame-Options ${value}`);
      securityHeadersBehavior.frameOptions = { frameOption: HeadersFrameOption.DENY, override: true };
    } else if (name === 'X-Content-Type-Options') {
      if (value !== 'nosniff') throw new Error(`unexpected X-Content-Type-Options ${value}`);
      securityHeadersBehavior.contentTypeOptions = { override: true };
    } else if (name === 'Referrer-Policy') {
      const policy = Object.values(HeadersReferrerPolicy).find((p) => p === value);
      if (!policy) throw new Error(`unexpected Referrer-Policy ${value}`);
      securityHeadersBehavior.referrerPolicy = { referrerPolicy: policy, override: true };
    } else {
      customHeaders.push({ header: name, value, override: true });
    }
  }
  return { securityHeadersBehavior, customHeadersBehavior: { customHeaders } };
};

/** The React app on CloudFront, with the API on the same origin so the browser needs no CORS for it. */
export class WebStack extends Stack {
  readonly distribution: Distribution;
  readonly siteOrigin: string;

  constructor(scope: Construct, id: string, props: WebStackProps) {
    super(scope, id, props);

    // CloudFront's standard logs and the site bucket's access logs. CloudFront writes its logs
    // with an ACL, so this bucket keeps ACLs enabled (the bucket owner still owns every object).
    const logBucket = new Bucket(this, 'LogBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ id: 'ExpireLogs', expiration: Duration.days(accessLogDays) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(logBucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'It is the log bucket: logging its own access would log each log delivery, without end.',
    });

    const siteBucket = new Bucket(this, 'SiteBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      serverAccessLogsBucket: logBucket,
      serverAccessLogsPrefix: 'site-bucket/',
      // The site is rebuilt from source on every deploy; nothing in it needs keeping.
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });

    // The same headers the Vite preview serves, with the cloud's origins.
    const origins = cloudOrigins({
      photosBucketOrigin: photosBucketOrigin(),
      firebaseAuthDomain: `${props.firebaseProjectId}.firebaseapp.com`,
    });
    const responseHeadersPolicy = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'Content security policy, HSTS, frame, content-type, referrer and permissions policies of the site',
      ...responseHeadersBehavior(securityHeaders(origins)),
    });
    // A client's gallery: kept out of search engines, and its address (it holds the token) never sent as a referrer.
    const sharePageHeadersPolicy = new ResponseHeadersPolicy(this, 'SharePageHeaders', {
      comment: "The site's headers on the share page, with noindex and no referrer",
      ...responseHeadersBehavior(sharePageSecurityHeaders(origins)),
    });
    const shareApiHeadersPolicy = new ResponseHeadersPolicy(this, 'ShareApiHeaders', {
      comment: "Noindex and no referrer on the share page's API answers",
      ...responseHeadersBehavior({ ...sharePageHeaders }),
    });

    const spaFallback = new CloudFrontFunction(this, 'SpaFallback', {
      code: FunctionCode.fromInline(spaFallbackFunctionCode),
      runtime: FunctionRuntime.JS_2_0,
      comment: 'Serves index.html for client-side routes',
    });

    const siteOrigin = S3BucketOrigin.withOriginAccessControl(siteBucket);
    const siteBehavior = {
      origin: siteOrigin,
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      cachePolicy: CachePolicy.CACHING_OPTIMIZED,
      compress: true,
      functionAssociations: [{ function: spaFallback, eventType: FunctionEventType.VIEWER_REQUEST }],
    };
    /** An API Gateway origin on the site's own address, never cached. */
    const apiGatewayBehavior = (domainName: string, allowedMethods: AllowedMethods) => ({
      origin: new HttpOrigin(domainName, { protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY }),
      // A redirect would turn a POST into a GET; the site is HTTPS already, so refuse plain HTTP.
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      // API Gateway rejects CloudFront's Host header; with caching off, Authorization is forwarded.
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
    });
    const apiBehavior = apiGatewayBehavior(props.apiDomainName, AllowedMethods.ALLOW_ALL);

    // The browser's WebSocket, on the site's own origin. The stage is named like the path, so /live
    // goes to the API unchanged (no origin path, no rewrite). Viewer headers (the WebSocket
    // handshake's Sec-WebSocket-Key and -Version among them) and the query string, which holds
    // the ID token, are forwarded; Host is not, since API Gateway refuses CloudFront's.
    const liveBehavior = apiGatewayBehavior(props.liveDomainName, AllowedMethods.ALLOW_GET_HEAD);

    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Photo-editing marketplace',
      webAclId: props.webAclArn,
      defaultRootObject: 'index.html',
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket,
      logFilePrefix: 'cloudfront/',
      defaultBehavior: { ...siteBehavior, responseHeadersPolicy },
      // CloudFront takes the first pattern that matches, in this order: /api/share/* before /api/*.
      additionalBehaviors: {
        '/api/share/*': { ...apiBehavior, responseHeadersPolicy: shareApiHeadersPolicy },
        '/api/*': apiBehavior,
        [LIVE_PATH]: liveBehavior,
        [sharePagePattern]: { ...siteBehavior, responseHeadersPolicy: sharePageHeadersPolicy },
      },
    });
    this.siteOrigin = `https://${this.distribution.distributionDomainName}`;
    Validations.of(this.distribution).acknowledge(
      {
        id: 'AwsSolutions-CFR4',
        reason:
          "The site uses CloudFront's default *.cloudfront.net certificate, for which CloudFront fixes the minimum at TLSv1; a custom domain with its own certificate would allow TLSv1.2_2021.",
      },
      {
        id: 'AwsSolutions-CFR1',
        reason: 'Photographers and editors work from anywhere: there is no country to refuse.',
      },
    );

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
    this.acknowledgeDeploymentFunction(siteBucket);
  }

  /**
   * BucketDeployment copies the site with a function the CDK itself defines, once per stack and
   * only during deploys: its runtime, managed policy and wildcard actions are the CDK's to choose.
   * Each finding is acknowledged by its exact id, so any new one still fails the build.
   */
  private acknowledgeDeploymentFunction(siteBucket: Bucket) {
    const deploymentFunction = this.node.children.find((child) =>
      child.node.id.startsWith('Custom::CDKBucketDeployment'),
    );
    if (!deploymentFunction) throw new Error('BucketDeployment no longer creates its function where expected');
    const siteBucketArn = `<${this.getLogicalId(siteBucket.node.defaultChild as CfnBucket)}.Arn>`;
    const assetBucket = `arn:<AWS::Partition>:s3:::cdk-${DefaultStackSynthesizer.DEFAULT_QUALIFIER}-assets-<AWS::AccountId>-<AWS::Region>`;
    const cdkOwned = 'CDK BucketDeployment function, run only while deploying the site';
    Validations.of(deploymentFunction).acknowledge(
      { id: 'AwsSolutions-L1', reason: `${cdkOwned}: the CDK pins its runtime.` },
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason: `${cdkOwned}: the CDK gives its role the basic execution policy for its logs.`,
      },
      ...['s3:GetObject*', 's3:GetBucket*', 's3:List*', 's3:DeleteObject*', 's3:Abort*'].map((action) => ({
        id: `AwsSolutions-IAM5[Action::${action}]`,
        reason: `${cdkOwned}: the CDK's read grant on the asset bucket and read-write grant on the site bucket use these action groups.`,
      })),
      {
        id: `AwsSolutions-IAM5[Resource::${assetBucket}/*]`,
        reason: `${cdkOwned}: it reads the site's zip from the CDK asset bucket, whose keys are content hashes.`,
      },
      {
        id: `AwsSolutions-IAM5[Resource::${siteBucketArn}/*]`,
        reason: `${cdkOwned}: it writes every file of the site bucket, and nothing else.`,
      },
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: `${cdkOwned}: cloudfront:CreateInvalidation and GetInvalidation, which the CDK grants on every distribution.`,
      },
    );
  }
}
