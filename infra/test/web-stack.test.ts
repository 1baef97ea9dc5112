import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spaFallbackFunctionCode } from '../lib/spa-fallback';
import type { WebStack } from '../lib/web-stack';
import { marketplaceApp, resourcesOfType } from './synthesize-marketplace';

// CloudFront's managed policies, by their fixed ids.
const cachingDisabled = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const allViewerExceptHostHeader = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

let builtSite: Template;
let unbuiltSiteStack: WebStack;
let webDist: string;

beforeAll(() => {
  webDist = mkdtempSync(join(tmpdir(), 'web-dist-'));
  mkdirSync(join(webDist, 'assets'));
  writeFileSync(join(webDist, 'index.html'), '<!doctype html><script src="/assets/app-1a2b.js"></script>');
  writeFileSync(join(webDist, 'assets', 'app-1a2b.js'), 'console.log("app")');
  builtSite = Template.fromStack(marketplaceApp({ settings: { webDistPath: webDist } }).stacks.web);
  unbuiltSiteStack = marketplaceApp().stacks.web;
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
    Origins: { Id: string; DomainName: unknown; OriginAccessControlId?: unknown }[];
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
    Template.fromStack(unbuiltSiteStack).resourceCountIs('Custom::CDKBucketDeployment', 0);
    Annotations.fromStack(unbuiltSiteStack).hasWarning(
      '/MarketplaceWeb',
      Match.stringLikeRegexp('does not exist, so the site will be empty'),
    );
  });
});
