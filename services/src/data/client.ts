import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { config } from '../config';

let client: DynamoDBClient | undefined;

/** One client per process (a Lambda container, or the local gateway). */
export const dynamo = () => {
  const { AWS_REGION, DYNAMODB_ENDPOINT } = config();
  client ??= new DynamoDBClient({
    region: AWS_REGION,
    ...(DYNAMODB_ENDPOINT
      ? // DynamoDB Local accepts any credentials; these are only used against an explicit endpoint.
        { endpoint: DYNAMODB_ENDPOINT, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
  });
  return client;
};

export const tableName = () => config().TABLE_NAME;
