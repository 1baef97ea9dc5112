import { publicPathMatches, rateLimits, scaleRateLimits } from '@marketplace/services/rate-limits';
import { routes } from '@marketplace/services/routes';
import { App, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { commonRulesOnlyCounted, EdgeStack, webAclName, webAclRules } from '../lib/edge-stack';
import { alarmNames, alarmThresholds } from '../lib/monitoring-stack';
import { cdkJsonContext, marketplaceApp, resourcesOfType } from './synthesize-marketplace';

const alarmEmail = 'ops@photos.example.com';

let stacks: ReturnType<typeof marketplaceApp>['stacks'];
let edge: Template;
let web: Template;
let monitoring: Template;

beforeAll(() => {
  stacks = marketplaceApp({ settings: { alarmEmail } }).stacks;
  edge = Template.fromStack(stacks.edge);
  web = Template.fromStack(stacks.web);
  monitoring = Template.fromStack(stacks.monitoring);
});

type Properties = Record<string, unknown>;
interface Rule {
  Name: string;
  Priority: number;
  Statement: Properties;
  Action?: Properties;
  OverrideAction?: Properties;
  VisibilityConfig: Properties;
}

const only = (template: Template, type: string) => {
  const found = resourcesOfType(template, type);
  expect(found, type).toHaveLength(1);
  return { id: found[0]![0], properties: found[0]![1].Properties };
};

const webAcl = () => only(edge, 'AWS::WAFv2::WebACL');
const rules = () => webAcl().properties.Rules as Rule[];
const rule = (name: string) => {
  const found = rules().find((r) => r.Name === name);
  expect(found, name).toBeDefined();
  return found!;
};

const rateLimited = {
  Block: {
    CustomResponse: {
      ResponseCode: 429,
      CustomResponseBodyKey: 'rate-limited',
      ResponseHeaders: [{ Name: 'Retry-After', Value: String(rateLimits.windowSeconds) }],
    },
  },
};

describe('the web ACL', () => {
  it('is for CloudFront, in us-east-1, and lets through what no rule blocks', () => {
    expect(stacks.edge.region).toBe('us-east-1');
    expect(webAcl().properties).toMatchObject({
      Name: webAclName,
      Scope: 'CLOUDFRONT',
      DefaultAction: { Allow: {} },
      VisibilityConfig: { MetricName: webAclName, CloudWatchMetricsEnabled: true, SampledRequestsEnabled: true },
    });
  });

  it('limits each address on the public routes to the declared number over the declared window, matched by path', () => {
    expect(rule(webAclRules.publicRoutesPerClient)).toMatchObject({
      Statement: {
        RateBasedStatement: {
          Limit: rateLimits.publicRouteRequests,
          AggregateKeyType: 'IP',
          EvaluationWindowSec: rateLimits.windowSeconds,
          ScopeDownStatement: {
            OrStatement: {
              Statements: publicPathMatches(routes).map(({ position, path }) => ({
                ByteMatchStatement: {
                  FieldToMatch: { UriPath: {} },
                  PositionalConstraint: position,
                  SearchString: path,
                  TextTransformations: [{ Priority: 0, Type: 'URL_DECODE' }],
                },
              })),
            },
          },
        },
      },
      Action: rateLimited,
    });
    // The share link, the invitation check and Stripe's webhook, from the route table.
    const paths = JSON.stringify(rule(webAclRules.publicRoutesPerClient).Statement);
    for (const path of ['/api/share/', '/api/auth/verify-invitation', '/api/webhooks/stripe'])
      expect(paths).toContain(path);
    expect(paths).not.toContain('"/api/"');
  });

  it('limits each address on every request to the declared number, with no scope-down', () => {
    expect(rule(webAclRules.allRequestsPerClient)).toMatchObject({
      Statement: {
        RateBasedStatement: {
          Limit: rateLimits.allRequests,
          AggregateKeyType: 'IP',
          EvaluationWindowSec: rateLimits.windowSeconds,
        },
      },
      Action: rateLimited,
    });
    const statement = rule(webAclRules.allRequestsPerClient).Statement.RateBasedStatement as Properties;
    expect(statement.ScopeDownStatement).toBeUndefined();
  });

  it('answers a refused client 429 with our JSON error shape', () => {
    const bodies = webAcl().properties.CustomResponseBodies as Record<string, { ContentType: string; Content: string }>;
    expect(bodies['rate-limited']?.ContentType).toBe('APPLICATION_JSON');
    const body = JSON.parse(bodies['rate-limited']!.Content) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['message']);
    expect(body.message).toMatch(/^Too many requests/);
  });

  it("runs AWS's IP reputation list first, the rate limits next, then the known bad inputs and the common rules", () => {
    expect([...rules()].sort((a, b) => a.Priority - b.Priority).map((r) => r.Name)).toEqual([
      webAclRules.ipReputation,
      webAclRules.publicRoutesPerClient,
      webAclRules.allRequestsPerClient,
      webAclRules.knownBadInputs,
      webAclRules.commonRules,
    ]);
    for (const [name, group] of [
      [webAclRules.ipReputation, 'AWSManagedRulesAmazonIpReputationList'],
      [webAclRules.knownBadInputs, 'AWSManagedRulesKnownBadInputsRuleSet'],
      [webAclRules.commonRules, 'AWSManagedRulesCommonRuleSet'],
    ] as const) {
      expect(rule(name)).toMatchObject({
        Statement: { ManagedRuleGroupStatement: { VendorName: 'AWS', Name: group } },
        OverrideAction: { None: {} },
      });
    }
    const ids = new Set(rules().map((r) => r.VisibilityConfig.MetricName));
    expect(ids.size).toBe(rules().length);
  });

  it('only counts the common rules that read bodies: the API takes multipart photos and JSON over 8 KB', () => {
    const overrides = (rule(webAclRules.commonRules).Statement.ManagedRuleGroupStatement as Properties)
      .RuleActionOverrides as { Name: string; ActionToUse: Properties }[];
    expect(overrides.map((o) => o.Name).sort()).toEqual(Object.keys(commonRulesOnlyCounted).sort());
    expect(overrides.map((o) => o.Name)).toContain('SizeRestrictions_BODY');
    for (const override of overrides) expect(override.ActionToUse).toEqual({ Count: {} });
    // Only rules on the body: the set's checks of the path, query string, headers and cookies stay.
    for (const name of overrides.map((o) => o.Name)) expect(name).toMatch(/_BODY$/);
  });

  it('takes the limits the local gateway takes, scaled copies too, and refuses what WAF would refuse', () => {
    const build = (limits: typeof rateLimits) => {
      const app = new App({ context: cdkJsonContext() });
      return Template.fromStack(new EdgeStack(app, 'Edge', { rateLimits: limits, routes }));
    };
    const scaled = scaleRateLimits(rateLimits, 20);
    const limits = resourcesOfType(build(scaled), 'AWS::WAFv2::WebACL')[0]![1].Properties.Rules as Rule[];
    expect(
      limits.map((r) => (r.Statement.RateBasedStatement as Properties | undefined)?.Limit).filter(Boolean),
    ).toEqual([scaled.publicRouteRequests, scaled.allRequests]);
    expect(() => build({ ...rateLimits, windowSeconds: 30 as 60 })).toThrow(/windowSeconds 30/);
  });
});

describe("the web ACL's log", () => {
  it('goes to an aws-waf-logs- group of its region, kept 90 days', () => {
    const logGroup = only(edge, 'AWS::Logs::LogGroup');
    expect(logGroup.properties.LogGroupName).toMatch(/^aws-waf-logs-/);
    expect(logGroup.properties.RetentionInDays).toBe(90);
    const logging = only(edge, 'AWS::WAFv2::LoggingConfiguration').properties;
    expect(logging.ResourceArn).toEqual({ 'Fn::GetAtt': [webAcl().id, 'Arn'] });
    // The group's own ARN, without the ':*' WAF refuses, in the web ACL's region.
    expect(logging.LogDestinationConfigs).toEqual([
      {
        'Fn::Join': ['', ['arn:aws:logs:us-east-1:', { Ref: 'AWS::AccountId' }, ':log-group:', { Ref: logGroup.id }]],
      },
    ]);
  });

  it('leaves out the Authorization header and the query string, which carry ID and invitation tokens', () => {
    const logging = only(edge, 'AWS::WAFv2::LoggingConfiguration').properties;
    expect(logging.RedactedFields).toEqual([{ SingleHeader: { Name: 'authorization' } }, { QueryString: {} }]);
  });

  it('keeps the requests WAF blocked, and those the counted-only rules matched, and drops the rest', () => {
    const logging = only(edge, 'AWS::WAFv2::LoggingConfiguration').properties;
    expect(logging.LoggingFilter).toEqual({
      DefaultBehavior: 'DROP',
      Filters: [
        {
          Behavior: 'KEEP',
          Requirement: 'MEETS_ANY',
          Conditions: [{ ActionCondition: { Action: 'BLOCK' } }, { ActionCondition: { Action: 'EXCLUDED_AS_COUNT' } }],
        },
      ],
    });
  });
});

describe('the CloudFront distribution', () => {
  it("uses the edge stack's web ACL, read across regions from its output, and deploys after it", () => {
    const distribution = only(web, 'AWS::CloudFront::Distribution').properties.DistributionConfig as Properties;
    expect(distribution.WebACLId).toEqual({
      'Fn::GetStackOutput': { StackName: 'MarketplaceEdge', OutputName: 'WebAclArn', Region: 'us-east-1' },
    });
    const outputs = edge.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(outputs.WebAclArn?.Value).toEqual({ 'Fn::GetAtt': [webAcl().id, 'Arn'] });
    expect(stacks.web.dependencies).toContain(stacks.edge);
  });

  it('no longer has cdk-nag\'s "no WAF" finding acknowledged', () => {
    const acknowledged = stacks.web.node
      .findAll()
      .flatMap((construct) => construct.node.metadata)
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) => Object.keys(entry.data as Record<string, string>));
    expect(acknowledged.length).toBeGreaterThan(0);
    expect(acknowledged).not.toContain('AwsSolutions-CFR2');
  });
});

describe('the refused-clients alarm', () => {
  const alarm = () => {
    const found = resourcesOfType(edge, 'AWS::CloudWatch::Alarm');
    expect(found).toHaveLength(1);
    return found[0]![1].Properties;
  };

  it("adds both rate rules' blocked requests of the CloudFront web ACL (no Region dimension) over 5 minutes", () => {
    const metrics = alarm().Metrics as {
      Id: string;
      Expression?: string;
      MetricStat?: {
        Metric: { Namespace: string; MetricName: string; Dimensions: unknown[] };
        Period: number;
        Stat: string;
      };
    }[];
    expect(metrics.find((m) => m.Expression)?.Expression).toBe('FILL(publicRoutes, 0) + FILL(allRequests, 0)');
    const stats = metrics.filter((m) => m.MetricStat).map((m) => m.MetricStat!);
    expect(stats.map((s) => s.Metric.Dimensions)).toEqual(
      [webAclRules.publicRoutesPerClient, webAclRules.allRequestsPerClient].map((ruleName) =>
        expect.arrayContaining([
          { Name: 'WebACL', Value: webAclName },
          { Name: 'Rule', Value: ruleName },
        ]),
      ),
    );
    for (const stat of stats) {
      expect(stat).toMatchObject({
        Metric: { Namespace: 'AWS/WAFV2', MetricName: 'BlockedRequests' },
        Period: 300,
        Stat: 'Sum',
      });
      expect(stat.Metric.Dimensions).toHaveLength(2);
    }
  });

  it('fires at the declared threshold and notifies, when it fires and when it clears, a topic of its own region', () => {
    const properties = alarm();
    expect(properties).toMatchObject({
      AlarmName: alarmNames.rateLimitedClients,
      Threshold: alarmThresholds.rateLimitedRequests,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
    });
    expect(properties.AlarmDescription).toMatch(/Runbook/);
    const topic = only(edge, 'AWS::SNS::Topic');
    expect(properties.AlarmActions).toEqual([{ Ref: topic.id }]);
    expect(properties.OKActions).toEqual([{ Ref: topic.id }]);
    expect(topic.properties.KmsMasterKeyId).toBeDefined();
    edge.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: alarmEmail });
  });

  it('is graphed, per rule, on the Marketplace dashboard from us-east-1', () => {
    const [, dashboard] = resourcesOfType(monitoring, 'AWS::CloudWatch::Dashboard')[0]!;
    // The body is a Fn::Join of JSON text and references: each reference stands in as a plain word.
    const [, parts] = (dashboard.Properties.DashboardBody as { 'Fn::Join': [string, unknown[]] })['Fn::Join'];
    const body = parts.map((part) => (typeof part === 'string' ? part : 'REFERENCE')).join('');
    const { widgets } = JSON.parse(body) as { widgets: { properties: { title?: string; metrics?: unknown[][] } }[] };
    const graph = widgets.find((w) => w.properties.title === 'Firewall: requests refused, per rule (us-east-1)');
    expect(graph?.properties.metrics).toEqual(
      Object.entries(webAclRules).map(([label, ruleName]) => [
        'AWS/WAFV2',
        'BlockedRequests',
        'Rule',
        ruleName,
        'WebACL',
        webAclName,
        { label, region: 'us-east-1', stat: 'Sum' },
      ]),
    );
  });
});
