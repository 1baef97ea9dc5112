import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { config } from '../config';

let client: DynamoDBClient | undefined;

/**
 * The SDK's DynamoDB client, one per process (a Lambda container, or the local gateway): ElectroDB's,
 * the ops tools' and the tests'. The request paths send their calls as signed requests instead
 * (table-requests.ts, decision 0119).
 */
export const dynamo = () => {
  const { AWS_REGION, DYNAMODB_ENDPOINT } = config();
  client ??= new DynamoDBClient({
    region: AWS_REGION,
    // The configured credential chain signs whatever the endpoint (DynamoDB Local, run with a
    // shared database, accepts the stack's keys as any others).
    ...(DYNAMODB_ENDPOINT ? { endpoint: DYNAMODB_ENDPOINT } : {}),
  });
  return client;
};

export const tableName = () => config().TABLE_NAME;
