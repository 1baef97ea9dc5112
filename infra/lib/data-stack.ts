import { globalIndexes, tableKeys, tableStreamViewType, ttlAttribute } from '@marketplace/services/data/table-schema';
import { CfnOutput, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import {
  AttributeType,
  BillingMode,
  ProjectionType,
  StreamViewType,
  Table,
  TableEncryption,
} from 'aws-cdk-lib/aws-dynamodb';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';

/** The shape the operator writes into the Stripe secret; services/src/adapters/stripe.ts reads it. */
export const stripeSecretShape = { secretKey: '', webhookSecret: '' };

/** A fixed name, so the operator can fill the secret without looking it up. */
export const stripeSecretName = 'marketplace/stripe';

/** A Firebase service account key (the JSON Firebase's console downloads), for disabling deleted users' sign-in. */
export const firebaseAdminSecretName = 'marketplace/firebase-admin';

/** The key that signs the emails' unsubscribe links; CloudFormation generates it and nobody types it. */
export const unsubscribeKeySecretName = 'marketplace/unsubscribe-key';

/**
 * What outlives every deploy: the one single-table-design table (its shape comes from the same
 * schema the local stack uses) and the Stripe keys the operator puts in by hand.
 */
export class DataStack extends Stack {
  readonly table: Table;
  readonly stripeSecret: Secret;
  readonly firebaseAdminSecret: Secret;
  readonly unsubscribeKeySecret: Secret;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);

    this.table = new Table(this, 'Table', {
      partitionKey: { name: tableKeys.partitionKey, type: AttributeType.STRING },
      sortKey: { name: tableKeys.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: ttlAttribute,
      encryption: TableEncryption.AWS_MANAGED,
      // The outbox: the stream carries each new outbox record to the queues (see services/src/pipes.ts).
      stream: StreamViewType[tableStreamViewType],
      // Orders, payments and users outlive any stack: never delete them with it.
      removalPolicy: RemovalPolicy.RETAIN,
      deletionProtection: true,
    });

    for (const index of globalIndexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        projectionType: ProjectionType.ALL,
      });
    }

    // Keys never pass through the template: the secret starts with empty keys and a random
    // placeholder, and the operator writes the real JSON in. Changing generateSecretString would
    // make CloudFormation overwrite what the operator wrote, so leave it as it is.
    this.stripeSecret = new Secret(this, 'StripeSecret', {
      secretName: stripeSecretName,
      description: 'Stripe keys of the marketplace: {"secretKey":"sk_live_...","webhookSecret":"whsec_..."}',
      generateSecretString: {
        secretStringTemplate: JSON.stringify(stripeSecretShape),
        generateStringKey: 'placeholder',
      },
      removalPolicy: RemovalPolicy.RETAIN,
    });

    Validations.of(this.stripeSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        "Stripe's keys are rolled in Stripe's dashboard, which no rotation function can do; the operator writes the new ones into this secret.",
    });

    new CfnOutput(this, 'StripeSecretName', {
      description: 'Put the Stripe secret key and webhook signing secret in this secret',
      value: this.stripeSecret.secretName,
    });

    // Same pattern: a placeholder the operator replaces with the service account's JSON key.
    this.firebaseAdminSecret = new Secret(this, 'FirebaseAdminSecret', {
      secretName: firebaseAdminSecretName,
      description: 'Firebase service account key (JSON) the admin routes use to disable and re-enable accounts',
      generateSecretString: { secretStringTemplate: '{}', generateStringKey: 'placeholder' },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(this.firebaseAdminSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        "A Firebase service account key is made in Google Cloud's console, out of AWS's reach; the operator replaces it there and here.",
    });
    new CfnOutput(this, 'FirebaseAdminSecretName', {
      description: 'Put the Firebase service account key JSON in this secret',
      value: this.firebaseAdminSecret.secretName,
    });

    // The unsubscribe links' signing key (HMAC-SHA256): 64 random characters generated once, the
    // whole SecretString. Kept with the data: a new key would break every link already emailed.
    this.unsubscribeKeySecret = new Secret(this, 'UnsubscribeKeySecret', {
      secretName: unsubscribeKeySecretName,
      description:
        "Signs and checks the emails' one-click unsubscribe links (generated; read by the functions granted unsubscribe:key)",
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(this.unsubscribeKeySecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Rotating the key would break every unsubscribe link already emailed (each works for 90 days); it is replaced by hand if it ever leaks.',
    });
  }
}
