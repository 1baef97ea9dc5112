import type { QueueName } from '@marketplace/events/order-events';
import type { Grant } from '@marketplace/services/routes';
import { Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { type IGrantable, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

/** The shared resources a route or worker function may be granted, by the names the tables use. */
export interface ServiceResources {
  table: ITable;
  photosBucket: IBucket;
  queues: ReadonlyMap<QueueName, IQueue>;
  firebaseProjectId: string;
  /** The Stripe keys; only where some function is granted 'stripe'. */
  stripeSecret?: ISecret;
  /** A Firebase service account key; only where some function is granted 'identity:admin'. */
  firebaseAdminSecret?: ISecret;
  /** Where some function is granted 'email:send'. */
  email?: EmailSettings;
}

export interface EmailSettings {
  /** The sender: an address or domain verified in SES. */
  mailFrom: string;
  /** The site emailed links open (the web stack's SiteUrl). */
  siteUrl: string;
}

// Reads without Scan: the design allows only bounded Queries, so IAM refuses Scan outright.
const tableReadActions = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
  'dynamodb:DescribeTable',
];

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

/** SES v2 sends through identities of this account and region only. */
const sendEmail = (stack: Stack) =>
  new PolicyStatement({
    actions: ['ses:SendEmail'],
    resources: [stack.formatArn({ service: 'ses', resource: 'identity', resourceName: '*' })],
  });

/** Grants exactly what the route or worker table lists, nothing more. */
export const grantAccess = (grantee: IGrantable, grants: readonly Grant[], resources: ServiceResources) => {
  for (const grant of grants) {
    if (grant === 'table:read') resources.table.grant(grantee, ...tableReadActions);
    else if (grant === 'table:write') resources.table.grantWriteData(grantee);
    else if (grant === 'photos:read') resources.photosBucket.grantRead(grantee);
    else if (grant === 'photos:write') resources.photosBucket.grantWrite(grantee);
    else if (grant === 'stripe') stripeSecretOf(resources).grantRead(grantee);
    else if (grant === 'identity:admin') firebaseAdminSecretOf(resources).grantRead(grantee);
    else if (grant === 'email:send') grantee.grantPrincipal.addToPrincipalPolicy(sendEmail(Stack.of(resources.table)));
    else queueOf(resources, grant).queue.grantSendMessages(grantee);
  }
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
    // Only functions that may read the secret learn where it is.
    ...(grants.includes('stripe') ? { STRIPE_SECRET_ARN: stripeSecretOf(resources).secretArn } : {}),
    ...(grants.includes('identity:admin')
      ? { FIREBASE_ADMIN_SECRET_ARN: firebaseAdminSecretOf(resources).secretArn }
      : {}),
    ...(grants.includes('email:send') && resources.email
      ? { MAIL_FROM: resources.email.mailFrom, SITE_URL: resources.email.siteUrl }
      : {}),
  };
};
