import { pipes } from '@marketplace/services/pipes';
import { rateLimits } from '@marketplace/services/rate-limits';
import { routes } from '@marketplace/services/routes';
import { schedules, workers } from '@marketplace/services/workers';
import { type App, Tags } from 'aws-cdk-lib';
import { ApiStack } from './api-stack';
import { checkWithCdkNag } from './compliance';
import { DataStack } from './data-stack';
import { EdgeStack } from './edge-stack';
import { LiveStack } from './live-stack';
import { MonitoringStack } from './monitoring-stack';
import type { MarketplaceSettings } from './settings';
import { StorageStack } from './storage-stack';
import { WebStack } from './web-stack';
import { WorkersStack } from './workers-stack';

/**
 * The whole marketplace. References run one way: data -> live -> workers -> api -> web -> storage.
 * Storage is last because the photos bucket's CORS rule needs the site's origin; the functions
 * reach that bucket by its fixed name instead of a reference. The WebSocket API (live) comes
 * before the workers, whose push worker posts to it, and the web stack serves it at /live.
 * Monitoring reads the live, workers and API stacks (alarms, the dashboard) and nothing reads it.
 * The edge stack (the web ACL, which CloudFront takes from us-east-1 only) is the one stack pinned
 * to a region; the web stack reads its web ACL's ARN across regions and deploys after it.
 */
export const buildMarketplace = (app: App, settings: MarketplaceSettings) => {
  Tags.of(app).add('project', 'photo-marketplace');
  checkWithCdkNag(app);

  const data = new DataStack(app, 'MarketplaceData', {
    description: 'Marketplace table (single-table design) and Stripe keys',
    terminationProtection: true,
  });
  const live = new LiveStack(app, 'MarketplaceLive', {
    description: 'Marketplace live updates: the WebSocket API, its authorizer and connection functions',
    table: data.table,
    firebaseProjectId: settings.firebaseProjectId,
  });
  const workersStack = new WorkersStack(app, 'MarketplaceWorkers', {
    description: 'Marketplace queues, their workers and the pipes from the outbox',
    table: data.table,
    workers,
    pipes,
    firebaseAdminSecret: data.firebaseAdminSecret,
    firebaseProjectId: settings.firebaseProjectId,
    email: { mailFrom: settings.mailFrom, siteUrl: settings.siteUrl },
    live: live.endpoint,
    schedules,
    stripeSecret: data.stripeSecret,
    unsubscribeKeySecret: data.unsubscribeKeySecret,
  });
  const api = new ApiStack(app, 'MarketplaceApi', {
    description: 'Marketplace HTTP API, one function per route',
    routes,
    table: data.table,
    queues: workersStack.queues,
    stripeSecret: data.stripeSecret,
    unsubscribeKeySecret: data.unsubscribeKeySecret,
    firebaseProjectId: settings.firebaseProjectId,
    ...(settings.firebaseApiKey ? { firebaseApiKey: settings.firebaseApiKey } : {}),
    email: { mailFrom: settings.mailFrom, siteUrl: settings.siteUrl },
  });
  const edge = new EdgeStack(app, 'MarketplaceEdge', {
    description:
      'Marketplace web ACL in front of CloudFront (per-client rate limits, managed rules), its log and alarm',
    rateLimits,
    routes,
    ...(settings.alarmEmail ? { alarmEmail: settings.alarmEmail } : {}),
  });
  const web = new WebStack(app, 'MarketplaceWeb', {
    description: 'Marketplace web app on CloudFront, with the API under /api and live updates at /live',
    apiDomainName: api.apiDomainName,
    liveDomainName: live.apiDomainName,
    webDistPath: settings.webDistPath,
    firebaseProjectId: settings.firebaseProjectId,
    webAclArn: edge.webAclArnAcrossRegions,
  });
  web.addDependency(edge, "its CloudFront distribution uses the edge stack's web ACL");
  const storage = new StorageStack(app, 'MarketplaceStorage', {
    description: 'Marketplace photos bucket',
    terminationProtection: true,
    siteOrigin: web.siteOrigin,
    ...(settings.extraCorsOrigin ? { extraCorsOrigin: settings.extraCorsOrigin } : {}),
  });

  const monitoring = new MonitoringStack(app, 'MarketplaceMonitoring', {
    description: 'Marketplace alarms, their SNS topic and the Marketplace dashboard',
    ...(settings.alarmEmail ? { alarmEmail: settings.alarmEmail } : {}),
    workers,
    queues: workersStack.queues,
    deadLetterQueues: workersStack.deadLetterQueues,
    pipes: workersStack.pipes,
    httpApi: api.httpApi,
    apiAccessLogs: api.accessLogs,
    webSocketApi: live.webSocketApi,
    edge,
  });

  return { data, live, workers: workersStack, api, edge, web, storage, monitoring };
};
