import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { globalIndexes, tableKeys, ttlAttribute } from '../src/data/table-schema';

/** Creates the table as the CDK data stack defines it, unless it is already there. */
export const ensureTable = async (client: DynamoDBClient, tableName: string) => {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return 'existing' as const;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  const keyAttributes = [
    tableKeys.partitionKey,
    tableKeys.sortKey,
    ...globalIndexes.flatMap((g) => [g.partitionKey, g.sortKey]),
  ];
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: keyAttributes.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: tableKeys.partitionKey, KeyType: 'HASH' },
        { AttributeName: tableKeys.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: globalIndexes.map((g) => ({
        IndexName: g.indexName,
        KeySchema: [
          { AttributeName: g.partitionKey, KeyType: 'HASH' },
          { AttributeName: g.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    }),
  );
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: ttlAttribute, Enabled: true },
    }),
  );
  return 'created' as const;
};
