import type { QueueName } from '@marketplace/events/order-events';
import { globalIndexes } from '@marketplace/services/data/table-schema';
import type { Grant } from '@marketplace/services/routes';
import { Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { type IGrantable, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference';
import { Construct, type IConstruct } from 'constructs';

/** The shared resources a route or worker function may be granted, by the names the tables use. */
export interface ServiceResources {
  table: ITable;
  photosBucket: IBucket;
  queues: ReadonlyMap<QueueName, IQueue>;
  firebaseProjectId: string;
  /** The project's public web API key, for the routes (a new password set as the user); absent: not configured. */
  firebaseApiKey?: string;
  /** The Stripe keys; only where some function is granted 'stripe'. */
  stripeSecret?: ISecret;
  /** A Firebase service account key; only where some function is granted 'identity:admin'. */
  firebaseAdminSecret?: ISecret;
  /** The unsubscribe links' signing key; only where some function is granted 'unsubscribe:key'. */
  unsubscribeKeySecret?: ISecret;
  /** Where some function is granted 'email:send'. */
  email?: EmailSettings;
  /** The WebSocket API's stage; only where some function is granted 'live:post'. */
  live?: LiveEndpoint;
}

export interface LiveEndpoint {
  /** execute-api ARN of the stage's connections: arn:...:execute-api:region:account:apiId/stage/ */
  stageArn: string;
  /** The management API's URL (https://apiId.execute-api.region.amazonaws.com/stage). */
  managementUrl: string;
}

const liveOf = (resources: ServiceResources) => {
  if (!resources.live) throw new Error('"live:post" is granted but the app has no WebSocket API (resources.live)');
  return resources.live;
};

/** execute-api ARNs of the stage's @connections API: POST (PostToConnection) and DELETE (DeleteConnection). */
const liveConnections = (resources: ServiceResources) =>
  ['POST', 'DELETE'].map((method) => `${liveOf(resources).stageArn}${method}/@connections/*`);

export interface EmailSettings {
  /** The sender: an address or domain verified in SES. */
  mailFrom: string;
  /** The site emailed links open (the web stack's SiteUrl). */
  siteUrl: string;
}

// Reads without Scan: the design allows only bounded Queries, so IAM refuses Scan outright.
// ConditionCheckItem is what a transaction's condition on another item needs.
export const tableReadActions = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
];
/** Writes, including those inside TransactWriteItems (authorized item by item with these). */
export const tableWriteActions = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
];

/**
 * Every key the services write starts with one of these: orders/{id}/originals|edited|thumbnails/...
 * and zips/{orderId}/{kind}-{fingerprint}.zip, and a profile's pictures and their sizes,
 * profiles/{userId}/image|logo/... and profiles/sizes/... Nothing may be read or written elsewhere in the bucket.
 */
export const photoKeyPrefixes = ['orders/', 'zips/', 'profiles/'];
/** HeadObject and presigned GETs need GetObject; ListBucket makes S3 answer 404, not 403, for a missing key. */
export const photoReadActions = ['s3:GetObject'];
/** PutObject covers single and multipart uploads; the other three serve the browser's multipart steps and the removal of an oversized upload. */
export const photoWriteActions = [
  's3:PutObject',
  's3:AbortMultipartUpload',
  's3:ListMultipartUploadParts',
  's3:DeleteObject',
];

/** PDF receipts: receipts/{photographerId}/{orderId}/{entryId}.pdf, read and written apart from the photos. */
export const receiptKeyPrefix = 'receipts/';

/** Data downloads: exports/{userId}/{exportId}.zip, apart from the photos (docs/decisions/0106). */
export const exportKeyPrefix = 'exports/';

const queueOf = (resources: ServiceResources, grant: `queue:${QueueName}`) => {
  const name = grant.slice('queue:'.length) as QueueName;
  const queue = resources.queues.get(name);
  if (!queue)
    throw new Error(`"${grant}" is granted but no worker consumes the "${name}" queue (services/src/workers.ts)`);
  return { name, queue };
};

const isQueueGrant = (grant: Grant): grant is `queue:${QueueName}` => grant.startsWith('queue:');

const stripeSecretOf = (resources: ServiceResources) => {
  if (!resources.stripeSecret) throw new Error('"stripe" is granted but this stack was given no Stripe secret');
  return resources.stripeSecret;
};

const firebaseAdminSecretOf = (resources: ServiceResources) => {
  if (!resources.firebaseAdminSecret) {
    throw new Error('"identity:admin" is granted but this stack was given no Firebase service account secret');
  }
  return resources.firebaseAdminSecret;
};

const unsubscribeKeySecretOf = (resources: ServiceResources) => {
  if (!resources.unsubscribeKeySecret) {
    throw new Error('"unsubscribe:key" is granted but this stack was given no unsubscribe key secret');
  }
  return resources.unsubscribeKeySecret;
};

/** The SES identities a sender address may be authorized through: the address itself and its domain. */
export const senderIdentities = (mailFrom: string) => {
  const address = (mailFrom.match(/<([^>]+)>/)?.[1] ?? mailFrom).trim();
  const domain = address.includes('@') ? address.slice(address.lastIndexOf('@') + 1) : undefined;
  return domain ? [address, domain] : [address];
};

/** SES v2 sends through the configured sender's identities only; with no sender configured, nothing (a warning says so). */
const sendEmailStatements = (stack: Stack, email: EmailSettings | undefined) =>
  email
    ? [
        new PolicyStatement({
          actions: ['ses:SendEmail'],
          resources: senderIdentities(email.mailFrom).map((identity) =>
            stack.formatArn({ service: 'ses', resource: 'identity', resourceName: identity }),
          ),
        }),
      ]
    : [];

const grantStatements = (grant: Grant, resources: ServiceResources, stack: Stack): PolicyStatement[] => {
  const { table, photosBucket } = resources;
  const photoObjects = photoKeyPrefixes.map((prefix) => photosBucket.arnForObjects(`${prefix}*`));
  switch (grant) {
    case 'table:read':
      // Each index by name: a query can reach no index the table does not declare.
      return [
        new PolicyStatement({
          actions: tableReadActions,
          resources: [table.tableArn, ...globalIndexes.map((index) => `${table.tableArn}/index/${index.indexName}`)],
        }),
      ];
    case 'table:write':
      return [new PolicyStatement({ actions: tableWriteActions, resources: [table.tableArn] })];
    case 'photos:read':
      return [
        new PolicyStatement({ actions: photoReadActions, resources: photoObjects }),
        new PolicyStatement({ actions: ['s3:ListBucket'], resources: [photosBucket.bucketArn] }),
      ];
    case 'photos:write':
      return [new PolicyStatement({ actions: photoWriteActions, resources: photoObjects })];
    case 'receipts:read':
      // GetObject alone: a presigned link to a receipt the route has found is the caller's.
      return [
        new PolicyStatement({
          actions: ['s3:GetObject'],
          resources: [photosBucket.arnForObjects(`${receiptKeyPrefix}*`)],
        }),
      ];
    case 'receipts:write':
      return [
        new PolicyStatement({
          actions: ['s3:PutObject'],
          resources: [photosBucket.arnForObjects(`${receiptKeyPrefix}*`)],
        }),
      ];
    case 'exports:read':
      // GetObject alone: the link to the caller's own zip, and the worker's check of what it wrote.
      return [
        new PolicyStatement({
          actions: ['s3:GetObject'],
          resources: [photosBucket.arnForObjects(`${exportKeyPrefix}*`)],
        }),
      ];
    case 'exports:write':
      // The zip's multipart upload (and its abort), and the purge's removal of a deleted account's zips.
      return [
        new PolicyStatement({
          actions: ['s3:PutObject', 's3:AbortMultipartUpload', 's3:DeleteObject'],
          resources: [photosBucket.arnForObjects(`${exportKeyPrefix}*`)],
        }),
      ];
    case 'stripe':
      return [
        new PolicyStatement({
          actions: ['secretsmanager:GetSecretValue'],
          resources: [stripeSecretOf(resources).secretArn],
        }),
      ];
    case 'identity:admin':
      return [
        new PolicyStatement({
          actions: ['secretsmanager:GetSecretValue'],
          resources: [firebaseAdminSecretOf(resources).secretArn],
        }),
      ];
    case 'email:send':
      return sendEmailStatements(stack, resources.email);
    case 'unsubscribe:key':
      return [
        new PolicyStatement({
          actions: ['secretsmanager:GetSecretValue'],
          resources: [unsubscribeKeySecretOf(resources).secretArn],
        }),
      ];
    case 'live:post':
      // PostToConnection and DeleteConnection on this stage's connections, and nothing else.
      return [
        new PolicyStatement({ actions: ['execute-api:ManageConnections'], resources: liveConnections(resources) }),
      ];
    default:
      return [
        new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [queueOf(resources, grant).queue.queueArn] }),
      ];
  }
};

/** How cdk-nag spells a photo key prefix in its wildcard findings (AwsSolutions-IAM5). */
export const photoPrefixFinding = (prefix: string) =>
  `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::marketplace-photos-<AWS::AccountId>-<AWS::Region>/${prefix}*]`;

/** Grants exactly what the route or worker table lists, nothing more: each action by name, each resource by ARN. */
export const grantAccess = (grantee: IGrantable, grants: readonly Grant[], resources: ServiceResources) => {
  const stack = Stack.of(resources.table);
  for (const grant of grants) {
    for (const statement of grantStatements(grant, resources, stack))
      grantee.grantPrincipal.addToPrincipalPolicy(statement);
  }
  const role = grantee.grantPrincipal;
  if ((grants.includes('photos:read') || grants.includes('photos:write')) && Construct.isConstruct(role)) {
    // Photo keys hold ids made at run time (orders/{orderId}/..., zips/{orderId}/...): a prefix is as narrow as IAM can say.
    for (const prefix of photoKeyPrefixes) {
      Validations.of(role).acknowledge({
        id: photoPrefixFinding(prefix),
        reason: `Objects under ${prefix} are named by order or user ids made at run time; the prefix is the narrowest resource IAM can name.`,
      });
    }
  }
  if ((grants.includes('receipts:read') || grants.includes('receipts:write')) && Construct.isConstruct(role)) {
    Validations.of(role).acknowledge({
      id: photoPrefixFinding(receiptKeyPrefix),
      reason: `Receipts under ${receiptKeyPrefix} are named by user, order and payment ids made at run time; the prefix is the narrowest resource IAM can name.`,
    });
  }
  if ((grants.includes('exports:read') || grants.includes('exports:write')) && Construct.isConstruct(role)) {
    Validations.of(role).acknowledge({
      id: photoPrefixFinding(exportKeyPrefix),
      reason: `Data downloads under ${exportKeyPrefix} are named by user and request ids made at run time; the prefix is the narrowest resource IAM can name.`,
    });
  }
  if (grants.includes('live:post') && Construct.isConstruct(role)) acknowledgeLiveConnections(role, resources);
};

/**
 * Connection ids are API Gateway's, made when a tab connects: @connections/* of the one stage is as
 * narrow as IAM can say (cdk-nag AwsSolutions-IAM5). The finding names the stage's ARN as this
 * stack's template spells it, which holds a reference to the WebSocket API's stack and so is known
 * only once the app's references are resolved: the acknowledgement is written then, before
 * cdk-nag runs, with cdk-nag's own spelling of the resource.
 */
const acknowledgeLiveConnections = (role: IConstruct, resources: ServiceResources) => {
  const arns = liveConnections(resources);
  role.node.addValidation({
    validate: () => {
      for (const arn of arns) {
        Validations.of(role).acknowledge({
          id: `AwsSolutions-IAM5[Resource::${flattenCfnReference(Stack.of(role).resolve(arn))}]`,
          reason:
            "Connection ids are made by API Gateway when a tab connects; the one stage's @connections/* is the narrowest resource IAM can name.",
        });
      }
      return [];
    },
  });
};

/**
 * What services/src/config.ts reads. QUEUE_URLS names only the queues the function may send to,
 * so a missing grant fails as an unknown queue instead of an access error. Local endpoints and
 * Stripe keys are never set: the keys are read from the secret at STRIPE_SECRET_ARN.
 */
export const serviceEnvironment = (scope: Construct, grants: readonly Grant[], resources: ServiceResources) => {
  const queueUrls = Object.fromEntries(
    grants.filter(isQueueGrant).map((grant) => {
      const { name, queue } = queueOf(resources, grant);
      return [name, queue.queueUrl];
    }),
  );
  return {
    TABLE_NAME: resources.table.tableName,
    PHOTOS_BUCKET: resources.photosBucket.bucketName,
    QUEUE_URLS: Stack.of(scope).toJsonString(queueUrls),
    FIREBASE_PROJECT_ID: resources.firebaseProjectId,
    ...(resources.firebaseApiKey ? { FIREBASE_API_KEY: resources.firebaseApiKey } : {}),
    // Only functions that may read the secret learn where it is.
    ...(grants.includes('stripe') ? { STRIPE_SECRET_ARN: stripeSecretOf(resources).secretArn } : {}),
    ...(grants.includes('identity:admin')
      ? { FIREBASE_ADMIN_SECRET_ARN: firebaseAdminSecretOf(resources).secretArn }
      : {}),
    ...(grants.includes('live:post') ? { LIVE_ENDPOINT: liveOf(resources).managementUrl } : {}),
    ...(grants.includes('unsubscribe:key')
      ? { UNSUBSCRIBE_KEY_SECRET_ARN: unsubscribeKeySecretOf(resources).secretArn }
      : {}),
    ...(grants.includes('email:send') && resources.email
      ? { MAIL_FROM: resources.email.mailFrom, SITE_URL: resources.email.siteUrl }
      : {}),
    // Stripe's hosted onboarding sends an editor back to the site (payout accounts).
    ...(grants.includes('stripe') && resources.email ? { SITE_URL: resources.email.siteUrl } : {}),
  };
};
