import {
  checkRateLimits,
  type PathMatch,
  publicPathMatches,
  type RateLimits,
  rateLimitedAnswer,
} from '@marketplace/services/rate-limits';
import type { RouteDefinition } from '@marketplace/services/routes';
import { ArnFormat, CfnOutput, Duration, Fn, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { MathExpression, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Topic } from 'aws-cdk-lib/aws-sns';
import { CfnLoggingConfiguration, CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import { alarmNames, alarmThresholds, alarmTopic, marketplaceAlarm } from './monitoring-stack';

/** CloudFront takes its web ACL from this region only, whatever region the rest of the marketplace is in. */
export const edgeRegion = 'us-east-1';

/** The web ACL's name, which is also its metrics' WebACL dimension: the dashboard finds its graphs by it. */
export const webAclName = 'Marketplace';

/** Each rule's name, which is also its metrics' Rule dimension. */
export const webAclRules = {
  ipReputation: 'IpReputation',
  publicRoutesPerClient: 'PublicRoutesPerClient',
  allRequestsPerClient: 'AllRequestsPerClient',
  knownBadInputs: 'KnownBadInputs',
  commonRules: 'CommonRules',
} as const;

/**
 * Rules of AWS's common rule set that only count here, each with why. The API takes bodies the set
 * does not expect: JSON past its 8 KB, and photo bytes in multipart bodies (a whole order with its
 * files, an edited photo), in which its body patterns would now and then find markup or a path.
 * Every body is parsed by its route's zod schema, and nothing from one is rendered as HTML.
 */
export const commonRulesOnlyCounted: Record<string, string> = {
  SizeRestrictions_BODY:
    "Bodies over 8 KB are normal here: an order with its files in one multipart request (up to API Gateway's 10 MB), Stripe's webhook events, batched upload registrations, a listing order of many photos.",
  CrossSiteScripting_BODY: 'Photo bytes in a multipart body can read as markup; React escapes whatever it shows.',
  GenericLFI_BODY: "Photo bytes in a multipart body can hold '../'; no route opens a file named by a body.",
};

/** As long as the API's access log is kept. */
const logRetention = RetentionDays.THREE_MONTHS;

export interface EdgeStackProps extends Omit<StackProps, 'env'> {
  /** The per-client limits (services/src/rate-limits.ts), checked as the local gateway checks them. */
  rateLimits: RateLimits;
  /** The route table, whose public routes get the stricter limit. */
  routes: readonly RouteDefinition[];
  /** Who the alarm emails, as the monitoring stack's alarms. */
  alarmEmail?: string;
}

/**
 * What stands in front of CloudFront: the web ACL with per-client rate limits and AWS's managed
 * rules, its log, and the alarm on refused clients. WAF for CloudFront lives in us-east-1, and so
 * do its metrics, so this stack is pinned there (account still the deployer's) and the web stack
 * reads the web ACL's ARN from this stack's output.
 */
export class EdgeStack extends Stack {
  readonly webAcl: CfnWebACL;
  /**
   * The web ACL's ARN for a stack in another region, read by CloudFormation at deploy time
   * (Fn::GetStackOutput): the CDK's own cross-stack references need both stacks pinned to a
   * region, and the marketplace's other stacks take the deployer's. The reader deploys after this stack.
   */
  readonly webAclArnAcrossRegions: string;
  readonly logGroup: LogGroup;
  readonly topic: Topic;

  constructor(scope: Construct, id: string, props: EdgeStackProps) {
    super(scope, id, { ...props, env: { region: edgeRegion } });
    const limits = checkRateLimits(props.rateLimits);
    const answer = rateLimitedAnswer(limits);
    const rateLimitedBody = 'rate-limited';

    const rateRule = (
      name: string,
      priority: number,
      limit: number,
      scopeDownStatement?: CfnWebACL.StatementProperty,
    ) => ({
      name,
      priority,
      statement: {
        rateBasedStatement: {
          limit,
          // The viewer's address as CloudFront received the request: no header a client writes.
          aggregateKeyType: 'IP',
          evaluationWindowSec: limits.windowSeconds,
          ...(scopeDownStatement ? { scopeDownStatement } : {}),
        },
      },
      action: {
        block: {
          customResponse: {
            responseCode: answer.statusCode,
            customResponseBodyKey: rateLimitedBody,
            responseHeaders: [{ name: 'Retry-After', value: String(answer.retryAfterSeconds) }],
          },
        },
      },
      visibilityConfig: visibility(name),
    });

    const managedRules = (name: string, group: string, priority: number, onlyCounted: Record<string, string> = {}) => ({
      name,
      priority,
      statement: {
        managedRuleGroupStatement: {
          vendorName: 'AWS',
          name: group,
          ...(Object.keys(onlyCounted).length
            ? {
                ruleActionOverrides: Object.keys(onlyCounted).map((rule) => ({
                  name: rule,
                  actionToUse: { count: {} },
                })),
              }
            : {}),
        },
      },
      overrideAction: { none: {} },
      visibilityConfig: visibility(name),
    });

    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: webAclName,
      description: 'Marketplace site and API: per-client rate limits and AWS managed rules',
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(webAclName),
      customResponseBodies: {
        [rateLimitedBody]: { contentType: 'APPLICATION_JSON', content: answer.body },
      },
      // In this order: addresses known for attacks never use up a limit; a refused flood costs no
      // further inspection; then the managed inputs.
      rules: [
        managedRules(webAclRules.ipReputation, 'AWSManagedRulesAmazonIpReputationList', 0),
        rateRule(
          webAclRules.publicRoutesPerClient,
          1,
          limits.publicRouteRequests,
          anyPath(publicPathMatches(props.routes)),
        ),
        rateRule(webAclRules.allRequestsPerClient, 2, limits.allRequests),
        managedRules(webAclRules.knownBadInputs, 'AWSManagedRulesKnownBadInputsRuleSet', 3),
        managedRules(webAclRules.commonRules, 'AWSManagedRulesCommonRuleSet', 4, commonRulesOnlyCounted),
      ],
    });

    // WAF writes only to a log group whose name starts so, in its own region.
    this.logGroup = new LogGroup(this, 'WebAclLogs', {
      logGroupName: 'aws-waf-logs-marketplace',
      retention: logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    new CfnLoggingConfiguration(this, 'WebAclLogging', {
      resourceArn: this.webAcl.attrArn,
      // The log group's own ARN, without the ":*" its Arn attribute ends with, which WAF refuses.
      logDestinationConfigs: [
        this.formatArn({
          service: 'logs',
          resource: 'log-group',
          resourceName: this.logGroup.logGroupName,
          arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        }),
      ],
      // The ID token travels in Authorization, and in the query string of /live and of an invitation link.
      redactedFields: [{ singleHeader: { Name: 'authorization' } }, { queryString: {} }],
      // What WAF refused, and what the counted-only rules would have: the rest is in CloudFront's logs.
      // CloudFormation takes this property as written, hence its own capitalisation.
      loggingFilter: {
        DefaultBehavior: 'DROP',
        Filters: [
          {
            Behavior: 'KEEP',
            Requirement: 'MEETS_ANY',
            Conditions: [
              { ActionCondition: { Action: 'BLOCK' } },
              { ActionCondition: { Action: 'EXCLUDED_AS_COUNT' } },
            ],
          },
        ],
      },
    });

    // CloudWatch alarms watch metrics of their own region and notify topics of their own region:
    // the refused-clients alarm and its topic live here, beside WAF's metrics.
    this.topic = alarmTopic(this, { topicName: 'Marketplace-Edge-Alarms', alarmEmail: props.alarmEmail });
    const period = Duration.minutes(5);
    marketplaceAlarm(
      this,
      new SnsAction(this.topic),
      alarmNames.rateLimitedClients,
      new MathExpression({
        expression: 'FILL(publicRoutes, 0) + FILL(allRequests, 0)',
        usingMetrics: {
          publicRoutes: blockedRequests(webAclRules.publicRoutesPerClient, period),
          allRequests: blockedRequests(webAclRules.allRequestsPerClient, period),
        },
        label: 'Requests refused for a client over its limit',
        period,
      }),
      {
        description: `WAF refused ${alarmThresholds.rateLimitedRequests} or more requests in 5 minutes from clients over their rate limit: a flood, or a real client whose use outgrew the limit. Runbook: docs/operations.md, "Clients over their rate limit".`,
        threshold: alarmThresholds.rateLimitedRequests,
      },
    );

    new CfnOutput(this, webAclArnOutput, {
      description: "The web ACL the web stack's CloudFront distribution uses",
      value: this.webAcl.attrArn,
    });
    this.webAclArnAcrossRegions = Fn.getStackOutput(this.stackName, webAclArnOutput, edgeRegion);
  }

  /** What each rule refused, for a dashboard in any region (a graph, unlike an alarm, may show another region's metrics). */
  refusedRequests(period: Duration) {
    return Object.entries(webAclRules).map(([label, rule]) => blockedRequests(rule, period).with({ label }));
  }
}

const webAclArnOutput = 'WebAclArn';

const visibility = (metricName: string): CfnWebACL.VisibilityConfigProperty => ({
  metricName,
  cloudWatchMetricsEnabled: true,
  sampledRequestsEnabled: true,
});

/** WAF compares the decoded path, so an escaped character cannot slip a request past the public routes' limit. */
const pathStatement = ({ position, path }: PathMatch): CfnWebACL.StatementProperty => ({
  byteMatchStatement: {
    fieldToMatch: { uriPath: {} },
    positionalConstraint: position,
    searchString: path,
    textTransformations: [{ priority: 0, type: 'URL_DECODE' }],
  },
});

const anyPath = (matches: readonly PathMatch[]): CfnWebACL.StatementProperty => {
  const [only] = matches;
  if (!only) throw new Error('The route table has no public route to limit');
  return matches.length === 1 ? pathStatement(only) : { orStatement: { statements: matches.map(pathStatement) } };
};

/** WAF's metric for a CloudFront web ACL: in us-east-1, with the WebACL and Rule dimensions and no Region. */
export const blockedRequests = (rule: string, period: Duration) =>
  new Metric({
    namespace: 'AWS/WAFV2',
    metricName: 'BlockedRequests',
    dimensionsMap: { WebACL: webAclName, Rule: rule },
    statistic: 'Sum',
    period,
    region: edgeRegion,
  });
