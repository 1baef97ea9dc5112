import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '../src/config';
import { dynamo, tableName } from '../src/data/client';
import { startVerifyingStandIn } from './sigv4-verifier';

/**
 * An explicit endpoint (a VPC or FIPS endpoint, or the local stand-in) is signed with the
 * configured credential chain, as the service's own endpoint is: here a verifier that checks
 * DynamoDB's signatures stands in front of DynamoDB Local, and only the configured role session's
 * key is known to it.
 */
const roleSession = { accessKeyId: 'ASIADYNAMOROLE', secretAccessKey: 'dynamo-role-secret', sessionToken: 'token/+=' };
const environmentBefore = { ...process.env };
let verifier: Awaited<ReturnType<typeof startVerifyingStandIn>>;

beforeAll(async () => {
  verifier = await startVerifyingStandIn({
    service: 'dynamodb',
    region: String(process.env.AWS_REGION),
    secrets: { [roleSession.accessKeyId]: roleSession.secretAccessKey },
    backendPort: Number(new URL(String(process.env.DYNAMODB_ENDPOINT)).port),
  });
  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: `http://127.0.0.1:${verifier.port}`,
    AWS_ACCESS_KEY_ID: roleSession.accessKeyId,
    AWS_SECRET_ACCESS_KEY: roleSession.secretAccessKey,
    AWS_SESSION_TOKEN: roleSession.sessionToken,
  });
  resetConfig();
});

afterAll(async () => {
  process.env = environmentBefore;
  resetConfig();
  dynamo().destroy();
  await verifier.close();
});

describe('DynamoDB at an explicit endpoint', () => {
  it('is signed with the configured credentials, and answers', async () => {
    const { Item } = await dynamo().send(
      new GetItemCommand({ TableName: tableName(), Key: { pk: { S: 'no-such-item' }, sk: { S: 'no-such-item' } } }),
    );
    expect(Item).toBeUndefined();
    expect(verifier.verdicts).toEqual([
      expect.objectContaining({ method: 'POST', accessKeyId: roleSession.accessKeyId, problem: undefined }),
    ]);
  });
});
