import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceNotFoundException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { globalIndexes, tableKeys, tableStreamViewType, ttlAttribute } from '../src/data/table-schema';

/** The outbox rides on the table's stream: new images are all the pipes need. */
const streamSpecification = { StreamEnabled: true, StreamViewType: tableStreamViewType } as const;

const globalIndexSpecification = (g: (typeof globalIndexes)[number]) => ({
  IndexName: g.indexName,
  KeySchema: [
    { AttributeName: g.partitionKey, KeyType: 'HASH' as const },
    { AttributeName: g.sortKey, KeyType: 'RANGE' as const },
  ],
  Projection: { ProjectionType: 'ALL' as const },
});

/**
 * Creates the table as the CDK data stack defines it, unless it is already there (then turns its
 * stream on if off). `stream: false` is for a test's table of its own, which no poller reads:
 * DynamoDB Local keeps every stream record it writes, and writes slow down as they pile up.
 */
export const ensureTable = async (client: DynamoDBClient, tableName: string, { stream = true } = {}) => {
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (stream && !Table?.StreamSpecification?.StreamEnabled) {
      await client.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification: streamSpecification }));
    }
    // A table kept from an earlier version gains the indexes added since (one per update, as in DynamoDB).
    const present = new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
    for (const index of globalIndexes.filter((g) => !present.has(g.indexName))) {
      await client.send(
        new UpdateTableCommand({
          TableName: tableName,
          AttributeDefinitions: [
            { AttributeName: index.partitionKey, AttributeType: 'S' },
            { AttributeName: index.sortKey, AttributeType: 'S' },
          ],
          GlobalSecondaryIndexUpdates: [{ Create: globalIndexSpecification(index) }],
        }),
      );
    }
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
      ...(stream ? { StreamSpecification: streamSpecification } : {}),
      AttributeDefinitions: keyAttributes.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: tableKeys.partitionKey, KeyType: 'HASH' },
        { AttributeName: tableKeys.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: globalIndexes.map(globalIndexSpecification),
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
