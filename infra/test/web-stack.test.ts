import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharePageHeaders } from '@marketplace/events/delivery';
import { LIVE_PATH } from '@marketplace/events/live-updates';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudOrigins, securityHeaders } from '../../web/security-headers';
import { spaFallbackFunctionCode } from '../lib/spa-fallback';
import { responseHeadersBehavior, type WebStack } from '../lib/web-stack';
import { marketplaceApp, resourcesOfType } from './synthesize-marketplace';

// CloudFront's managed policies, by their fixed ids.
const cachingDisabled = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const allViewerExceptHostHeader = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

let builtSite: Template;
let unbuiltSiteStack: WebStack;
let unbuiltSite: Template;
let webDist: string;

beforeAll(() => {
  webDist = mkdtempSync(join(tmpdir(), 'web-dist-'));
  mkdirSync(join(webDist, 'assets'));
  writeFileSync(join(webDist, 'index.html'), '<!doctype html><script src="/assets/app-1a2b.js"></script>');
  writeFileSync(join(webDist, 'assets', 'app-1a2b.js'), 'console.log("app")');
  builtSite = Template.fromStack(marketplaceApp({ settings: { webDistPath: webDist } }).stacks.web);
  unbuiltSiteStack = marketplaceApp().stacks.web;
  // Synthesized here, where a busy machine has the hook's time, not a test's.
  unbuiltSite = Template.fromStack(unbuiltSiteStack);
});

afterAll(() => rmSync(webDist, { recursive: true, force: true }));

type Behavior = Record<string, unknown>;
const distributionConfig = () => {
  const [distribution] = resourcesOfType(builtSite, 'AWS::CloudFront::Distribution');
  return distribution![1].Properties.DistributionConfig as {
    DefaultRootObject: string;
    DefaultCacheBehavior: Behavior;
    CacheBehaviors: Behavior[];
    CustomErrorResponses?: unknown;
    Origins: {
      Id: string;
      DomainName: unknown;
      OriginPath?: string;
      OriginAccessControlId?: unknown;
      CustomOriginConfig?: Record<string, unknown>;
    }[];
  };
};

/** Runs the deployed CloudFront Function code on a viewer request for `uri`. */
const spaFallbackUri = (uri: string) => {
  const handler = new Function(`${spaFallbackFunctionCode}\nreturn handler;`)() as (event: unknown) => { uri: string };
  return handler({ request: { uri } }).uri;
};

describe('the site', () => {
  it('keeps its bucket private and reads it through an origin access control', () => {
    builtSite.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
    });
    builtSite.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    const defaultOrigin = distributionConfig().Origins.find(
      (origin) => origin.Id === distributionConfig().DefaultCacheBehavior.TargetOriginId,
    );
    expect(defaultOrigin?.OriginAccessControlId).toBeDefined();
    builtSite.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Action: 's3:GetObject', Principal: { Service: 'cloudfront.amazonaws.com' } }),
        ]),
      },
    });
  });

  it('serves index.html at the root and redirects plain HTTP to HTTPS', () => {
    expect(distributionConfig().DefaultRootObject).toBe('index.html');
    expect(distributionConfig().DefaultCacheBehavior.ViewerProtocolPolicy).toBe('redirect-to-https');
  });

  it('answers client-side routes with index.html without touching files or the API', () => {
    expect(spaFallbackUri('/orders/01JABCDEF')).toBe('/index.html');
    expect(spaFallbackUri('/')).toBe('/index.html');
    expect(spaFallbackUri('/assets/app-1a2b.js')).toBe('/assets/app-1a2b.js');
    expect(spaFallbackUri('/favicon.ico')).toBe('/favicon.ico');
    builtSite.hasResourceProperties('AWS::CloudFront::Function', { FunctionCode: spaFallbackFunctionCode });
    expect(distributionConfig().DefaultCacheBehavior.FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: expect.anything() },
    ]);
    // Distribution-wide error pages would also turn the API's own 403 and 404 answers into index.html.
    expect(distributionConfig().CustomErrorResponses).toBeUndefined();
  });
});

describe('the /api/* behavior', () => {
  const apiBehavior = () => distributionConfig().CacheBehaviors.find((behavior) => behavior.PathPattern === '/api/*');

  it('sends every method to the HTTP API uncached, with all viewer headers but Host', () => {
    expect(apiBehavior()).toMatchObject({
      AllowedMethods: expect.arrayContaining(['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE']),
      CachePolicyId: cachingDisabled,
      OriginRequestPolicyId: allViewerExceptHostHeader,
      ViewerProtocolPolicy: 'https-only',
    });
    const apiOrigin = distributionConfig().Origins.find((origin) => origin.Id === apiBehavior()?.TargetOriginId);
    expect(JSON.stringify(apiOrigin?.DomainName)).toMatch(/MarketplaceApi.*\.execute-api\./);
  });
});

describe('the /live behavior', () => {
  const liveBehavior = () => distributionConfig().CacheBehaviors.find((behavior) => behavior.PathPattern === LIVE_PATH);

  it("takes the browser's WebSocket on the site's own origin to the WebSocket API's stage, path unchanged", () => {
    expect(LIVE_PATH).toBe('/live');
    const liveOrigin = distributionConfig().Origins.find((origin) => origin.Id === liveBehavior()?.TargetOriginId);
    expect(JSON.stringify(liveOrigin?.DomainName)).toMatch(/MarketplaceLive.*\.execute-api\./);
    // No origin path and no function: the stage is named "live", and API Gateway refuses a path past the stage.
    expect(liveOrigin?.OriginPath).toBeUndefined();
    expect(liveBehavior()?.FunctionAssociations).toBeUndefined();
    expect(liveOrigin?.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only' });
  });

  it('is uncached and passes on the query string (the token) and the WebSocket handshake headers, over HTTPS only', () => {
    expect(liveBehavior()).toMatchObject({
      AllowedMethods: ['GET', 'HEAD'],
      CachePolicyId: cachingDisabled,
      // All viewer headers (Sec-WebSocket-Key and -Version among them), query strings and cookies; Host is API Gateway's own.
      OriginRequestPolicyId: allViewerExceptHostHeader,
      ViewerProtocolPolicy: 'https-only',
    });
    expect(liveBehavior()?.ResponseHeadersPolicyId).toBeUndefined();
  });
});

describe('deploying the built web app', () => {
  it('uploads web/dist with the invalidation when it has been built', () => {
    builtSite.resourceCountIs('Custom::CDKBucketDeployment', 2);
    builtSite.hasResourceProperties('Custom::CDKBucketDeployment', {
      DistributionPaths: ['/*'],
      Exclude: ['assets/*'],
      SystemMetadata: { 'cache-control': 'no-cache' },
    });
  });

  it('creates the site without content and warns when web/dist has not been built', () => {
    unbuiltSite.resourceCountIs('Custom::CDKBucketDeployment', 0);
    Annotations.fromStack(unbuiltSiteStack).hasWarning(
      '/MarketplaceWeb',
      Match.stringLikeRegexp('does not exist, so the site will be empty'),
    );
  });
});

type Policy = { ResponseHeadersPolicyConfig: Record<string, unknown> };
/** The response headers policy a behaviour names. */
const policyOf = (behavior: Behavior | undefined) => {
  const ref = (behavior?.ResponseHeadersPolicyId as { Ref?: string } | undefined)?.Ref;
  const found = resourcesOfType(builtSite, 'AWS::CloudFront::ResponseHeadersPolicy').find(([id]) => id === ref);
  expect(found, 'a response headers policy').toBeDefined();
  return found!;
};
const behaviorFor = (pattern: string) =>
  distributionConfig().CacheBehaviors.find((behavior) => behavior.PathPattern === pattern);

describe('the response headers policy', () => {
  const policy = () => policyOf(distributionConfig().DefaultCacheBehavior);
  /** The template's CSP with the account and region placeholders CloudFormation fills in. */
  const deployedCsp = () => {
    const config = policy()[1].Properties as unknown as Policy;
    const csp = (
      config.ResponseHeadersPolicyConfig.SecurityHeadersConfig as Record<string, { ContentSecurityPolicy: unknown }>
    ).ContentSecurityPolicy!.ContentSecurityPolicy;
    if (typeof csp === 'string') return csp;
    const [, parts] = (csp as { 'Fn::Join': [string, unknown[]] })['Fn::Join'];
    return parts.map((part) => (typeof part === 'string' ? part : `<${(part as { Ref: string }).Ref}>`)).join('');
  };

  it("is on the site (default) behaviour, not on the API's", () => {
    const [policyId] = policy();
    expect(distributionConfig().DefaultCacheBehavior.ResponseHeadersPolicyId).toEqual({ Ref: policyId });
    expect(behaviorFor('/api/*')?.ResponseHeadersPolicyId).toBeUndefined();
  });

  it('sends the header set the Vite preview sends, with the cloud origins', () => {
    const expected = securityHeaders(
      cloudOrigins({
        photosBucketOrigin:
          'https://marketplace-photos-<AWS::AccountId>-<AWS::Region>.s3.<AWS::Region>.<AWS::URLSuffix>',
        firebaseAuthDomain: 'demo-marketplace.firebaseapp.com',
      }),
    );
    expect(deployedCsp()).toBe(expected['Content-Security-Policy']);
    const config = (policy()[1].Properties as unknown as Policy).ResponseHeadersPolicyConfig;
    expect(config.SecurityHeadersConfig).toMatchObject({
      StrictTransportSecurity: {
        AccessControlMaxAgeSec: 63_072_000,
        IncludeSubdomains: true,
        Preload: true,
        Override: true,
      },
      FrameOptions: { FrameOption: 'DENY', Override: true },
      ContentTypeOptions: { Override: true },
      ReferrerPolicy: { ReferrerPolicy: expected['Referrer-Policy'], Override: true },
    });
    expect(config.CustomHeadersConfig).toEqual({
      Items: [{ Header: 'Permissions-Policy', Value: expected['Permissions-Policy'], Override: true }],
    });
  });

  it('allows scripts from the site and Stripe only, no inline script, no eval, no framing', () => {
    const csp = deployedCsp();
    expect(csp).toMatch(
      /script-src 'self' https:\/\/js\.stripe\.com https:\/\/\*\.js\.stripe\.com https:\/\/apis\.google\.com;/,
    );
    expect(csp).not.toMatch(/unsafe-eval/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(csp).toMatch(
      /connect-src 'self' https:\/\/marketplace-photos-\S+ https:\/\/identitytoolkit\.googleapis\.com/,
    );
  });

  it('fails the build for a header CloudFront has no field for and would drop', () => {
    expect(() => responseHeadersBehavior({ 'X-Frame-Options': 'SAMEORIGIN' })).toThrow(/X-Frame-Options/);
  });
});

describe('the share page', () => {
  const customHeaders = (config: Record<string, unknown>) =>
    (config.CustomHeadersConfig as { Items: { Header: string; Value: string }[] }).Items;

  it("is the site's page, served from the bucket through the SPA fallback", () => {
    expect(behaviorFor('/share/*')).toMatchObject({
      TargetOriginId: distributionConfig().DefaultCacheBehavior.TargetOriginId,
      ViewerProtocolPolicy: 'redirect-to-https',
      FunctionAssociations: [{ EventType: 'viewer-request', FunctionARN: expect.anything() }],
    });
    expect(spaFallbackUri('/share/AbC-dEf_0123456789abcdefghijklmnopqrstuvwxyz1')).toBe('/index.html');
  });

  it("sends noindex and no referrer, with the rest of the site's headers", () => {
    const config = (policyOf(behaviorFor('/share/*'))[1].Properties as unknown as Policy).ResponseHeadersPolicyConfig;
    const site = (policyOf(distributionConfig().DefaultCacheBehavior)[1].Properties as unknown as Policy)
      .ResponseHeadersPolicyConfig;
    expect(sharePageHeaders).toEqual({ 'X-Robots-Tag': 'noindex', 'Referrer-Policy': 'no-referrer' });
    expect(config.SecurityHeadersConfig).toEqual({
      ...(site.SecurityHeadersConfig as object),
      ReferrerPolicy: { ReferrerPolicy: 'no-referrer', Override: true },
    });
    expect(customHeaders(config)).toEqual(
      expect.arrayContaining([
        { Header: 'X-Robots-Tag', Value: 'noindex', Override: true },
        ...customHeaders(site).map((header) => expect.objectContaining({ Header: header.Header })),
      ]),
    );
  });

  it('has its API answers sent uncached to the API, with noindex and no referrer, ahead of /api/*', () => {
    const patterns = distributionConfig().CacheBehaviors.map((behavior) => behavior.PathPattern);
    expect(patterns.indexOf('/api/share/*')).toBeGreaterThanOrEqual(0);
    expect(patterns.indexOf('/api/share/*')).toBeLessThan(patterns.indexOf('/api/*'));
    const { PathPattern: _share, ResponseHeadersPolicyId, ...shareApi } = behaviorFor('/api/share/*')!;
    const { PathPattern: _api, ...api } = behaviorFor('/api/*')!;
    expect(shareApi).toEqual(api);
    const config = (policyOf({ ResponseHeadersPolicyId })[1].Properties as unknown as Policy)
      .ResponseHeadersPolicyConfig;
    expect(config.SecurityHeadersConfig).toEqual({ ReferrerPolicy: { ReferrerPolicy: 'no-referrer', Override: true } });
    expect(customHeaders(config)).toEqual([{ Header: 'X-Robots-Tag', Value: 'noindex', Override: true }]);
  });
});

describe('access logs', () => {
  it('of CloudFront and of the site bucket go to one log bucket, kept 90 days', () => {
    const logging = distributionConfig() as unknown as { Logging: { Bucket: unknown; Prefix: string } };
    expect(distributionConfig()).toMatchObject({ Logging: { Prefix: 'cloudfront/' } });
    const logBucketId = JSON.stringify(logging.Logging.Bucket).match(/"(LogBucket[A-Za-z0-9]+)"/)?.[1];
    expect(logBucketId).toBeDefined();
    const buckets = Object.fromEntries(resourcesOfType(builtSite, 'AWS::S3::Bucket'));
    expect(buckets[logBucketId!]!.Properties).toMatchObject({
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerPreferred' }] },
      LifecycleConfiguration: { Rules: [{ ExpirationInDays: 90, Status: 'Enabled' }] },
    });
    const siteBucket = Object.entries(buckets).find(([id]) => id.startsWith('SiteBucket'))![1];
    expect(siteBucket.Properties.LoggingConfiguration).toEqual({
      DestinationBucketName: { Ref: logBucketId },
      LogFilePrefix: 'site-bucket/',
    });
  });
});
