import { globalIndexes, tableKeys, ttlAttribute } from '@marketplace/services/data/table-schema';
import { RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';

/** The one single-table-design table; its shape comes from the same schema the local stack uses. */
export class DataStack extends Stack {
  readonly table: Table;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);

    this.table = new Table(this, 'Table', {
      partitionKey: { name: tableKeys.partitionKey, type: AttributeType.STRING },
      sortKey: { name: tableKeys.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: ttlAttribute,
      encryption: TableEncryption.AWS_MANAGED,
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
  }
}
